"""Filters: token reduction and recall on the real corpus, and throughput of the line strategies.

Baselines in the same run: the Zeph anchor rules loaded into this engine, naive head+tail truncation, and for
throughput a bare ``str.splitlines`` + join over the same text (the floor any line filter pays).
"""

from __future__ import annotations

import random
import string
import time
from collections.abc import Callable
from pathlib import Path

from bench.corpus import evaluate, head_tail, load
from bench.heldout import (
    HELDOUT,
    HELDOUT_B,
    HELDOUT_D,
    HELDOUT_F,
    HELDOUT_G,
    HELDOUT_H,
    HELDOUT_I,
    TUNE,
    TUNE_E,
    load_heldout,
)
from bench.heldout import score as score_heldout
from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.generic import generic_filter
from zeph_nb.output.rules import Dedup, KeepMatching, Match, Rule, StripNoise, Truncate, load_rules
from zeph_nb.output.sanitize import sanitize
from zeph_nb.output.strategies import apply_strategy

ANCHOR = Path(__file__).resolve().parents[2] / "shared" / "anchors" / "zeph-default-filters.toml"


def rate(fn: Callable[[], object], size: int, repeat: int = 3) -> float:
    """MB/s of ``fn`` over ``size`` bytes, best of ``repeat`` (also bench/template_bench.py's)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return size / best / 1e6


def main() -> None:
    samples = load()
    ours = FilterEngine(default_rules())
    print(f"filters: {len(samples)} real outputs in tests/data/filter_corpus")
    runs = {"zeph-nb rules": lambda s: ours.filter(s.command, s.output, s.exit_code).text}
    if ANCHOR.is_file():
        anchor = FilterEngine(load_rules(ANCHOR.read_text()).rules)
        runs["anchor rules"] = lambda s: anchor.filter(s.command, s.output, s.exit_code).text
    runs["naive head+tail"] = head_tail
    for label, run in runs.items():
        score = evaluate(samples, run)
        print(f"  {label:16s} tokens removed {score.reduction:6.1%} (BPE {score.bpe_reduction:6.1%})"
              f"   judged lines kept {score.recall:6.1%}"
              f" ({score.critical_kept}/{score.critical})")  # fmt: skip

    corpora = (
        (HELDOUT, None, "held-apart, judged before any filter ran on it; never tuned on"),
        (HELDOUT_B, None, "held-apart, judged by one who never read the filters; never tuned on"),
        (HELDOUT_D, None, "held-apart, recorded and judged by one who read neither filters nor results"),
        (TUNE, "dev", "C-dev: rules are tuned on these"),
        (TUNE, "test", "C-test: scored before and after tuning, never read while tuning"),
        (TUNE_E, "dev", "E-dev: a session's size mix; rules are tuned on these"),
        (TUNE_E, "test", "E-test: scored before and after tuning on E-dev, never read while tuning"),
        (HELDOUT_F, None, "F: held apart, recorded beside E by one who read neither filters nor results"),
        (HELDOUT_G, None, "G: held apart, recorded later by a third who read neither filters nor results"),
        (HELDOUT_H, None, "H: held apart, tool families no other corpus has, by a fourth who read neither"),
        (HELDOUT_I, None, "I: held apart, interleaved logs of real programs, by a fifth who read neither"),
    )
    for folder, split, said in corpora:
        heldout = load_heldout(folder, split)
        if not heldout:
            continue
        print(f"filters: {len(heldout)} real outputs in tests/data/{folder.name} ({said})")
        held_runs = {"zeph-nb rules": lambda s: ours.filter(s.command, s.output, s.exit_code).text}
        if ANCHOR.is_file():
            held_runs["anchor rules"] = lambda s: anchor.filter(s.command, s.output, s.exit_code).text
        held_runs["naive head+tail"] = lambda s: head_tail(s)  # type: ignore[arg-type]
        for label, run in held_runs.items():
            print(f"  {label:16s} {score_heldout(heldout, run).line()}")

    log = next(s for s in samples if s.name == "cat_log").output * 40  # ~4 MB of real log lines
    clean = sanitize(log)
    floor = rate(lambda: "\n".join(log.splitlines()), len(log))
    print(f"  throughput on {len(log) / 1e6:.1f} MB of log lines; floor (splitlines + join): {floor:.0f} MB/s")
    strategies = {
        "strip_noise": StripNoise(type="strip_noise", patterns=[r"^\S+ DEBUG ", r"INFO  heartbeat", r"^\s*$"]),
        "keep_matching": KeepMatching(type="keep_matching", patterns=[r" (WARN|ERROR) "]),
        "truncate": Truncate(type="truncate", max_lines=100, head=50, tail=20),
        "dedup": Dedup(type="dedup"),
    }
    print("  strategy alone (on sanitized text) | whole filter_output (sanitize + rule + security pass):")
    for label, strategy in strategies.items():
        alone = rate(lambda st=strategy: apply_strategy(clean, st, 0), len(clean))
        engine = FilterEngine([Rule(name=label, match=Match(prefix="x"), strategy=strategy)])
        whole = rate(lambda e=engine: e.filter("x", log, 0), len(log))
        ratios = f"({alone / floor:.2f}x floor) | {whole:6.0f} MB/s ({whole / floor:.2f}x floor)"
        print(f"    {label:14s} {alone:6.0f} MB/s {ratios}")
    generic = FilterEngine([])  # no rule knows "x": the generic fallback runs
    alone = rate(lambda: generic_filter(clean), len(clean))
    whole = rate(lambda: generic.filter("x", log, 0), len(log))
    ratios = f"({alone / floor:.2f}x floor) | {whole:6.0f} MB/s ({whole / floor:.2f}x floor)"
    print(f"    {'generic':14s} {alone:6.0f} MB/s {ratios}")
    print(f"    {'sanitize':14s} {rate(lambda: sanitize(log), len(log)):6.0f} MB/s")
    # The 4 MB above is one real log forty times: what is grouped by kind (dedup, generic) is worked out once per
    # group, so repetition flatters them. The same log once, and 3 MB of lines that share no kind, say the rest.
    once = next(s for s in samples if s.name == "cat_log").output
    rnd = random.Random(7)
    unique = "\n".join(
        f"2026-11-22 req {''.join(rnd.choices(string.ascii_lowercase, k=8))} took {rnd.randint(1, 999)}ms"
        f" user {''.join(rnd.choices(string.ascii_letters, k=6))}"
        for _ in range(60_000)
    )
    dedup = Dedup(type="dedup")
    inputs = ((f"the log once ({len(once) // 1000} kB)", once), (f"{len(unique) / 1e6:.1f} MB, no kind twice", unique))
    for label, text in inputs:
        print(f"    {label:26s} dedup {rate(lambda t=text: apply_strategy(t, dedup, 0), len(text)):5.0f} MB/s"
              f"   generic {rate(lambda t=text: generic_filter(t), len(text)):5.0f} MB/s")  # fmt: skip
