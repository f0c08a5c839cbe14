"""Filters on output that does not repeat: the whole `filter_output` on generated logs and `pytest -v` runs.

Baseline, measured in the same process and interleaved with each input's runs: ``"\\n".join(text.splitlines())``
over the same text, the floor any line filter pays (the best of three in each round). Each figure is the filter's
MB/s as a ratio to that floor, min/median/max over rounds. Issue 45's target: >= 0.1x on a non-repeating log
and on `pytest -v` output.

Inputs are generated (seeded, so every run sees the same bytes): a service log whose every line is its own kind
(a request id, a user, a path and a message drawn from word lists: what the normalising cannot fold), the same
through a command no rule knows (the generic fallback instead of the `logs` rule's dedup), 4 MB of `pytest -v`
(test ids from varied module, class, test and parameter names, a few failures with their tracebacks, skips,
the short summary and the final line), and a log that repeats (a dozen kinds, numbers and times varying).
The curve over sizes (0.5 to 8 MB) shows the cost is linear: the filter's MB/s stays level.
"""

from __future__ import annotations

import random
import statistics
import string
import time
from collections.abc import Callable

from zeph_nb.filters import FilterEngine, default_rules

ROUNDS = 5
SIZES_MB = (0.5, 1, 2, 4, 8)
TARGET = 0.1

_WORDS = [
    *("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"),
    *("mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey"),
    *("xray", "yankee", "zulu", "account", "billing", "cart", "checkout", "invoice", "ledger", "order", "payment"),
    *("refund", "session", "token", "user", "profile", "search", "index", "cache", "queue", "worker", "scheduler"),
    *("upload", "download", "export", "import"),
]
_LEVELS = ("INFO", "INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARN", "INFO")
_VERBS = ("GET", "POST", "PUT", "DELETE", "PATCH")
_MESSAGES = (
    "request handled",
    "cache miss for",
    "loaded",
    "enqueued job",
    "resolved",
    "forwarded to upstream",
    "session refreshed for",
    "rendered template",
)


def _ident(rnd: random.Random, k: int) -> str:
    return "".join(rnd.choices(string.ascii_letters + string.digits, k=k))


def service_log(size: int, seed: int = 45) -> str:
    """About ``size`` characters of a service log whose lines are all different kinds (one in 200 a warning or an
    error, as a real log has)."""
    rnd = random.Random(seed)
    lines: list[str] = []
    total = 0
    second = 0
    while total < size:
        second += rnd.randint(0, 2)
        stamp = f"2026-11-{1 + second // 86400 % 28:02d}T{second // 3600 % 24:02d}:{second // 60 % 60:02d}:"
        stamp += f"{second % 60:02d}.{rnd.randint(0, 999):03d}Z"
        words = rnd.sample(_WORDS, 3)
        if rnd.random() < 0.005:
            line = (
                f"{stamp} ERROR [{words[0]}-svc] req={_ident(rnd, 12)} failed to {words[1]} {words[2]}: "
                f"connection reset by peer (attempt {rnd.randint(1, 5)})"
            )
        else:
            line = (
                f"{stamp} {rnd.choice(_LEVELS):5s} [{words[0]}-svc] req={_ident(rnd, 12)} {rnd.choice(_VERBS)} "
                f"/api/v{rnd.randint(1, 3)}/{words[1]}/{_ident(rnd, 6)} {rnd.choice(_MESSAGES)} {words[2]} "
                f"user={_ident(rnd, 8)} took {rnd.randint(1, 2000)}ms"
            )
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines) + "\n"


def repeating_log(size: int, seed: int = 45) -> str:
    """About ``size`` characters of a log of a dozen kinds of line, numbers, ids and times varying."""
    rnd = random.Random(seed)
    kinds = [
        "INFO  worker {n} picked job {n} from queue billing",
        "INFO  heartbeat ok ({n} ms)",
        "DEBUG cache hit ratio {n}.{n}%",
        "INFO  GET /api/v1/orders/{n} 200 {n}ms",
        "INFO  POST /api/v1/payments 201 {n}ms",
        "DEBUG pool size {n} idle {n}",
        "INFO  flushed {n} rows to ledger in {n} ms",
        "WARN  slow query took {n} ms",
        "INFO  session {n} refreshed",
        "DEBUG gc pause {n}.{n} ms",
        "INFO  upload part {n} of {n} done",
        "INFO  scheduler tick {n}",
    ]
    lines: list[str] = []
    total = 0
    second = 0
    while total < size:
        second += rnd.randint(0, 1)
        stamp = (
            f"2026-11-22 {second // 3600 % 24:02d}:{second // 60 % 60:02d}:{second % 60:02d},{rnd.randint(0, 999):03d}"
        )
        line = stamp + " " + rnd.choice(kinds).replace("{n}", "{}").format(*(rnd.randint(0, 9999) for _ in range(4)))
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines) + "\n"


_MODULES = ("api", "auth", "billing", "cart", "db", "export", "forms", "i18n", "jobs", "mail", "models", "search")
_THINGS = ("parse", "render", "refund", "login", "retry", "merge", "sort", "encode", "decode", "validate", "sync")
_CASES = ("empty", "unicode", "large", "negative", "none", "nested", "expired", "duplicate", "concurrent", "utf8")


def pytest_verbose(size: int, seed: int = 45) -> str:
    """About ``size`` characters of `pytest -v`: a test id per line with its verdict and progress, one test in
    400 failing (its traceback in the FAILURES section), one in 60 skipped, and the closing summaries."""
    rnd = random.Random(seed)
    ids: list[str] = []
    total = 0
    while total < size * 0.97:
        module = f"tests/{rnd.choice(_MODULES)}/test_{rnd.choice(_THINGS)}_{rnd.choice(_CASES)}.py"
        for cls in range(rnd.randint(1, 3)):
            klass = f"Test{rnd.choice(_THINGS).title()}{rnd.choice(_CASES).title()}{cls}"
            for _ in range(rnd.randint(3, 12)):
                name = f"test_{rnd.choice(_THINGS)}_{rnd.choice(_CASES)}_{rnd.choice(_WORDS)}"
                param = f"[{rnd.choice(_WORDS)}-{rnd.randint(0, 999)}]" if rnd.random() < 0.4 else ""
                ids.append(f"{module}::{klass}::{name}{param}")
                total += len(ids[-1]) + 15
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0 -- /work/.venv/bin/python",
        "cachedir: .pytest_cache",
        "rootdir: /work/app",
        "configfile: pyproject.toml",
        "plugins: anyio-4.6.2, cov-5.0.0",
        f"collecting ... collected {len(ids)} items",
        "",
    ]
    failed: list[str] = []
    skipped: list[str] = []
    for number, test in enumerate(ids, 1):
        roll = rnd.random()
        verdict = "FAILED" if roll < 0.0025 else "SKIPPED" if roll < 0.019 else "PASSED"
        if verdict == "FAILED":
            failed.append(test)
        elif verdict == "SKIPPED":
            skipped.append(test)
        lines.append(f"{test} {verdict} [{100 * number // len(ids):3d}%]")
    lines += ["", "=================================== FAILURES ==================================="]
    for test in failed:
        path, _, name = test.rpartition("::")
        module = path.split("::")[0]
        line = rnd.randint(10, 900)
        value = rnd.randint(0, 99999)
        lines += [
            f"_______________________ {path.split('::')[-1]}.{name} ________________________",
            "",
            f"self = <{module[:-3].replace('/', '.')}.{path.split('::')[-1]} object at 0x7f{_ident(rnd, 10).lower()}>",
            "",
            f"    def {name.split('[')[0]}(self):",
            f"        result = {rnd.choice(_THINGS)}({rnd.choice(_WORDS)!r}, limit={value})",
            f">       assert result.total == {value + 1}",
            f"E       AssertionError: assert {value} == {value + 1}",
            f"E        +  where {value} = <Result {_ident(rnd, 6)}>.total",
            "",
            f"{module}:{line}: AssertionError",
        ]
    lines.append("=========================== short test summary info ============================")
    lines += [f"FAILED {test} - AssertionError: assert" for test in failed]
    lines += [f"SKIPPED [1] {test.split('::')[0]}:{rnd.randint(5, 400)}: needs network" for test in skipped[:50]]
    passed = len(ids) - len(failed) - len(skipped)
    took = f"{rnd.randint(60, 900)}.{rnd.randint(10, 99)}s"
    lines.append(f"========== {len(failed)} failed, {passed} passed, {len(skipped)} skipped in {took} ==========")
    return "\n".join(lines) + "\n"


# name, generator, command the output came from (the rule it meets)
INPUTS: tuple[tuple[str, Callable[[int], str], str], ...] = (
    ("non-repeating log, `logs` rule (dedup)", service_log, "tail -n 100000 app.log"),
    ("non-repeating log, no rule (generic)", service_log, "./serve --verbose"),
    ("pytest -v (test_summary)", pytest_verbose, "pytest -v tests"),
    ("repeating log, `logs` rule (dedup)", repeating_log, "tail -n 100000 app.log"),
)


def _ratios(engine: FilterEngine, command: str, text: str, rounds: int) -> tuple[list[float], float]:
    """The filter's rate over the floor's in each round (interleaved: a noisy neighbour hits both), and the
    median filter MB/s."""
    ratios: list[float] = []
    rates: list[float] = []
    for _ in range(rounds):
        floor = float("inf")
        for _ in range(3):  # the floor takes ~8 ms: the best of three, or one scheduler hiccup is the figure
            start = time.perf_counter()
            "\n".join(text.splitlines())
            floor = min(floor, time.perf_counter() - start)
        start = time.perf_counter()
        engine.filter(command, text, 0)
        took = time.perf_counter() - start
        ratios.append(floor / took)
        rates.append(len(text) / took / 1e6)
    return ratios, statistics.median(rates)


def main(rounds: int = ROUNDS, sizes: tuple[float, ...] = SIZES_MB) -> None:
    engine = FilterEngine(default_rules())
    engine.filter("pytest -v", "x\n" * 100, 0)  # imports and compiled patterns out of the first round
    print("filter speed: whole filter_output on 4 MB of generated output; ratio to the floor, splitlines + join of")
    print(f"  the same text, in the same round (min/median/max over {rounds} rounds); target >= {TARGET}x")
    for label, make, command in INPUTS:
        text = make(4_000_000)
        ratios, rate = _ratios(engine, command, text, rounds)
        ok = "(no target)" if label.startswith("repeating") else "meets" if min(ratios) >= TARGET else "MISSES"
        print(f"  {label:42s} {min(ratios):6.3f} / {statistics.median(ratios):6.3f} / {max(ratios):6.3f}x"
              f"   {rate:6.1f} MB/s   {ok}")  # fmt: skip
    # The floor's own MB/s falls as the text outgrows the caches: the filter's MB/s is the column to read for
    # linearity, its ratio to the floor beside it.
    print("  curve over sizes: ratio to the floor (min/median/max over 3 rounds), and median MB/s (level when linear)")
    for label, make, command in INPUTS[:3]:
        for mb in sizes:
            text = make(int(mb * 1e6))
            ratios, rate = _ratios(engine, command, text, 3)
            print(f"    {label[:30]:30s} {mb:4.1f} MB {min(ratios):6.3f} / {statistics.median(ratios):6.3f}"
                  f" / {max(ratios):6.3f}x   {rate:6.1f} MB/s")  # fmt: skip


if __name__ == "__main__":
    main()
