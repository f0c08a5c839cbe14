"""The kernel's side of "nothing the agent wrote runs later": the import guard and ``%zeph trust``
(``notebook/written.py`` tells the person what the agent wrote).

The guard itself is ``security/import_guard.py``; here it is installed at ``%load_ext`` (the kernel's working
directory, before any settings are read: loading them must not be what imports a planted module) and widened when
an agent is made (its working directory and ``[tools.shell] allowed_paths``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.security.import_guard import ImportGuard, install
from zeph_nb.security.printable import one_line
from zeph_nb.security.provenance import default_home, journal_for

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.config import Settings

__all__ = ["guard_kernel_imports", "install_at_kernel_start", "trust"]


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


def trust(args: list[str], agent: Agent | None) -> None:
    """``%zeph trust <path>…``: the person has read these files as they are and accepts them as theirs."""
    settings = agent.settings if agent is not None else None
    journal = journal_for(settings.home if settings is not None else default_home())
    if not args:
        waiting = journal.agent_written_under([agent.workdir if agent is not None else os.getcwd()])
        print("usage: %zeph trust <path> [<path> …] — accept files an agent wrote, after reading them")
        if waiting:
            print("written by the agent and not accepted yet:")
            for entry in waiting[-20:]:
                print(f"  {one_line(entry.path, 300)}")
        return
    for given in args:
        path = Path(given).expanduser()
        if not path.is_file():
            print(f"{path}: no such file; give a path that %zeph status or the refusal names")
            continue
        was = journal.agent_written(path)
        journal.trust(path)
        if was is None:
            print(f"{path}: already yours (not written by an agent as it is now, or accepted before)")
        else:
            print(f"{path}: accepted as it is now ({was.describe()}); if the agent changes it again, it is the "
                  "agent's again")  # fmt: skip


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
