"""Fold by template (issue 46, item 1): quality on the corpora and speed on 4 MB, our miner against drain3.

Variants, each run through the whole engine (sanitize, rule, put-back, security pass) in one process:

- ``today``: the engine as it was before the fold (generic run fold, the logs rule's dedup);
- ``no merge``: the fold with each kind its own template (``templates.MERGE`` None: as first shipped);
- ``fold``: the engine as shipped (kinds alike but for a word merged by ``templates.mine_templates``, Drain's
  idea, each merged kind's first line shown);
- ``drain3 merge``: the same, drain3's ``TemplateMiner`` as the merge over the distinct kinds;
- ``+ logs rule``: the fold, and the ``logs`` rule keeping the shorter of its dedup and the fold (``by_template``,
  off as shipped).

drain3 is not a dependency: ``--drain3-path DIR`` points at a folder it is installed in
(``pip install --target DIR drain3==0.9.11``). Held-apart corpora are scored with ``--heldout`` only, as totals:
never read which lines they lose.

    python -m bench.template_bench [--heldout] [--breakdown] [--corpus LABEL ...] [--no-speed] [--drain3-path DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.corpus import evaluate, head_tail, load
from bench.filter_bench import ANCHOR, rate
from bench.filter_speed_bench import repeating_log, service_log
from bench.heldout import (
    HELDOUT,
    HELDOUT_B,
    HELDOUT_D,
    HELDOUT_F,
    HELDOUT_G,
    HELDOUT_H,
    HELDOUT_I,
    HELDOUT_J,
    HELDOUT_K,
    TUNE,
    TUNE_E,
    HeldoutScore,
    breakdown,
    load_heldout,
    pool,
)
from bench.heldout import score as score_heldout
from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output import templates
from zeph_nb.output.rules import Dedup, Rule, StripNoise, load_rules

Miner = Callable[[list[str]], dict[str, tuple[str, ...]]]


def drain3_miner() -> Miner:
    """drain3's TemplateMiner as the merge step: each distinct kind (our normalising already applied) is one log
    message; its cluster's template is the kind's template (drain3 writes a hole as ``<*>`` too)."""
    from drain3 import TemplateMiner
    from drain3.template_miner_config import TemplateMinerConfig

    def mine(kinds: list[str]) -> dict[str, tuple[str, ...]]:
        config = TemplateMinerConfig()
        config.profiling_enabled = False
        config.drain_sim_th = templates.SIMILAR
        config.drain_depth = templates._PREFIX + 2  # drain3's depth counts the root and the length level
        miner = TemplateMiner(config=config)
        cluster_of = {kind: miner.add_log_message(kind)["cluster_id"] for kind in kinds}
        by_id = {cluster.cluster_id: tuple(cluster.log_template_tokens) for cluster in miner.drain.clusters}
        return {kind: by_id[cluster] for kind, cluster in cluster_of.items()}

    return mine


def _with_templates(rule: Rule, on: bool, today: bool = False) -> Rule:
    """``rule`` with the logs rule folding by template or not (``on``); ``today``: no rule folding by template
    (the mypy and make rules' ``strip_noise`` neither)."""
    if isinstance(rule.strategy, StripNoise) and today:
        return rule.model_copy(update={"strategy": rule.strategy.model_copy(update={"by_template": False})})
    if not isinstance(rule.strategy, Dedup) or rule.name != "logs":
        return rule
    return rule.model_copy(update={"strategy": rule.strategy.model_copy(update={"by_template": on})})


@contextmanager
def variant(name: str, miners: dict[str, Miner]) -> Iterator[FilterEngine]:
    """The engine as ``name`` has it, for the duration."""
    saved = templates.MERGE
    try:
        templates.MERGE = miners.get(name, None if name == "no merge" else saved)
        # The logs rule keeps the shorter of its dedup and the fold in "+ logs rule" only (as shipped, its dedup).
        by_template = name == "+ logs rule"
        rules = [_with_templates(rule, by_template, today=name == "today") for rule in default_rules()]
        yield FilterEngine(rules, templates=name != "today")
    finally:
        templates.MERGE = saved


def _miner_speed(miners: dict[str, Miner]) -> None:
    """The merge step alone, ours and drain3's, on the same distinct kinds; and drain3 as it is usually run (every
    raw line through ``add_log_message``, its own masking off), for scale."""
    from zeph_nb.output.generic import line_kinds

    print("speed: the merge step alone on the distinct kinds of an output (ms, best of 3)")
    inputs = (
        ("repeating log 4 MB", repeating_log(4_000_000)),
        ("unlike lines 0.5 MB", service_log(500_000)),
        ("cat_log (bench corpus)", next(s for s in load() if s.name == "cat_log").output),
    )
    for label, text in inputs:
        lines = text.split("\n")
        kinds = list(dict.fromkeys(k for k in line_kinds(text, lines).kinds if isinstance(k, str) and k.strip()))
        cells = []
        for name, mine in {"own merge": templates.mine_templates, **miners}.items():
            took = min(_timed(lambda m=mine, k=kinds: m(k)) for _ in range(3))  # type: ignore[misc]
            cells.append(f"{name} {took * 1000:7.1f}")
        if "drain3 merge" in miners:
            from drain3 import TemplateMiner

            def every_line(lines: list[str] = lines) -> None:
                miner = TemplateMiner()
                for line in lines:
                    miner.add_log_message(line)

            cells.append(f"drain3 on every raw line {_timed(every_line) * 1000:8.1f}")
        print(f"  {label:24s} {len(lines):7,d} lines {len(kinds):6,d} kinds   " + "   ".join(cells))


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--heldout", action="store_true", help="also score the held-apart corpora (totals only)")
    parser.add_argument("--drain3-path", help="a folder drain3 is installed in (pip install --target)")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="where the removable tokens left are, by rule and by size, against the anchor (totals)",
    )
    parser.add_argument("--corpus", action="append", help="only these corpora (labels: C-dev, E-dev, I, A, ...)")
    args = parser.parse_args(argv)
    miners: dict[str, Miner] = {}
    names = ["today", "no merge", "fold"]
    if args.drain3_path:
        sys.path.insert(0, args.drain3_path)
        miners["drain3 merge"] = drain3_miner()
        names.append("drain3 merge")
    names.append("+ logs rule")

    def runner(engine: FilterEngine) -> Callable[[Any], str]:
        return lambda sample: engine.filter(sample.command, sample.output, sample.exit_code).text

    # The baselines of bench/filter_bench.py in the same run: the Zeph anchor rules in this engine, head+tail.
    others: dict[str, Callable[[Any], str]] = {}
    if ANCHOR.is_file():
        others["anchor rules"] = runner(FilterEngine(load_rules(ANCHOR.read_text()).rules))
    others["naive head+tail"] = head_tail
    samples = load()
    print(f"fold by template: {len(samples)} real outputs in tests/data/filter_corpus (bench corpus)")
    for name in [*names, *others]:
        if name in others:
            score = evaluate(samples, others[name])
        else:
            with variant(name, miners) as engine:
                score = evaluate(samples, runner(engine))
        print(f"  {name:18s} tokens removed {score.reduction:6.1%}   judged lines kept {score.recall:6.1%}"
              f" ({score.critical_kept}/{score.critical})")  # fmt: skip
    # I and J were scored once held apart, and are tuned on since (their lost lines read): scored every run.
    corpora: list[tuple[Any, str | None, str]] = [
        (TUNE, "dev", "C-dev"), (TUNE_E, "dev", "E-dev"), (HELDOUT_I, None, "I"), (HELDOUT_J, None, "J"),
    ]  # fmt: skip
    if args.heldout:
        corpora += [
            (HELDOUT, None, "A"), (HELDOUT_B, None, "B"), (HELDOUT_D, None, "D"), (TUNE, "test", "C-test"),
            (TUNE_E, "test", "E-test"), (HELDOUT_F, None, "F"), (HELDOUT_G, None, "G"), (HELDOUT_H, None, "H"),
        ]  # fmt: skip
        if any(HELDOUT_K.glob("*.json")):
            corpora.append((HELDOUT_K, None, "K"))
    if args.corpus:
        corpora = [corpus for corpus in corpora if corpus[2] in args.corpus]
    # The held-apart corpora pooled, as shipped and as the baselines do: one corpus's kind (H: long outputs of
    # tools no rule knows, whose lines do not repeat) then weighs by its tokens, not as one corpus of nine.
    pooled: dict[str, list[HeldoutScore]] = {}
    for folder, split, label in corpora:
        judged = load_heldout(folder, split)
        print(f"fold by template: {label}, {len(judged)} outputs in tests/data/{folder.name}")
        for name in names:
            with variant(name, miners) as engine:
                scored = score_heldout(judged, runner(engine))
            print(f"  {name:18s} {scored.line()}")
            if args.heldout and label not in ("C-dev", "E-dev", "I", "J") and name == "fold":
                pooled.setdefault(name, []).append(scored)
        for name, run in others.items():
            scored = score_heldout(judged, run)
            print(f"  {name:18s} {scored.line()}")
            if args.heldout and label not in ("C-dev", "E-dev", "I", "J"):
                pooled.setdefault(name, []).append(scored)
        if args.breakdown and "anchor rules" in others:
            with variant("fold", miners) as engine:

                def ruled(sample: Any, engine: FilterEngine = engine) -> tuple[str, str]:
                    out = engine.filter(sample.command, sample.output, sample.exit_code)
                    return out.text, (out.rule or "none") if out.changed else "unchanged"

                print("\n".join(breakdown(judged, ruled, others["anchor rules"])))
    if pooled:
        print(f"held-apart corpora pooled ({len(next(iter(pooled.values())))} of them, totals):")
        for name, scores in pooled.items():
            print(f"  {name:18s} {pool(scores).line()}")
    if args.no_speed:
        return
    _miner_speed(miners)
    print("speed: the fold alone, and the whole filter_output, on 4 MB of generated log (MB/s; floor: splitlines+join)")
    for label, make, command in (
        ("non-repeating log, no rule", service_log, "./serve --verbose"),
        ("non-repeating log, logs rule", service_log, "tail -n 100000 app.log"),
        ("repeating log, no rule", repeating_log, "./serve --verbose"),
        ("repeating log, logs rule", repeating_log, "tail -n 100000 app.log"),
    ):
        text = make(4_000_000)
        floor = rate(lambda t=text: "\n".join(t.splitlines()), len(text))
        cells = []
        for name in names:
            with variant(name, miners) as engine:
                engine.filter(command, "x\n" * 100, 0)  # compiled patterns out of the timing
                whole = rate(lambda t=text, c=command: engine.filter(c, t, 0), len(text))
            cells.append(f"{name} {whole:5.0f} ({whole / floor:.3f}x)")
        print(f"  {label:30s} floor {floor:4.0f}   " + "   ".join(cells))


if __name__ == "__main__":
    main()
