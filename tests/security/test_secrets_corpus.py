"""The scanner on the labelled corpus it was tuned on (tests/data/secrets/dev.jsonl and tune2.jsonl): a guard that a
change to a pattern does not quietly lose what was reached. The held-out split is judged by ``python -m bench``
only (bench/secrets_bench.py), so that nobody tunes against it through a failing test."""

from __future__ import annotations

import pytest

from bench.secrets_corpus import CORPUS, load, score, zeph_detector


@pytest.mark.parametrize("split", ["dev", "tune2"])
def test_tuned_splits_stay_above_98_percent(split: str) -> None:
    result = score(zeph_detector, load(split))
    assert result.labelled >= 130, "the split lost its samples"
    assert result.recall >= 0.98, f"recall {result.recall:.1%}; missed: {result.missed}"
    assert result.precision >= 0.98, f"precision {result.precision:.1%}; flagged: {result.false}"


def test_every_label_occurs_in_its_sample() -> None:
    splits = sorted(path.stem for path in CORPUS.glob("*.jsonl"))
    assert {"dev", "tune2"} <= set(splits)
    for split in splits:
        for sample in load(split):
            for value in sample["secrets"]:  # type: ignore[attr-defined]
                assert value in str(sample["text"]), (split, sample["id"])
