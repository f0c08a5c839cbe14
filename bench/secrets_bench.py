"""The secret scanner on tool output, against running every pattern over the whole text (how it worked before).

Baseline in the same run: each of ``_PATTERNS`` over the full text, no keyword prefilter. Two 1.2 MB outputs:
test-runner lines (no keyword: most patterns are skipped) and web-log lines (``token``, ``://`` and ``api`` on every
line: the patterns run everywhere).
"""

from __future__ import annotations

import statistics
import time

from zeph_nb.security.secrets import _PATTERNS, scan_secrets

TEXTS = {
    "test-runner output": "collecting tests/test_x.py::test_ok PASSED [ 10%] 0123456789\n" * 20000,
    "web log (keywords on every line)": "GET https://example.org/api/v1 token refresh ok 200\n" * 20000,
}


def _seconds(run: object, text: str, rounds: int = 5) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        run(text)  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _every_pattern(text: str) -> None:
    for _, pattern, _ in _PATTERNS:
        list(pattern.finditer(text))


def main() -> None:
    for name, text in TEXTS.items():
        base, ours = _seconds(_every_pattern, text), _seconds(scan_secrets, text)
        mb = len(text) / 1e6
        print(f"secrets, {name}: {mb / ours:.1f} MB/s, every pattern {mb / base:.1f} MB/s ({base / ours:.1f}x faster)")


if __name__ == "__main__":
    main()
