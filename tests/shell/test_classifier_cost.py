"""What the shell classifier may spend on one line, and what it decides when that runs out.

No test here reads a clock: the budget runs out by a ticking fake clock or by the size limits set small, linearity is
a count of the work done at n and 4n, and the long lines of issue 40 run in a child process under a bound far above
what they need (a few seconds), which tells a hang from a slow machine.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bashlex
import pytest

from zeph_nb.config import Settings
from zeph_nb.gates.chain import Session
from zeph_nb.safety import analyze_shell, classify_shell
from zeph_nb.shell import ShellClassifier
from zeph_nb.shell import budget as shell_budget
from zeph_nb.shell.budget import TOO_COMPLEX, parse_size
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.builtin import builtin_executor

TOOLS = {tool.name: tool for tool in builtin_executor(Settings()).tool_definitions()}


class TickingClock:
    """Each reading one second after the last: with ``BUDGET_SECONDS = n`` the budget runs out at the n-th check."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``checks(n)``: the analyses that follow run out of time after n looks at the clock."""

    def give(n: int) -> None:
        monkeypatch.setattr(shell_budget, "time", TickingClock())
        monkeypatch.setattr(shell_budget, "BUDGET_SECONDS", float(n))

    return give


@pytest.fixture
def unbounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """No budget: what the analysis costs without one."""
    monkeypatch.setattr(shell_budget, "MAX_PARSE_TOKENS", 10**9)
    monkeypatch.setattr(shell_budget, "MAX_PIPES", 10**9)
    monkeypatch.setattr(shell_budget, "BUDGET_SECONDS", 10.0**6)


def too_complex(reasons: list[str]) -> bool:
    return any(reason.startswith(TOO_COMPLEX) for reason in reasons)


LONG_LINES = [
    "ls -la; " * 200,
    "cat notes.txt | grep -v x | " * 100 + "wc -l",
    "git status && " * 150 + "true",
    'for f in *.txt; do wc -l "$f"; done; ' * 60,
]


@pytest.mark.parametrize("line", LONG_LINES)
def test_a_line_that_outlasts_the_budget_asks_and_says_why(checks: Callable[[int], None], line: str) -> None:
    assert classify_shell(line) == "allow"  # read to the end, each of these lines is harmless
    checks(20)
    analysis = analyze_shell(line)
    assert analysis.verdict == "confirm"
    assert too_complex(analysis.reasons)
    assert "read it yourself" in analysis.reasons[-1]
    assert not analysis.parsed  # no allow rule can vouch for a line nobody read to its end


@pytest.mark.parametrize("budget", [0, 1, 2, 5, 20, 100])
def test_the_budget_never_allows(checks: Callable[[int], None], budget: int) -> None:
    checks(budget)
    for line in LONG_LINES:
        assert classify_shell(line) == "confirm"


@pytest.mark.parametrize(
    "line",
    [
        "rm -rf /; " + "ls -la; " * 200,  # found before the budget ran out; no name alone would block it
        "f() { rm -rf ~; " + "ls; " * 200 + "}",  # in a function's body, merged though the body was not finished
        "echo ok | tee log; sudo id; " + "ls; " * 200,
        "ls; " * 200 + "sudo id",  # after it: the command names of the unread rest still meet the blocklist
        "ls; " * 200 + "cat disk.img | mkfs.ext4 /dev/sdb1",
    ],
)
def test_a_blocked_command_still_blocks_when_the_budget_runs_out(checks: Callable[[int], None], line: str) -> None:
    checks(40)
    analysis = analyze_shell(line)
    assert analysis.verdict == "block"
    assert too_complex(analysis.reasons)


def test_a_script_too_big_to_parse_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_budget, "MAX_PARSE_TOKENS", 300)
    parsed: list[str] = []
    parse = bashlex.parse

    def recorded(script: str) -> Any:
        parsed.append(script)
        return parse(script)

    monkeypatch.setattr(bashlex, "parse", recorded)
    analysis = analyze_shell("ls -la; " * 120)  # 360 tokens
    assert analysis.verdict == "confirm"
    assert any("words and operators" in r for r in analysis.reasons)
    assert parsed == []  # refused before bashlex, which cannot be stopped once it starts
    assert classify_shell("ls -la; " * 120 + "sudo id") == "block"
    assert classify_shell("ls -la; " * 90) == "allow"
    assert classify_shell("bash -c '" + "ls -la; " * 120 + "'") == "confirm"  # a script inside a script too


def test_a_pipeline_too_long_to_parse_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # bashlex takes the square of a pipeline's length (16,000 stages: ~20 s); its tokens alone would pass.
    monkeypatch.setattr(shell_budget, "MAX_PIPES", 50)
    analysis = analyze_shell("a|" * 60 + "a")
    assert analysis.verdict == "confirm"
    assert any("pipes" in r for r in analysis.reasons)
    assert classify_shell("a|" * 40 + "a") == "allow"
    assert classify_shell("a||" * 60 + "a") == "allow"  # `||` is a list, not a pipeline


@pytest.mark.parametrize(
    ("script", "tokens"),
    [
        ("ls -la", 2),
        ("ls -la; wc -l", 5),
        ("echo 'a b c d e f; g | h'", 2),  # single quotes: one word
        ('echo "a b c d e f g h"', 2),  # double quotes: one word, only expansions count
        ('echo "$HOME and $(ls -la; pwd)"', 9),  # what $(…) runs is parsed with the line
        ("cat <<'EOF'\n" + "one two three; four | five\n" * 50 + "EOF\nls", 4),  # a here-document's body is text
        ("ls # a comment with words; and | operators\nls", 3),
        ("echo `ls -la`", 5),
    ],
)
def test_the_size_of_a_script_counts_what_bashlex_builds(script: str, tokens: int) -> None:
    assert parse_size(script).tokens == tokens


def test_the_size_counts_pipes_not_alternatives() -> None:
    assert parse_size("a | b | c |& d").pipes == 3
    assert parse_size("a || b || c").pipes == 0
    assert parse_size("grep 'a|b|c' f | wc").pipes == 1


@pytest.mark.parametrize(
    ("script", "nesting"),
    [
        ("echo $(date)", 1),
        ('echo "$(basename "$(pwd)")"', 2),
        ("diff <(ls a) <(ls b)", 1),
        ("echo $(a $(b $(c)))", 3),
        ("echo '$(a $(b))'", 0),
    ],
)
def test_the_size_counts_how_deep_substitutions_nest(script: str, nesting: int) -> None:
    assert parse_size(script).nesting == nesting


def test_substitutions_nested_too_deep_to_parse_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # bashlex parses each level again (200 levels: ~0.5 s), and the classifier reads no deeper than 8 anyway.
    monkeypatch.setattr(shell_budget, "MAX_NESTING", 10)
    analysis = analyze_shell("echo " + "$(echo " * 11 + "x" + ")" * 11)
    assert analysis.verdict == "confirm"
    assert any("nested" in r and r.startswith(TOO_COMPLEX) for r in analysis.reasons)


def test_an_allow_rule_cannot_vouch_for_a_line_nobody_finished_reading(
    checks: Callable[[int], None], tmp_path: Path
) -> None:
    settings = Settings.from_toml(
        '[gates.trust]\nlevel = "trusted"\n[gates.permissions]\nbash = [{pattern = "ls*", action = "allow"}]\n'
    )
    session = Session(settings, tools=TOOLS, workdir=tmp_path, store=None, conversation_id="t")

    def decide(line: str) -> str:
        ctx = session.prepare(ToolCall("bash", {"command": line}))
        return session.permissions.decide(ctx, wants_confirmation=False).action

    line = "ls -la; " * 200
    assert decide(line) == "allow"  # every command of it matches the rule
    checks(20)
    assert decide(line) == "ask"


# -- linearity: the work done at n and at 4n ------------------------------------------------------------------------


def work_of(monkeypatch: pytest.MonkeyPatch, line: str) -> int:
    """Nodes, commands and scripts the classifier visited, and characters bashlex was given, for ``line``."""
    count = [0]

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            count[0] += 1
            return method(*args, **kwargs)

        return wrapper

    for name in ("_node", "_argv", "_script"):
        monkeypatch.setattr(ShellClassifier, name, counted(getattr(ShellClassifier, name)))
    parse = bashlex.parse

    def parse_counted(script: str) -> Any:
        count[0] += len(script)
        return parse(script)

    monkeypatch.setattr(bashlex, "parse", parse_counted)
    try:
        ShellClassifier().analyze(line)
    finally:
        monkeypatch.undo()
    return count[0]


SHAPES: dict[str, Callable[[int], str]] = {
    "list": lambda n: "ls;" * n,
    "pipeline": lambda n: "a|" * n + "a",
    "and-list": lambda n: "ls && " * n + "ls",
    # Every `sh` read what every stage before it prints again: 4n stages did 16 times the work of n.
    "shells fed by echo": lambda n: "echo a|sh|" * n + "sh",
    "functions": lambda n: "f() { PATH=/x:$PATH; ls; }; " * n,
    "interpreter calls": lambda n: 'python -c "' + "os.system('ls -la');" * n + '"',
    "parallel inputs": lambda n: "parallel 'rm {}' ::: " + "a " * n,
    "find start points": lambda n: "find " + "d " * n + "-exec rm -rf {} +",
    "variables set and read": lambda n: "x=/tmp/a; cat $x; " * n,
}


@pytest.mark.usefixtures("unbounded")
@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_work_grows_with_the_line_not_its_square(monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    small, large = (work_of(monkeypatch, SHAPES[shape](n)) for n in (100, 400))
    assert large / small < 4.5, f"{shape}: {small} -> {large}"


# -- the lines of issue 40, whole ------------------------------------------------------------------------------------

CHILD = """
from zeph_nb.safety import analyze_shell
from zeph_nb.shell import budget as shell_budget

# The lines measured in issue 40 (8.4 s and 5.9 s of kernel CPU): refused by size before bashlex reads them.
for line in ("ls;" * 33_000, "a|" * 16_000 + "a", "ls;" * 33_000 + "sudo id"):
    analysis = analyze_shell(line)
    assert analysis.verdict == ("block" if line.endswith("sudo id") else "confirm"), analysis.reasons
    assert not analysis.parsed

# No budget: each reader of a long line must be linear by itself (these took minutes to hours).
shell_budget.MAX_PARSE_TOKENS = shell_budget.MAX_PIPES = 10**9
shell_budget.BUDGET_SECONDS = 10.0**6
lines = [
    "sed '" + "\\n" * 99_000 + "'",  # blank lines in a sed script: a search split them every way
    "sed '" + "".join("s" + chr(0x4E00 + i) for i in range(49_000)) + "'",  # s with a new delimiter each time
    "awk '" + "print " * 16_000 + "'",
    "python -c 'os.system(\\"" + '\\\\"' * 49_000 + "'",  # an unclosed literal of escaped quotes
    "cp --" + "file" * 24_000 + ".=/x a b",
    "echo" + " a[" * 33_000,
    "git " + "config -f " * 9_900 + "alias.x",
    "echo " + "".join(f"$v{i} " for i in range(14_000)),
    "".join(f"PATH=p{i} " for i in range(9_000)) + "ls",
    "x=1;" * 24_000,
]
for line in lines:
    analyze_shell(line)
"""


def test_the_long_lines_of_issue_40_are_read_in_linear_time() -> None:
    subprocess.run([sys.executable, "-c", CHILD], check=True, timeout=60)
