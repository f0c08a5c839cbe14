"""The filter corpus and its judge: which lines of each real output a filter must keep, and how well one did.

The judge is written apart from the filters (it shares no code or pattern with ``zeph_nb/output``) and names
the lines the bar protects: failing test names, assertion messages, compiler errors, traceback lines and final
summary lines. ``evaluate`` reports token reduction over the whole corpus and recall of those lines.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "filter_corpus"
CHARS_PER_TOKEN = 2.8

_CRITICAL = re.compile(
    "|".join(
        [
            # failing test names
            r"\bFAILED\b",
            r"^(FAIL|ERROR): \w",
            r"--- FAIL: ",
            r"^FAIL\s",
            r"^\s*✖ ",
            r"^\s*● ",
            r"^not ok \d",
            r"\.\.\. FAILED$",
            r"^---- .+ stdout ----$",
            # assertion messages
            r"^E\s+\S",
            r"AssertionError",
            r"panicked at",
            r"^\s*(left|right): ",
            r"^\s*(Expected|Received):",
            r"_test\.go:\d+: ",
            # compiler errors
            r"^\S+:\d+(:\d+)?: (fatal )?error",
            r"^error(\[E\d+\])?: ",
            r"\berror TS\d+",
            # tracebacks
            r"^Traceback \(most recent call last\)",
            r"^\s*File \".+\", line \d+",
            r"^\w+(Error|Exception): ",
            # final summary lines
            r"^=+ .*\b(passed|failed)\b.* in [\d.]+s",
            r"^\d+ (passed|failed)\b",
            r"^Ran \d+ tests? in",
            r"^(OK|FAILED)( \(|$)",
            r"^test result: ",
            r"^(ok|FAIL)\s+\S+\s+[\d.]+s",
            r"^(Tests|Test Suites):\s",
            r"^ℹ (tests|pass|fail) \d",
            r"^# (tests|pass|fail) \d",
            r"make(\[\d+\])?: \*\*\*",
            r"^npm (ERR!|error) ",
            r"^ERROR: ",
            r"^Successfully installed ",
            r"^Found \d+ errors?\b",
            r"^Found \d+ errors? in \d+ files?",
        ]
    )
)


@dataclass(frozen=True)
class Sample:
    name: str
    command: str
    exit_code: int
    output: str

    @property
    def critical(self) -> list[str]:
        return [line for line in self.output.splitlines() if _CRITICAL.search(line)]


class Reduction:
    """Tokens removed over a corpus, estimated (chars/2.8) and counted (BPE)."""

    raw_tokens: int
    kept_tokens: int
    bpe_raw: int
    bpe_kept: int

    @property
    def reduction(self) -> float:
        return 1 - self.kept_tokens / self.raw_tokens

    @property
    def bpe_reduction(self) -> float:
        return 1 - self.bpe_kept / self.bpe_raw if self.bpe_raw else 0.0


@dataclass(frozen=True)
class Score(Reduction):
    raw_tokens: int
    kept_tokens: int
    critical: int
    critical_kept: int
    lost: dict[str, list[str]]
    bpe_raw: int = 0
    bpe_kept: int = 0

    @property
    def recall(self) -> float:
        return self.critical_kept / self.critical if self.critical else 1.0


def load() -> list[Sample]:
    samples = []
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text())
        samples.append(Sample(path.stem, data["command"], data["exit_code"], data["output"]))
    return samples


def tokens(text: str) -> int:
    return round(len(text) / CHARS_PER_TOKEN)


@lru_cache(maxsize=1)
def _encoding() -> Any:
    with warnings.catch_warnings():  # its import and loader use importlib.resources.open_binary (deprecated)
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        encoding = bpe_openai.get_encoding("o200k_base")
        encoding.encode_ordinary("x")  # the vocabulary loads on first use
        return encoding


def bpe_tokens(text: str) -> int:
    """Real BPE tokens (o200k_base, from the bpe-openai wheel, which carries its vocabulary)."""
    return len(_encoding().encode_ordinary(text)) if text else 0


def evaluate(samples: list[Sample], run: Callable[[Sample], str]) -> Score:
    raw = kept = critical = critical_kept = bpe_raw = bpe_kept = 0
    lost: dict[str, list[str]] = {}
    for sample in samples:
        filtered = run(sample)
        raw += tokens(sample.output)
        kept += tokens(filtered)
        bpe_raw += bpe_tokens(sample.output)
        bpe_kept += bpe_tokens(filtered)
        # A kept line may have lost surrounding whitespace (a summary's "=" rule) but not its content.
        present = {line.strip(" =") for line in filtered.splitlines()}
        for line in sample.critical:
            critical += 1
            if line.strip(" =") in present:
                critical_kept += 1
            else:
                lost.setdefault(sample.name, []).append(line)
    return Score(raw, kept, critical, critical_kept, lost, bpe_raw, bpe_kept)


def head_tail(sample: Sample, head: int = 10, tail: int = 10) -> str:
    """The naive baseline: the first and last lines of every output."""
    lines = sample.output.splitlines()
    if len(lines) <= head + tail:
        return sample.output
    return "\n".join([*lines[:head], f"... ({len(lines) - head - tail} lines omitted) ...", *lines[-tail:]])
