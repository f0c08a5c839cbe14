"""Recall and precision of a secret detector on the labelled corpus in ``tests/data/secrets/``.

Two splits, written by different hands from the scanner: ``dev.jsonl`` (patterns may be tuned against it) and
``heldout.jsonl`` (judged before any tuning and after, never looked at sample by sample while tuning). See the
README there.

Scoring, per labelled value: it counts as caught when findings cover at least 80% of its characters at every place
it occurs (a key redacted except for a short tail is caught; one redacted only in its first half is not). Per
finding: it is a true positive when it overlaps a labelled value, a false positive otherwise (every finding in a
negative sample is one).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "secrets"
COVERED = 0.8

Span = tuple[int, int]
Detector = Callable[[str], list[Span]]


@dataclass
class Score:
    labelled: int = 0
    caught: int = 0
    findings: int = 0
    true_findings: int = 0
    missed: list[tuple[str, str, str]] = field(default_factory=list)  # (id, kind, value)
    false: list[tuple[str, str, str]] = field(default_factory=list)  # (id, kind, flagged text)

    @property
    def recall(self) -> float:
        return self.caught / self.labelled if self.labelled else 1.0

    @property
    def precision(self) -> float:
        return self.true_findings / self.findings if self.findings else 1.0


def load(split: str) -> list[dict[str, object]]:
    with open(CORPUS / f"{split}.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _occurrences(text: str, value: str) -> list[Span]:
    spans, at = [], text.find(value)
    while at >= 0:
        spans.append((at, at + len(value)))
        at = text.find(value, at + 1)
    return spans


def score(detector: Detector, samples: list[dict[str, object]]) -> Score:
    result = Score()
    for sample in samples:
        text, sample_id, kind = str(sample["text"]), str(sample["id"]), str(sample["kind"])
        values = [str(value) for value in sample["secrets"]]  # type: ignore[attr-defined]
        labelled = [span for value in values for span in _occurrences(text, value)]
        found = detector(text)
        for value in values:
            result.labelled += 1
            spans = _occurrences(text, value)
            if spans and all(_covered(span, found) >= COVERED for span in spans):
                result.caught += 1
            else:
                result.missed.append((sample_id, kind, value))
        for start, end in found:
            result.findings += 1
            if any(start < b and a < end for a, b in labelled):
                result.true_findings += 1
            else:
                result.false.append((sample_id, kind, text[start:end]))
    return result


def _covered(span: Span, found: list[Span]) -> float:
    start, end = span
    covered = [False] * (end - start)
    for a, b in found:
        for i in range(max(a, start), min(b, end)):
            covered[i - start] = True
    return sum(covered) / max(1, end - start)


def zeph_detector(text: str) -> list[Span]:
    from zeph_nb.security.secrets import scan_secrets

    return [(f.start, f.end) for f in scan_secrets(text)]


def detect_secrets_detector() -> Detector | None:
    """Yelp's detect-secrets with its default plugins and filters, run as ``detect-secrets scan`` runs on a file
    (its ad-hoc ``scan_line`` reports every plugin's raw candidates, unfiltered); each reported value is located in
    its line. None when the package is not installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    import tempfile

    def detect(text: str) -> list[Span]:
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        spans: set[Span] = set()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sample.txt"  # a neutral name: some plugins and filters look at the file name
            path.write_text(text, encoding="utf-8")
            collection = SecretsCollection()
            with default_settings():
                collection.scan_file(str(path))
            for _, secret in collection:
                value, number = secret.secret_value or "", (secret.line_number or 1) - 1
                line = lines[number] if number < len(lines) else ""
                at = line.find(value) if value else -1
                if at >= 0:
                    spans.add((starts[number] + at, starts[number] + at + len(value)))
        return sorted(spans)

    return detect
