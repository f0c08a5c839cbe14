"""The shell policy's reading of a command line, against parsing the same line with bashlex alone.

Baseline in the same run: ``bashlex.parse`` of each line of the policy table
(tests/security/test_shell_policy_table.py), which every decision needs anyway. Measured: the classifier's whole
analysis (blocklist, risky options, paths) and the decision the gate takes before a call (rules, riders, the path
check on disk), per line.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import bashlex

from zeph_nb.config import Settings
from zeph_nb.gates.chain import Session
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.builtin import builtin_executor

ROUNDS = 5


def _lines() -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "security"))
    from test_shell_policy_table import ROWS  # the table's rows are the workload

    return [command for command, _ in ROWS]


def _per_line(run: object, lines: list[str]) -> float:
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for line in lines:
            try:
                run(line)  # type: ignore[operator]
            except Exception:  # noqa: S112 - bashlex refuses some lines; the classifier reads them another way
                continue
        samples.append((time.perf_counter() - start) / len(lines))
    return statistics.median(samples) * 1e6


def main() -> None:
    lines = _lines()
    tools = {tool.name: tool for tool in builtin_executor(Settings()).tool_definitions()}
    work = Path(tempfile.mkdtemp(prefix="zeph-bench-"))
    session = Session(Settings.from_toml('[gates.permissions]\nbash = [{pattern = "git *", action = "allow"}]\n'),
                      tools=tools, workdir=work, store=None, conversation_id="bench")  # fmt: skip

    def decide(line: str) -> None:
        ctx = session.context(ToolCall("bash", {"command": line}))
        assert ctx.analysis is not None
        session.permissions.decide_call(ctx, wants_confirmation=ctx.analysis.verdict != "allow")

    parse = _per_line(bashlex.parse, lines)
    analyze = _per_line(session.classifier.analyze, lines)
    decision = _per_line(decide, lines)
    print(f"shell policy over {len(lines)} lines: bashlex.parse {parse:.0f} us/line (baseline)")
    print(f"  classifier analysis  {analyze:.0f} us/line  ({analyze / parse:.2f}x the parse)")
    print(f"  whole decision       {decision:.0f} us/line  ({decision / parse:.2f}x the parse)")


if __name__ == "__main__":
    main()
