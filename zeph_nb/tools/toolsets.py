"""Where an agent's toolsets come from: the built-in families, then what installed packages offer.

The one registration path. A family is a factory ``(settings, workdir) -> ToolExecutor``; the built-in ones are
listed in ``BUILTIN`` below, and any installed package adds its own under the ``zeph_nb.tools`` entry-point group
(``[project.entry-points."zeph_nb.tools"] mytools = "mypkg.tools:toolset"``), unless ``[tools] entry_points =
false``. Whatever they add passes the same gates as the built-ins. A package whose entry point fails to load or
build is left out with a warning naming it: one broken plugin never stops the agent.

A package installed after this process started is left out too, until the kernel restarts: an approved
``pip install`` by the agent itself must not have its code loaded into the kernel, outside the sandbox, the next
time an agent is built. A restart is the person's own act.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.security.urls import Resolver
from zeph_nb.tools.base import ToolDef, ToolExecutor
from zeph_nb.tools.started import STARTED

if TYPE_CHECKING:
    from zeph_nb.tools.function_toolset import FunctionToolset

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "STARTED",
    "function_toolset",
    "installed_toolsets",
    "toolsets_from",
    "turned_off",
]

ENTRY_POINT_GROUP = "zeph_nb.tools"

Factory = Callable[..., ToolExecutor]


def _installed_after_start(dist: importlib.metadata.Distribution | None) -> bool:
    folder = getattr(dist, "_path", None)  # a PathDistribution's .dist-info folder
    try:
        return folder is not None and Path(folder).stat().st_mtime > STARTED
    except OSError:
        return False


def _files(settings: Settings, workdir: Any, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.composite import CompositeExecutor
    from zeph_nb.tools.execution import backend_for

    if backend_for(settings) is not None:  # read, write and edit come with the remote bash (see _shell)
        return CompositeExecutor([])
    from zeph_nb.tools.files.executor import FileExecutor

    return FileExecutor(settings, workdir=workdir)


def _shell(
    settings: Settings, workdir: Any, *, env: Mapping[str, str] | None, resolve: Resolver | None, **_: Any
) -> ToolExecutor:
    from zeph_nb.tools.execution import backend_for
    from zeph_nb.tools.shell.executor import ShellExecutor

    backend = backend_for(settings, env)
    if backend is not None:
        from zeph_nb.tools.execution.tools import remote_toolset

        return remote_toolset(settings, backend)
    shell = ShellExecutor(settings, workdir=workdir, env=env, resolve=resolve)
    in_tmux = "TMUX_PANE" in os.environ and shutil.which("tmux") is not None  # the kernel runs in a person's pane
    if settings.tools.execution.backend != "tmux" and not in_tmux:
        return shell
    from zeph_nb.tools.composite import CompositeExecutor
    from zeph_nb.tools.shell.pane_tools import PaneExecutor
    from zeph_nb.tools.shell.panes import TmuxPanes

    if settings.tools.execution.backend != "tmux":  # only the person's own pane to read and type into (asking)
        return CompositeExecutor([shell, PaneExecutor(settings, TmuxPanes.for_toolset(shell.env))])

    # One tmux server per kernel, started from the shell's scrubbed environment; this toolset's bash and pane tools
    # share its own set of panes on it.
    panes = TmuxPanes.for_toolset(shell.env)
    return CompositeExecutor([ShellExecutor(settings, workdir=workdir, env=env, resolve=resolve, panes=panes),
                              PaneExecutor(settings, panes)])  # fmt: skip


def _diagnostics(settings: Settings, workdir: Any, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.diagnostics import DiagnosticsExecutor

    return DiagnosticsExecutor(settings, workdir=workdir)


def _time(settings: Settings, workdir: Any, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.time import TimeExecutor

    return TimeExecutor()


def _web(settings: Settings, workdir: Any, *, resolve: Resolver | None, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.web.executor import WebExecutor

    return WebExecutor(settings, resolve=resolve)


def _skills(settings: Settings, workdir: Any, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.composite import CompositeExecutor

    if not settings.skills.enabled:
        return CompositeExecutor([])
    from zeph_nb.tools.skills import SkillExecutor

    return SkillExecutor(settings, workdir, started=STARTED)  # a skill changed since then waits for the person


def _memory(settings: Settings, workdir: Any, *, store: Any = None, run: Any = None, embedder: Any = None,
            **_: Any) -> ToolExecutor:  # fmt: skip
    from zeph_nb.tools.memory import MemoryExecutor

    # Offered whatever [memory] enabled says, and hidden by it (turned_off): a call then names the setting.
    return MemoryExecutor(settings, workdir, store=store, run=run, embedder=embedder)


def _code_search(settings: Settings, workdir: Any, *, code_embedder: Any = None, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.composite import CompositeExecutor
    from zeph_nb.tools.execution import backend_for

    if backend_for(settings) is not None:  # the files are on another machine: nothing here to parse
        return CompositeExecutor([])
    from zeph_nb.tools.code_search import CodeSearchExecutor

    return CodeSearchExecutor(settings, workdir=workdir, embedder=code_embedder)


def _mcp(settings: Settings, workdir: Any, **_: Any) -> ToolExecutor:
    from zeph_nb.tools.composite import CompositeExecutor

    if not settings.mcp.servers:
        return CompositeExecutor([])
    from zeph_nb.tools.mcp import McpToolset

    return McpToolset(settings, os.path.realpath(workdir if workdir is not None else os.getcwd()))


# The built-in families, in the order the model sees their tools.
BUILTIN: dict[str, Factory] = {
    "files": _files,
    "shell": _shell,
    "diagnostics": _diagnostics,
    "time": _time,
    "web": _web,
    "skills": _skills,
    "code_search": _code_search,
    "memory": _memory,  # the store the chain audits to, the run's id and the embedder come from build_chain
    "mcp": _mcp,  # its tools appear once prepare() started the servers (the agent does, before each run)
}


def function_toolset(settings: Settings) -> FunctionToolset:
    """An empty toolset for Python functions, with the settings' timeout and result cap."""
    from zeph_nb.tools.function_toolset import FunctionToolset

    overflow = settings.output.overflow
    return FunctionToolset(timeout=settings.tools.function_timeout_secs, max_chars=overflow.max_overflow_bytes)


def toolsets_from(tools: Sequence[Any], settings: Settings) -> list[ToolExecutor]:
    """``Agent(tools=[...])`` as toolsets: executors as they are; functions (decorated with ``@zeph_nb.tool`` or
    plain typed ones) together as one ``FunctionToolset``, at the place of the first. The chain then checks every
    name once, built-in, installed and these alike."""
    from zeph_nb.tools.functions import as_function_tool, function_tool

    found: list[ToolExecutor] = []
    functions: FunctionToolset | None = None
    made = []
    for item in tools:
        if hasattr(item, "tool_definitions") and hasattr(item, "execute"):
            found.append(item)
            continue
        if not callable(item):
            raise ConfigError(f"Agent(tools=[...]): {item!r} is neither a toolset nor a function")
        made.append(as_function_tool(item) or function_tool(item, register=False))
        if functions is None:
            functions = function_toolset(settings)
            found.append(functions)
    if functions is not None:
        functions.offer(made)
    return found


def turned_off(settings: Settings, tools: Iterable[ToolDef] = ()) -> dict[str, str]:
    """The tools the settings turn off, each with the setting that did, in the words of a config file: those of
    ``tools`` whose ``enabled_by`` flag is false, and the names in ``[tools] disabled``."""
    off = {tool.name: _flag_off(settings, tool.enabled_by) for tool in tools if tool.enabled_by}
    off = {name: why for name, why in off.items() if why}
    for name in settings.tools.disabled:
        off.setdefault(name, f'[tools] disabled = [..., "{name}"]')
    return off


def _flag_off(settings: Settings, flag: str) -> str:
    """``[tools] shell_enabled = false`` when that flag is off, else ""; a dotted flag (``memory.enabled``) names
    a key of another section."""
    section, _, key = flag.rpartition(".")
    owner: Any = settings
    for part in (section or "tools").split("."):
        owner = getattr(owner, part)
    return "" if getattr(owner, key, True) else f"[{section or 'tools'}] {key} = false"


def installed_toolsets(settings: Settings, workdir: str | os.PathLike[str] | None) -> list[ToolExecutor]:
    """The toolsets installed packages offer (their entry point: a factory ``(settings, workdir)``, or a toolset
    itself); none when ``[tools] entry_points = false``."""
    if not settings.tools.entry_points:
        return []
    found: list[ToolExecutor] = []
    for entry in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        where = f"{entry.name} = {entry.value}" + (f" (from {entry.dist.name})" if entry.dist else "")
        if _installed_after_start(entry.dist):
            warnings.warn(
                f"zeph-nb: the {ENTRY_POINT_GROUP} entry point {where} was installed after this kernel started and "
                "is not loaded; restart the kernel to use its tools",
                stacklevel=2,
            )
            continue
        try:
            offered = entry.load()
            toolset = offered if hasattr(offered, "tool_definitions") else offered(settings, workdir)
            if not (hasattr(toolset, "tool_definitions") and hasattr(toolset, "execute")):
                raise TypeError(f"it gave {type(toolset).__name__}, not a toolset (tool_definitions, execute)")
        except (Exception, SystemExit) as e:  # a plugin's bug (even sys.exit), not ours: say which, go on
            warnings.warn(
                f"zeph-nb: the {ENTRY_POINT_GROUP} entry point {where} was left out: {type(e).__name__}: {e}. "
                "Fix or uninstall that package, or set [tools] entry_points = false",
                stacklevel=2,
            )
            continue
        found.append(toolset)
    return found
