"""The secret scanner: quality on the labelled corpus against detect-secrets, and speed on tool output.

Quality: recall and precision on each split of tests/data/secrets/ (dev and tune2 were tuned on; heldout was not,
see its README), for zeph's scanner and for Yelp's detect-secrets (default plugins and filters), which was the
maintained alternative evaluated as a dependency. Speed, quality's baseline: detect-secrets on the same samples.

Speed on output, against running every pattern over the whole text (how it worked before).

Baseline in the same run: each of ``PATTERNS`` over the full text, no keyword prefilter. Two 1.2 MB outputs:
test-runner lines (no keyword: most patterns are skipped) and web-log lines (``token``, ``://`` and ``api`` on every
line: the patterns run everywhere).
"""

from __future__ import annotations

import statistics
import time

from bench.secrets_corpus import Detector, detect_secrets_detector, load, score, zeph_detector
from zeph_nb.security.secret_patterns import PATTERNS
from zeph_nb.security.secrets import scan_secrets

TEXTS = {
    "test-runner output": "collecting tests/test_x.py::test_ok PASSED [ 10%] 0123456789\n" * 20000,
    "web log (keywords on every line)": "GET https://example.org/api/v1 token refresh ok 200\n" * 20000,
    # A hostile output repeating one key: findings are kept sorted, so this stays linear (it took 37 s per MB when
    # each new finding was compared with every earlier one).
    "one GitHub token repeated 25,000 times": ("x ghp_" + "a1B2c3D4" * 4 + "e5F6 ") * 25000,
}


def _seconds(run: object, text: str, rounds: int = 5) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        run(text)  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _every_pattern(text: str) -> None:
    for _, pattern, _ in PATTERNS:
        list(pattern.finditer(text))


def quality() -> None:
    detectors: dict[str, Detector | None] = {"zeph": zeph_detector, "detect-secrets": detect_secrets_detector()}
    for split in ("dev", "tune2", "heldout"):
        try:
            samples = load(split)
        except FileNotFoundError:
            continue
        for name, detector in detectors.items():
            if detector is None:
                print(f"secrets corpus, {split}: {name} is not installed (pip install -e '.[dev]')")
                continue
            start = time.perf_counter()
            result = score(detector, samples)
            per_sample = (time.perf_counter() - start) / len(samples) * 1e3
            print(
                f"secrets corpus, {split} ({len(samples)} samples, {result.labelled} values), {name}: "
                f"recall {result.recall:.1%}, precision {result.precision:.1%}, {per_sample:.2f} ms/sample"
            )


def main() -> None:
    quality()
    for name, text in TEXTS.items():
        base, ours = _seconds(_every_pattern, text), _seconds(scan_secrets, text)
        mb = len(text) / 1e6
        print(f"secrets, {name}: {mb / ours:.1f} MB/s, every pattern {mb / base:.1f} MB/s ({base / ours:.1f}x faster)")


if __name__ == "__main__":
    main()
