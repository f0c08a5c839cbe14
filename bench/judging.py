"""What every judged corpus's recorder shares: the judgement file, copying it into the samples, and the check.

A corpus folder holds one JSON file per sample (``command``, ``exit_code``, ``output``, ``must_keep``, ``why``,
and ``split`` where the corpus is split) and ``JUDGED.json``, the judgement made by reading each output before any
filter ran on it. Re-recording keeps the judged lines that still occur and reports the rest, to be judged again by
reading.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["apply_judgement", "check", "judged"]


def judged(folder: Path) -> dict[str, dict[str, Any]]:
    """The judgement of ``folder``'s samples, by name."""
    path = folder / "JUDGED.json"
    result: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}
    return result


def _samples(folder: Path) -> list[Path]:
    return sorted(path for path in folder.glob("*.json") if path.name != "JUDGED.json")


def apply_judgement(folder: Path, *, split: bool = False) -> int:
    """Copy the judgement (and with ``split`` each sample's half) into each sample, keeping only judged lines that
    still occur; report the rest and return how many there were."""
    judgement = judged(folder)
    missing = 0
    for path in _samples(folder):
        sample = json.loads(path.read_text())
        entry = judgement.get(path.stem)
        if entry is None:
            print(f"NOT JUDGED  {path.stem}")
            missing += 1
            continue
        lines = set(sample["output"].splitlines())
        for line in entry["must_keep"]:
            if line not in lines:
                print(f"GONE        {path.stem}: {line!r}")
                missing += 1
        if split:
            sample["split"] = entry["split"]
        sample.update(why=entry["why"], must_keep=[line for line in entry["must_keep"] if line in lines])
        path.write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
    return missing


def check(folder: Path, *, split: bool = False) -> int:
    """Every sample judged (and with ``split`` in a half), as JUDGED.json says, every must_keep line verbatim in
    ``output.splitlines()``, no output empty, nothing judged but not recorded; prints and returns the problems."""
    judgement = judged(folder)
    problems = total = kept = 0
    names = [path.stem for path in _samples(folder)]
    for name in names:
        sample = json.loads((folder / f"{name}.json").read_text())
        lines = set(sample["output"].splitlines())
        keep = sample.get("must_keep")
        if not keep or not sample.get("why") or (split and sample.get("split") not in ("dev", "test")):
            print(f"FAIL {name}: no must_keep/why" + ("/split" if split else ""))
            problems += 1
            continue
        entry = judgement.get(name, {})
        if entry.get("must_keep") != keep or entry.get("why") != sample["why"]:
            print(f"FAIL {name}: judgement differs from JUDGED.json")
            problems += 1
        for line in keep:
            if line not in lines:
                print(f"FAIL {name}: not in output: {line!r}")
                problems += 1
        if not sample["output"].strip():
            print(f"FAIL {name}: empty output")
            problems += 1
        total += len(sample["output"])
        kept += len(keep)
    for name in sorted(set(judgement) - set(names)):
        print(f"FAIL {name}: judged but not recorded")
        problems += 1
    print(f"{len(names)} samples, {kept} must_keep lines, {total} chars, {problems} problems")
    return problems
