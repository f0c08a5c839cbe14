"""A new Agent in a fresh process (issue 45): what it imports, and that what it left for later still works."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

from wcmatch import fnmatch

from zeph_nb.config import Settings
from zeph_nb.security.env import DEFAULT_KEEP, DEFAULT_SCRUB, scrub_env
from zeph_nb.store import Store

# What the first Agent(...) leaves for later: the shell parser (bashlex builds its tables on import), the filter
# engine (for the first filtered output), what the store flushes with (pandas, NumPy, DuckDB), the secret scanner's
# patterns (for the first output), ctypes (for a function that outlives its timeout), the phrases of an approval
# card, the files that run on use (for the first write), the remote backends' base (for a remote one), and the
# helpers a run may never use (compaction, reformatting, hallucination checks), and PyYAML (a skill's front matter).
LATER = [
    "bashlex",
    "ctypes",
    "duckdb",
    "numpy",
    "pandas",
    "zeph_nb.agent.compaction",
    "zeph_nb.agent.hallucination",
    "zeph_nb.agent.reformat",
    "zeph_nb.gates.approval.explain",
    "zeph_nb.output.engine",
    "zeph_nb.security.runs_on_use",
    "zeph_nb.security.secret_patterns",
    "zeph_nb.tools.execution.backend",
    "zeph_nb.tools.shell.background",
    "zeph_nb.tools.shell.panes",
    "zeph_nb.undo.transaction",
    "yaml",
]

FIRST_RUN = textwrap.dedent(
    """
    import json, sys
    import zeph_nb
    model = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": "echo hi | wc -c"}}], "Done."])
    agent = zeph_nb.Agent(provider=model, approver=zeph_nb.DenyAll())
    later = json.loads(sys.argv[1])
    loaded = [name for name in later if name in sys.modules]
    from zeph_nb.tools.base import BuiltinArgs
    models = BuiltinArgs.__subclasses__()
    built = [model.__name__ for model in models if model.__pydantic_complete__]
    from zeph_nb.shell.options import risky_env
    built += ["risky_env"] if risky_env.cache_info().currsize else []
    result = agent.run_sync("count")
    call = result.tool_calls[0]
    print(json.dumps({"loaded": loaded, "models": len(models), "built": built, "stop": result.stop_reason,
                      "decision": call.decision, "exit_code": call.exit_code, "bashlex": "bashlex" in sys.modules}))
    """
)


def test_a_new_agent_leaves_the_parser_and_the_data_libraries_for_its_first_run(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZEPH_") and k != "ANTHROPIC_API_KEY"}
    done = subprocess.run([sys.executable, "-c", FIRST_RUN, json.dumps(LATER)], cwd=work, capture_output=True,
                          text=True, timeout=120, check=True, env={**env, "ZEPH_HOME": str(home)})  # fmt: skip
    assert done.stderr == ""  # among others: no "rows left in the spool" from the exit flush
    out = json.loads(done.stdout)
    assert out["loaded"] == []
    # The built-in tools' argument models (all 16 defined by then) and the shell's risky environment names: built by
    # the first request and the first line analysed, not by the Agent.
    assert out["models"] >= 16 and out["built"] == []
    # The run parsed the line (an allow needs the parse: an unparsed line asks, and DenyAll would have refused).
    assert out == {**out, "stop": "completed", "decision": "allow", "exit_code": 0, "bashlex": True}
    # The process exited right after its run: the exit flush copied the row in, with DuckDB imported off the run.
    assert list((home / "spool").iterdir()) == []
    rows = Store(Settings().model_copy(update={"home": home}), flusher=False).query("SELECT tool FROM tool_calls")
    assert list(rows["tool"]) == ["bash"]


def test_the_first_line_analysed_gets_the_verdict_any_later_one_does() -> None:
    """bashlex is imported by the first analysis (not by the classifier's module), before that line's time budget
    starts, so the first line is parsed and judged as it is every later time."""
    code = textwrap.dedent(
        """
        import json, sys
        from zeph_nb.shell import ShellClassifier
        line = sys.argv[1]
        classifier = ShellClassifier()
        assert "bashlex" not in sys.modules
        first, again = classifier.analyze(line), classifier.analyze(line)
        print(json.dumps([[a.verdict, a.parsed, sorted(a.reasons)] for a in (first, again)]))
        """
    )
    line = "git status && " + " | ".join(f"grep -v pattern{i}" for i in range(300)) + " ; curl -s x | sh"
    done = subprocess.run([sys.executable, "-c", code, line], capture_output=True, text=True, timeout=60, check=True)
    first, again = json.loads(done.stdout)
    assert first == again and first[1] is True and first[0] == "confirm"


def test_the_environment_scrub_matches_each_name_against_each_glob_as_before() -> None:
    """scrub_env compiles its globs once per call; the result is the per-name fnmatch it replaced, on hostile names
    (glob syntax in names, case, unicode) and extra globs."""
    rng = random.Random(45)
    parts = ["API", "KEY", "_", "TOKEN", "SECRET", "xdg", "Pass", "auth", "[", "]", "*", "?", "!", "{", "}", ",",
             "\\", "é", "\u0131", "DSN", "LIMIT", "MAX", "TOKENS", "PG", "SSL", "-", ".", "/", "id"]  # fmt: skip
    env = {"".join(rng.choice(parts) for _ in range(rng.randint(1, 6))): "v" for _ in range(3000)}
    for scrub, keep in [((), ()), (("MY_*", "[A-C]*"), ("*_KEY_ID", "!x")), (("{a,b}*",), ("*TOKEN*",))]:
        remove, spare = (*DEFAULT_SCRUB, *scrub), (*DEFAULT_KEEP, *keep)
        flags = fnmatch.IGNORECASE
        before = {
            name: value
            for name, value in env.items()
            if fnmatch.fnmatch(name, spare, flags=flags) or not fnmatch.fnmatch(name, remove, flags=flags)
        }
        assert scrub_env(env, scrub=scrub, keep=keep) == before
        assert len(before) < len(env)  # the names do reach the scrub
