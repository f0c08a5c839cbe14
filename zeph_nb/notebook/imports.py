"""The kernel's side of "nothing the agent wrote runs later": the import guard, ``%zeph trust``, and what
``%zeph status`` says about both.

The guard itself is ``security/import_guard.py``; here it is installed at ``%load_ext`` (the kernel's working
directory, before any settings are read: loading them must not be what imports a planted module) and widened when
an agent is made (its working directory and ``[tools.shell] allowed_paths``).
"""

from __future__ import annotations

import html
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.security.import_guard import ImportGuard, current, install
from zeph_nb.security.printable import one_line
from zeph_nb.security.provenance import default_home, journal_for
from zeph_nb.security.secrets import redact

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.config import Settings
    from zeph_nb.gates.call import RunsOnUse

__all__ = [
    "after_run_html",
    "after_run_lines",
    "describe_guard",
    "guard_kernel_imports",
    "install_at_kernel_start",
    "trust",
    "written_to_run",
]


def guard_kernel_imports(
    settings: Settings | None = None, workdir: str | os.PathLike[str] | None = None
) -> ImportGuard:
    """Install the guard (once) over the kernel's working directory, and over an agent's folders when given."""
    if settings is None:
        _installed_packages_first()
    roots: list[str | os.PathLike[str]] = [os.getcwd()]
    if workdir is not None:
        roots.append(workdir)
    if settings is not None:
        base = Path(workdir if workdir is not None else os.getcwd())
        roots += [base / Path(p).expanduser() for p in settings.tools.shell.allowed_paths]
    if settings is None:  # at %load_ext: settings (and pydantic) are loaded by the first run, not here
        return install(roots, lambda: journal_for(default_home()))
    return install(roots, journal_for(settings.home))


def install_at_kernel_start() -> None:
    """Called by ``zeph_nb_kernel_guard.pth`` as every Python in the environment starts: in a Jupyter kernel
    only, guard its working directory from the first import on, before IPython loads anything from there (IPython
    imports a top-level ``storemagic`` from the notebook folder at every start). Until ``%load_ext zeph_nb`` makes
    the guard strict, only files provenance says an agent wrote are refused, so a kernel that never uses zeph-nb
    imports as before. Never raises: a broken guard must not stop Python."""
    try:
        argv = getattr(sys, "orig_argv", sys.argv)
        if "ipykernel" not in " ".join(argv[1:4]):
            return
        # The journal's home without loading settings: their imports (pydantic …) must not run inside the guard.
        install([os.getcwd()], lambda: journal_for(default_home()), strict=False)
    except Exception as e:
        print(f"zeph-nb: the import guard could not start in this kernel: {e!r}", file=sys.stderr)


def describe_guard(agent: Agent | None, last_run: Any = None) -> list[str]:
    """``%zeph status``: the guard's state, the imports it refused, the files the agent wrote that no one has
    accepted yet (not config, not importable from a cell), and what the last run wrote that runs when used."""
    later = written_to_run(getattr(last_run, "result", None))
    settings = agent.settings if agent is not None else None
    workdir = agent.workdir if agent is not None else None
    guard = current()
    if guard is None:
        return ["imports:      NOT guarded (the import guard is installed by %load_ext zeph_nb)"]
    lines = [f"imports:      installed code never imports from {', '.join(r.rstrip(os.sep) for r in guard.roots)}"]
    for refusal in guard.refusals()[-10:]:
        lines.append(f"  refused {one_line(refusal.describe(), 500)}")
    journal = journal_for(settings.home if settings is not None else default_home())
    written = journal.agent_written_under([workdir or os.getcwd()])
    if written:
        lines.append(f"agent-written: {len(written)} file(s) not accepted yet (not config, not imported by cells):")
        lines += [f"  {one_line(entry.path, 300)} ({entry.describe()})" for entry in written[-10:]]
        lines.append("  accept one after reading it: %zeph trust <path>")
    if later:
        lines.append("runs when used: the last run wrote files other tools run (read them first):")
        lines += [f"  {one_line(entry.path, 300)} — {entry.why}" for entry in later]
    return lines


def trust(args: list[str], agent: Agent | None) -> None:
    """``%zeph trust <path>…``: the person has read these files as they are and accepts them as theirs."""
    settings = agent.settings if agent is not None else None
    if not args:
        print("usage: %zeph trust <path> [<path> …] — accept files an agent wrote, after reading them")
        return
    journal = journal_for(settings.home if settings is not None else default_home())
    for given in args:
        path = Path(given).expanduser()
        if not path.is_file():
            print(f"{path}: not a file; give the path %zeph status or the refusal named")
            continue
        was = journal.agent_written(path)
        journal.trust(path)
        if was is None:
            print(f"{path}: not written by an agent as it is now; recorded as accepted anyway")
        else:
            print(f"{path}: accepted ({was.describe()}); it is yours now: config and imports use it")


def _installed_packages_first() -> None:
    """Move the kernel's working directory behind the installed packages on ``sys.path``.

    IPython puts it first, and the agent writes files there: a folder named ``pandas/`` would run in the kernel,
    outside any sandbox, the next time anything imports pandas. Last, the person's own modules there still
    import; none can stand in for an installed package.
    """
    here = {"", ".", os.getcwd()}
    moved = [entry for entry in sys.path if entry in here]
    for entry in moved:
        sys.path.remove(entry)
    sys.path.extend(dict.fromkeys(moved))


def written_to_run(result: Any) -> list[RunsOnUse]:
    """The files a run created or changed that other tools run when used, each once (the last change)."""
    found: dict[str, RunsOnUse] = {}
    for outcome in getattr(result, "tool_calls", ()):
        for entry in getattr(outcome, "runs_on_use", ()):
            found[entry.path] = entry
    return list(found.values())


def after_run_html(result: Any) -> str:
    """The transcript's footer: files the run wrote that run when used (with their diffs), and imports the
    guard refused during the run. Agent-written text, so escaped and redacted."""
    parts = []
    written = written_to_run(result)
    if written:
        items = "".join(
            f"<details><summary><code>{html.escape(redact(entry.path))}</code> — {html.escape(entry.why)}</summary>"
            f"<pre>{html.escape(redact(entry.diff))}</pre></details>"
            for entry in written
        )
        parts.append(f'<div class="zeph-extra">&#9888; this run wrote files that other tools run when you use them '
                     f"(nothing was blocked; read them before you run those tools):{items}</div>")  # fmt: skip
    guard = current()
    for refusal in guard.take_new_refusals() if guard is not None else []:
        parts.append(f'<div class="zeph-extra">&#9888; zeph-nb refused an import: '
                     f"{html.escape(redact(refusal.describe()))}</div>")  # fmt: skip
    return "".join(parts)


def after_run_lines(result: Any) -> list[str]:
    """The same for a plain-text transcript and ``%zeph status``."""
    # Names an agent chose: a line break or an escape sequence in one must not forge or hide a line here.
    lines = [f"[runs when used: {one_line(entry.path, 300)} — {entry.why}]" for entry in written_to_run(result)]
    guard = current()
    lines += [
        f"[refused an import: {one_line(r.describe(), 500)}]" for r in (guard.take_new_refusals() if guard else [])
    ]
    return lines
