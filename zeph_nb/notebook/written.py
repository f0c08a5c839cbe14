"""What the person is told about what the agent wrote: the run's footer (both transcripts) and ``%zeph status``.

Three things, each from where it is known: the files a run wrote that other tools run when used (on each call's
outcome, ``runs_on_use``), the modules it wrote that cells will not import until accepted (the provenance
journal), and the imports the guard refused while the run went on. Every name and diff is agent-written text:
escaped in HTML, escaped to one line in plain text, and redacted.
"""

from __future__ import annotations

import html
import os
from typing import TYPE_CHECKING, Any

from zeph_nb.security.import_guard import Refusal, current
from zeph_nb.security.printable import one_line
from zeph_nb.security.provenance import WrittenFile, default_home, journal_for
from zeph_nb.security.runs_on_use import runs_on_use
from zeph_nb.security.secrets import redact

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.gates.call import RunsOnUse

__all__ = ["after_run_html", "after_run_lines", "describe_written", "forget_earlier_refusals", "written_to_run"]

MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")


def forget_earlier_refusals() -> None:
    """At a run's start: what the guard refused before it was told where it happened (a cell's own error, the
    log line), so the run's footer tells only its own."""
    guard = current()
    if guard is not None:
        guard.take_new_refusals()


def written_to_run(result: Any) -> list[RunsOnUse]:
    """The files a run created or changed that other tools run when used, each once (the last change)."""
    found: dict[str, RunsOnUse] = {}
    for outcome in getattr(result, "tool_calls", ()):
        for entry in getattr(outcome, "runs_on_use", ()):
            found[entry.path] = entry
    return list(found.values())


def _modules(result: Any) -> list[WrittenFile]:
    """The modules the run wrote that still hold what it wrote: cells import them only once accepted."""
    guard = current()
    calls = [outcome.call.call_id for outcome in getattr(result, "tool_calls", ())]
    if guard is None or guard.provenance is None or not calls:
        return []
    return [entry for entry in guard.provenance.written_by(calls) if entry.path.endswith(MODULE_SUFFIXES)]


def _refused() -> list[Refusal]:
    guard = current()
    return guard.take_new_refusals() if guard is not None else []


def after_run_html(result: Any) -> str:
    """The transcript's footer."""
    parts = []
    later = written_to_run(result)
    if later:
        items = "".join(
            f"<details><summary><code>{html.escape(redact(entry.path))}</code> — {html.escape(entry.why)}</summary>"
            f"<pre>{html.escape(redact(entry.diff))}</pre></details>"
            for entry in later
        )
        parts.append(f'<div class="zeph-extra">&#9888; this run wrote files that other tools run when you use them '
                     f"(nothing was blocked; read them before you run those tools):{items}</div>")  # fmt: skip
    modules = _modules(result)
    if modules:
        names = ", ".join(f"<code>{html.escape(redact(entry.path))}</code>" for entry in modules)
        parts.append(f'<div class="zeph-extra">&#9888; this run wrote Python modules: {names}. A cell imports them '
                     "only after you have read them and run <code>%zeph trust &lt;path&gt;</code>.</div>")  # fmt: skip
    for refusal in _refused():
        parts.append(f'<div class="zeph-extra">&#9888; during this run zeph-nb refused an import: '
                     f"{html.escape(redact(refusal.describe()))}</div>")  # fmt: skip
    return "".join(parts)


def after_run_lines(result: Any) -> list[str]:
    """The same for a plain-text transcript. Names an agent chose: a line break or an escape sequence in one must
    not forge or hide a line here."""
    lines = [f"[runs when used: {one_line(entry.path, 300)} — {entry.why}]" for entry in written_to_run(result)]
    modules = _modules(result)
    if modules:
        names = ", ".join(one_line(entry.path, 300) for entry in modules)
        lines.append(f"[modules written: {names}; a cell imports them only after %zeph trust <path>]")
    lines += [f"[refused an import: {one_line(r.describe(), 500)}]" for r in _refused()]
    return [redact(line) for line in lines]


def describe_written(agent: Agent | None) -> list[str]:
    """``%zeph status``: the guard, the imports it refused that still stand, and the agent-written files not
    accepted yet, with what runs each when it is one that runs on use."""
    guard = current()
    if guard is None:
        return ["imports:      NOT guarded (the import guard is installed by %load_ext zeph_nb)"]
    roots = ", ".join(root.rstrip(os.sep) for root in guard.roots)
    mode = "installed code never imports from" if guard.strict else "only agent-written modules are refused in"
    lines = [f"imports:      {mode} {roots}"]
    journal = guard.provenance if guard.provenance is not None else journal_for(default_home())
    if agent is not None:
        journal = journal_for(agent.settings.home)
    standing = [r for r in guard.refusals() if not r.agent_written or journal.agent_written(r.path) is not None]
    lines += [f"  refused {one_line(r.describe(), 500)}" for r in standing[-10:]]
    waiting = journal.agent_written_under(guard.roots)
    if waiting:
        lines.append(f"agent-written: {len(waiting)} file(s) you have not accepted; zeph-nb will not read them as "
                     "config nor let a cell import them until you do:")  # fmt: skip
        for entry in waiting[-10:]:
            root = next((r for r in guard.roots if entry.path.startswith(r)), os.path.dirname(entry.path))
            why = runs_on_use(entry.path, root)
            lines.append(f"  {one_line(entry.path, 300)} ({entry.describe()}{f'; {why}' if why else ''})")
        lines.append("  accept one after reading it: %zeph trust <path>")
    return lines
