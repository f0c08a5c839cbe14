"""What the shell classifier costs on one long line, as the line grows (issue 40: 8.4 s of kernel CPU on 99,000
characters of ``ls;``).

Baseline in the same run: classifying ordinary lines (``git status && pytest -q tests/ | tail -20``) to the same
number of characters, one line at a time, which grows linearly by construction. A shape whose ratio stays flat (or
falls, once the budget refuses it) as the line grows costs time linear in its length; a ratio that grows is a
square. ``--no-budget`` lifts the budget and the size limits, to see the analysis itself.
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable

from zeph_nb.shell import ShellClassifier
from zeph_nb.shell import budget as shell_budget

SIZES = (1_000, 5_000, 20_000, 50_000, 99_000)
ORDINARY = "git status && pytest -q tests/ | tail -20"

SHAPES: dict[str, Callable[[int], str]] = {
    "ls;ls;…": lambda n: "ls;" * (n // 3),
    "a|a|… (pipes)": lambda n: "a|" * (n // 2) + "a",
    "ls && ls && …": lambda n: "ls && " * (n // 6) + "ls",
    "$( nesting": lambda n: "echo " + "$(echo " * (n // 9) + "x" + ")" * (n // 9),
    "(( parentheses": lambda n: "(" * (n // 2) + "ls" + ")" * (n // 2),
    "many words": lambda n: "echo " + "ab " * (n // 3),
    "here-document": lambda n: "cat > notes.txt <<EOF\n" + "a line of notes, 30 characters\n" * (n // 31) + "EOF\n",
    "echo a|sh|… (shells fed)": lambda n: "echo a|sh|" * (n // 10) + "sh",
    "x=1;x=1;…": lambda n: "x=1;" * (n // 4),
    "$v0 $v1 … (distinct)": lambda n: "echo " + "".join(f"$v{i} " for i in range(n // 7)),
    "sed blank lines": lambda n: "sed '" + "\n" * n + "'",
    "python -c escaped quotes": lambda n: "python -c 'os.system(\"" + '\\"' * (n // 2) + "'",
}


def _seconds(run: Callable[[], object], rounds: int = 3) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if "--no-budget" in args:
        shell_budget.MAX_PARSE_TOKENS = shell_budget.MAX_PIPES = shell_budget.MAX_NESTING = 10**9
        shell_budget.BUDGET_SECONDS = 10.0**6
    classifier = ShellClassifier()
    per_char = _seconds(lambda: [classifier.analyze(ORDINARY) for _ in range(200)], rounds=5) / (200 * len(ORDINARY))
    limits = (f"budget {shell_budget.BUDGET_SECONDS:g} s, {shell_budget.MAX_PARSE_TOKENS:,} tokens, "
              f"{shell_budget.MAX_PIPES:,} pipes")  # fmt: skip
    print(
        f"shell classifier on one long line ({limits}); baseline: ordinary lines of the same length, "
        f"{per_char * 1e6:.2f} us a character"
    )
    print(f"  {'shape':26s}" + "".join(f"{n:>20,}" for n in SIZES))
    for name, shape in SHAPES.items():
        cells = []
        for n in SIZES:
            line = shape(n)
            verdict = classifier.analyze(line).verdict
            took = _seconds(functools.partial(classifier.analyze, line), rounds=1 if n > 20_000 else 3)
            cells.append(f"{took:7.3f} s {took / (per_char * len(line)):5.2f}x {verdict[0]}")
        print(f"  {name:26s}" + "".join(f"{cell:>20s}" for cell in cells))
    print("  (seconds, ratio to the baseline, verdict: a = allow, c = confirm, b = block)")


if __name__ == "__main__":
    main()
