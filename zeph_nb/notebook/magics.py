"""``%%zeph`` and ``%zeph``: the agent in a notebook.

``%%zeph`` starts the run as an asyncio task on the kernel's running loop and returns at once with a ``Run``
handle that displays as the live transcript. That is the only arrangement in which an approval click reaches
the kernel on ipykernel 6 and 7 alike (DESIGN.md): the cell is finished, the kernel is idle, the click's
handler resolves the future the run awaits. A later cell gets the result with ``await run`` (or ``await _``).

Outside a kernel with a running loop (IPython in a terminal), or with ``widgets = False``, the run happens in
the cell, approvals are asked on the console and the transcript is plain text.

Loading this module must stay cheap (``%load_ext zeph_nb`` in well under 0.2 s): pydantic, the agent, the
SDKs and ipywidgets are imported when the first run needs them.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import shlex
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from IPython.core.magic import Magics, line_cell_magic, magics_class
from traitlets import Bool, Enum, Int, Unicode

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.agent.messages import Provider
    from zeph_nb.agent.result import RunResult
    from zeph_nb.config import Settings
    from zeph_nb.notebook.approver import WidgetApprover
    from zeph_nb.notebook.kernel import IPythonKernel
    from zeph_nb.tools.base import ToolExecutor
    from zeph_nb.tools.function_toolset import FunctionToolset

from zeph_nb.notebook.persons_say import inside_run, the_persons, typed_in_cell
from zeph_nb.notebook.run import Run
from zeph_nb.notebook.views import (
    config_table,
    model_name,
    print_mcp,
    print_status,
    provider_signature,
)
from zeph_nb.notebook.where import banner, print_jobs, with_execution

__all__ = ["Run", "ZephMagics", "load_ipython_extension"]

SUBCOMMANDS = ("stop", "approve", "deny", "audit", "tools", "config", "clear", "status", "jobs", "undo", "mcp", "trust",
               "skills", "memory", "cancel")  # fmt: skip


class _OptionError(Exception):
    """A mistake in the %%zeph line, said in one line (argparse would print its usage block to stderr and exit)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _OptionError(message)


def _arguments() -> argparse.ArgumentParser:
    # allow_abbrev off: "--app" meaning "--approve" is a guess a person cannot see; a mistyped option is named.
    parser = _Parser(prog="%%zeph", add_help=False, exit_on_error=False, allow_abbrev=False)
    parser.add_argument("--model")
    parser.add_argument("--provider", help="anthropic, openai, scripted, or the name of a variable holding one")
    parser.add_argument("--max-iterations", type=int, dest="max_iterations")
    parser.add_argument("--approve", help="ask, auto, deny, inbox, or the name of a variable holding an approver")
    parser.add_argument("--cwd")
    parser.add_argument("--tmux", action="store_true", default=None)
    parser.add_argument("--ssh", help="user@host[:port]: commands and file edits run there")
    parser.add_argument("--container", help="a running container's name: commands and file edits run in it")
    parser.add_argument("--tools", help="which of your @zeph_nb.tool functions, comma-separated (default: all)")
    return parser


def _parse_options(line: str) -> argparse.Namespace:
    """The %%zeph line's options, or ``_OptionError`` naming what is wrong and the closest valid option."""
    parser = _arguments()
    valid = sorted(option for action in parser._actions for option in action.option_strings)
    try:
        options, extra = parser.parse_known_args(shlex.split(line))
    except ValueError as e:  # shlex: an unclosed quote
        raise _OptionError(f"cannot read the options ({e}); close the quote") from None
    except (argparse.ArgumentError, _OptionError) as e:
        raise _OptionError(str(e)) from None  # names the option and what it takes
    if not extra:
        return options
    word = extra[0]
    name = word.split("=", 1)[0]
    if not name.startswith("-"):
        raise _OptionError(f"unexpected {word!r} on the %%zeph line: the request goes in the cell below it")
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.5)
    hint = f"did you mean {close[0]}?" if close else f"options: {', '.join(valid)}"
    raise _OptionError(f"unknown option {name}; {hint}")


@magics_class
class ZephMagics(Magics):
    """The ``zeph`` magics. Every option is also a traitlet: ``c.ZephMagics.model = "…"`` in IPython config."""

    model = Unicode(None, allow_none=True, help="model name (default: [llm] model)").tag(config=True)
    provider = Unicode(
        "auto", help="auto, anthropic, openai, scripted, or the name of a variable holding a provider"
    ).tag(config=True)
    max_iterations = Int(None, allow_none=True, help="rounds of tool calls per run").tag(config=True)
    approve = Enum(
        ["ask", "auto", "deny", "inbox"],
        "ask",
        help="who answers an ask: you (buttons), AutoApprove, DenyAll, or a person at the dashboard's inbox",
    ).tag(config=True)
    cwd = Unicode(None, allow_none=True, help="the agent's working directory (default: the notebook's)").tag(
        config=True
    )
    tmux = Bool(False, help="commands may run in tmux panes in the background ([tools.execution] backend)").tag(
        config=True
    )
    ssh = Unicode(None, allow_none=True, help="user@host[:port] where commands run").tag(config=True)
    container = Unicode(None, allow_none=True, help="the running container commands run in").tag(config=True)
    widgets = Bool(True, help="a live widget transcript; False: plain text and console approvals").tag(config=True)

    def __init__(self, shell: Any = None, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.agent: Agent | None = None
        self.functions: FunctionToolset | None = None  # the agent's @zeph_nb.tool functions, chosen each cell
        self._agent_key: tuple[Any, ...] | None = None
        self._provider_from: tuple[str, ...] = ()
        self.approver: WidgetApprover | None = None
        self.last_run: Run | None = None
        self.runs = 0
        self.kernel: IPythonKernel | None = None  # what the kernel tools see (made with the first agent)

    # -- %%zeph ------------------------------------------------------------------------------------------

    @line_cell_magic
    def zeph(self, line: str, cell: str | None = None) -> Any:
        """``%%zeph [--model M] [--provider P] [--max-iterations N] [--approve ask|auto|deny|inbox] [--cwd PATH]
        [--tmux | --ssh USER@HOST | --container NAME] [--tools NAME,...]``
        runs the cell as a request; ``%zeph stop|approve|deny|audit|tools|config|clear|status|jobs|undo|memory`` manages
        it, ``%zeph cancel ID`` cancels a scheduled task and ``%zeph jobs keep|resume|forget ID`` keeps one across
        kernels."""
        if cell is None:
            return self._subcommand(line)
        prompt = cell.strip()
        if not prompt:
            print("%%zeph: the cell is empty; write what the agent should do below the %%zeph line.")
            return None
        try:
            options = _parse_options(line)
        except _OptionError as e:
            print(f"%%zeph: {e}")
            return None
        from zeph_nb.errors import ZephError

        try:
            agent = self._agent_for(options)
        except ZephError as e:  # a setting to fix: say so plainly, without a traceback
            print(f"%%zeph: {e}")
            return None
        if agent.running:
            print("%%zeph: a run is still going; stop it with %zeph stop (or its Stop button) first.")
            return None
        max_iterations = options.max_iterations or self.max_iterations
        if max_iterations and agent.settings.managed is not None:
            by = (f"%%zeph --max-iterations {max_iterations}" if options.max_iterations
                  else "c.ZephMagics.max_iterations")  # fmt: skip
            try:
                agent.settings.managed.refuse("agent.max_tool_iterations", max_iterations, by=by)
            except ZephError as e:
                print(f"%%zeph: {e}")
                return None
        self.runs += 1
        loop = _running_loop()
        if self.widgets and loop is not None:
            return self._start(agent, prompt, max_iterations, loop)
        return self._run_plain(agent, prompt, max_iterations)

    def _start(self, agent: Agent, prompt: str, max_iterations: int | None, loop: asyncio.AbstractEventLoop) -> Run:
        from zeph_nb.notebook.server import HUB_SERVICE, hub_base_url, jupyter_base_url
        from zeph_nb.notebook.transcript import Transcript

        answering = agent.chain.answering  # the team's reviewers, when they decide, whatever --approve said
        where = getattr(answering, "where", None)  # e.g. the inbox approver: "in the approval inbox of …"
        link = getattr(answering, "link", None)  # …and that page under the Jupyter server's base URL
        if getattr(answering, "on_hub", False):  # the hub service: its page under the hub's base URL
            link, base = (link, "") if link else (HUB_SERVICE, hub_base_url())
        else:
            base = jupyter_base_url() if link else None
        warning = banner(agent.settings)
        transcript = Transcript(
            prompt,
            on_stop=agent.stop,
            model=model_name(agent),
            approver_where=where,
            approver_link=base + link if base is not None and link else None,
            warning=warning,
            offline=bool(getattr(agent.provider, "unconfigured", False)),
            idle_timeout=agent.settings.llm.idle_timeout_secs,
        )
        if self.approver is not None:
            self.approver.transcript = transcript
        if self.kernel is not None:
            self.kernel.new_run(transcript)

        async def go() -> RunResult:
            transcript.start_clock(loop)
            try:
                return await agent.run(prompt, on_event=transcript.handle, max_iterations=max_iterations)
            except BaseException as e:
                if not isinstance(e, asyncio.CancelledError):
                    transcript.failed(e)
                raise
            finally:
                transcript.stop_clock()  # already stopped by the "stopped" event, unless the run raised

        run = Run(loop.create_task(go()), transcript, agent)
        if agent.settings.scheduler.enabled:
            run.scheduled = agent.scheduled_view = self._scheduled_view(agent, transcript)
        self.last_run = run
        return run

    def _scheduled_view(self, agent: Agent, transcript: Any) -> Any:
        """Where the runs of tasks this run schedules appear: under its transcript, each with its own buttons."""
        from zeph_nb.notebook.scheduled import ScheduledView

        buttons = self.approver is not None and agent.approver is self.approver
        return ScheduledView.for_agent(transcript, agent, buttons=buttons)

    def _run_plain(self, agent: Agent, prompt: str, max_iterations: int | None) -> RunResult:
        from zeph_nb.notebook.plain import PlainTranscript

        if self.kernel is not None:
            self.kernel.new_run(None)  # the cell runs until the end: proposals ride on its reply

        transcript = PlainTranscript(warning=banner(agent.settings))  # the same first line the widget shows
        return agent.run_sync(prompt, on_event=transcript.handle, max_iterations=max_iterations)

    # -- the agent -----------------------------------------------------------------------------------------

    def _settings(self, options: argparse.Namespace) -> Settings:
        from zeph_nb.config import Settings

        settings = Settings.load()
        model = options.model or self.model
        provider = options.provider or self.provider
        llm = settings.llm
        updates: dict[str, Any] = {}
        if model:
            updates["model"] = model
        # The traitlet's default "auto" is nobody's choice: it leaves a provider the managed settings pin alone.
        pinned = settings.managed is not None and settings.managed.manages("llm.provider") is not None
        chosen = bool(options.provider) or self.provider != "auto" or not pinned
        if chosen and (provider in ("auto", "anthropic", "openai", "scripted") or provider in _named(settings)):
            updates["provider"] = provider
        _refuse_loosening(settings, options, self, updates)
        if updates:
            settings = settings.model_copy(update={"llm": llm.model_copy(update=updates)})
        return with_execution(settings, tmux=bool(options.tmux or self.tmux), ssh=options.ssh or self.ssh,
                              container=options.container or self.container)  # fmt: skip

    def _provider(self, options: argparse.Namespace, settings: Settings) -> Provider:
        from zeph_nb.agent.providers import provider_from_settings
        from zeph_nb.errors import ConfigError

        name = options.provider or self.provider
        if name in ("auto", "anthropic", "openai", "scripted") or name in _named(settings):
            return provider_from_settings(settings)
        value = (self.shell.user_ns if self.shell is not None else {}).get(name)
        if value is None or not hasattr(value, "complete"):
            raise ConfigError(
                f"--provider {name!r}: not anthropic, openai, scripted or auto, no [[llm.providers]] entry, and no "
                "variable of that name holds a provider (for example model = zeph_nb.ScriptedProvider([...]))"
            )
        provider: Provider = value
        return provider

    def _agent_for(self, options: argparse.Namespace) -> Agent:
        """The session's agent (one conversation across cells); rebuilt when the model, provider, approver
        mode or working directory change. It offers the @zeph_nb.tool functions as they are now (``--tools``)."""
        from zeph_nb.agent.loop import Agent
        from zeph_nb.tools.toolsets import function_toolset

        approve = options.approve or self.approve
        cwd = options.cwd or self.cwd
        provider_name = options.provider or self.provider
        key = (options.model or self.model, provider_name, id(self.shell.user_ns.get(provider_name)) if self.shell
               else None, cwd, options.tmux or self.tmux, options.ssh or self.ssh,
               options.container or self.container)  # fmt: skip
        if self.agent is None or key != self._agent_key:
            settings = self._settings(options)
            from zeph_nb.notebook.kernel import IPythonKernel
            from zeph_nb.tools.kernel import KernelExecutor

            if self.shell is not None and self.kernel is None:
                self.kernel = IPythonKernel(self.shell)
            self.functions = function_toolset(settings)
            tools: list[ToolExecutor] = [self.functions]
            if self.kernel is not None:
                tools.append(KernelExecutor(self.kernel))
            self.agent = Agent(settings, self._provider(options, settings), workdir=cwd, tools=tools)
            from zeph_nb.notebook.imports import guard_kernel_imports

            guard_kernel_imports(settings, self.agent.workdir)
            self._agent_key = key
            self._provider_from = provider_signature(settings)
        elif provider_name in ("auto", "anthropic", "openai", "scripted", *_named(self.agent.settings)):
            # Chosen from the settings and the environment: look again, so a key set with %env (or removed) since
            # the last cell is used by this one. The conversation goes on with the new provider.
            settings = self._settings(options)
            signature = provider_signature(settings)
            if signature != self._provider_from:
                self.agent.provider = self._provider(options, settings)
                self.agent.settings = self.agent.settings.model_copy(update={
                    "llm": settings.llm, "anthropic_api_key": settings.anthropic_api_key,
                    "openai_api_key": settings.openai_api_key})  # fmt: skip
                self._provider_from = signature
        self.agent.approver = self._approver(approve, self.agent)
        self._offer(options.tools)
        return self.agent

    def _offer(self, names: str | None) -> None:
        """The @zeph_nb.tool functions the agent offers (``--tools a,b``; None: all), read again before each run."""
        from zeph_nb.tools.functions import pick

        assert self.agent is not None and self.functions is not None
        self.functions.offer(pick(names))
        self.agent.chain.refresh_tools()  # a name a toolset also defines: said now, before the run starts

    def _approver(self, mode: str, agent: Agent) -> Any:
        from zeph_nb.errors import ConfigError
        from zeph_nb.gates.approval import AutoApprove, ConsoleApprover, DenyAll

        settings = agent.settings
        if mode not in ("ask", "auto", "deny", "inbox"):
            value = (self.shell.user_ns if self.shell is not None else {}).get(mode)
            if value is None or not hasattr(value, "decide"):
                raise ConfigError(
                    f"--approve {mode!r}: not ask, auto, deny or inbox, and no variable of that name holds an approver "
                    "(for example approver = zeph_nb.ScriptedApprover(['approve']))"
                )
            return value
        if mode == "auto":
            return AutoApprove(f"AutoApprove (%%zeph --approve auto, {settings.user})")
        if mode == "deny":
            return DenyAll()
        if mode == "inbox":  # headless runs (papermill, nbclient): a person answers on the dashboard
            from zeph_nb.gates.approval.inbox import InboxApprover

            current = agent.approver
            if isinstance(current, InboxApprover):
                return current
            return InboxApprover(settings, store=agent.store)
        if not self.widgets or _running_loop() is None:
            return ConsoleApprover(user=settings.user)
        if self.approver is None:
            from zeph_nb.notebook.approver import WidgetApprover

            self.approver = WidgetApprover(settings.user)
        return self.approver

    # -- %zeph subcommands ------------------------------------------------------------------------------

    def _subcommand(self, line: str) -> Any:
        words = line.split()
        if not words or words[0] not in SUBCOMMANDS:
            print(f"%zeph: say one of {', '.join(SUBCOMMANDS)}; a request goes in a %%zeph cell.")
            return None
        from zeph_nb.errors import ZephError

        try:
            return getattr(self, f"_cmd_{words[0]}")(words[1:])
        except ZephError as e:  # a setting or a function to fix (two tools of one name): said plainly
            print(f"%zeph {words[0]}: {e}")

    def _cmd_undo(self, args: list[str]) -> Any:
        from zeph_nb.notebook.undo import undo_command

        return undo_command(self.agent, args, widgets=self.widgets)

    def _cmd_jobs(self, args: list[str]) -> Any:
        if args:  # keep, resume, forget: tasks the person keeps across kernels
            from zeph_nb.notebook.kept import JobsError, jobs_command

            if args[0] in ("keep", "resume", "forget") and not self._typed_in_cell(["jobs", *args]):
                raise JobsError(f"{args[0]} is for the person, in a cell of their own: the cell running now has no "
                                f"line '%zeph {' '.join(['jobs', *args])}' (code called the magic: an event hook or a "
                                "callback run_python left behind); type the line in a cell")  # fmt: skip
            return jobs_command(args, agent=self.agent, make_agent=self._session_agent, widgets=self.widgets,
                                inside_run=self._inside_run())  # fmt: skip
        print_jobs()
        if "zeph_nb.tools.scheduler.tasks" in sys.modules:  # else no task was ever scheduled in this kernel
            from zeph_nb.notebook.scheduled import describe_tasks

            for line in describe_tasks():
                print(line)
        self._print_kept()
        return None

    def _print_kept(self) -> None:
        """The kept tasks of this user and folder, which no kernel runs until the person resumes one."""
        from zeph_nb.config import Settings
        from zeph_nb.notebook.kept import describe_kept, project_of
        from zeph_nb.store.kept_tasks import KeptTasks
        from zeph_nb.store.spool import spool_files
        from zeph_nb.store.store import Store

        settings = self.agent.settings if self.agent is not None else Settings.load()
        store = self.agent.store if self.agent is not None else Store(settings)
        try:
            if not store.path.exists() and not spool_files(store.spool_dir):
                return  # nothing was ever stored here, so nothing kept: no DuckDB and pandas to import (~0.7 s)
            for line in describe_kept(KeptTasks(store), settings, project_of(self.agent)):
                print(line)
        finally:
            if self.agent is None:
                store.close()

    def _session_agent(self) -> Agent:
        """The session's agent, as a %%zeph cell with no options would make it (its conversation kept)."""
        return self.agent if self.agent is not None else self._agent_for(_arguments().parse_args([]))

    def _inside_run(self) -> bool:
        return inside_run()

    def _typed_in_cell(self, words: list[str]) -> bool:
        return typed_in_cell(self.shell, words)

    def _cmd_cancel(self, args: list[str]) -> None:
        from zeph_nb.notebook.scheduled import cancel_command

        print(cancel_command(args))

    def _cmd_stop(self, args: list[str]) -> None:
        stopped = self.agent is not None and self.agent.stop()
        print("stopping the run" if stopped else "no run is in progress")

    def _answer(self, choice: str) -> None:
        request = self.approver.answer_oldest(choice) if self.approver is not None else None
        if request is None and self.agent is not None and self.agent.pending_approvals:
            # Waiting, but not for this notebook's buttons: the team's reviewers (or the inbox) answer it.
            where = getattr(self.agent.chain.answering, "where", None) or "elsewhere"
            print(f"{len(self.agent.pending_approvals)} waiting, answered {where}: %zeph approve/deny does not "
                  "answer them")  # fmt: skip
        elif request is None:
            print("no approval is waiting")
        else:
            print(f"{'approved' if choice != 'deny' else 'denied'}: {request.summary}")

    def _cmd_approve(self, args: list[str]) -> None:
        self._the_persons(["approve", *args])
        self._answer("always" if args[:1] == ["always"] else "approve")

    def _cmd_deny(self, args: list[str]) -> None:
        self._the_persons(["deny", *args])
        self._answer("deny")

    def _the_persons(self, words: list[str]) -> None:
        the_persons(self.shell, words)

    def _cmd_audit(self, args: list[str]) -> Any:
        from zeph_nb.notebook.views import recent_calls

        settings = self.agent.settings if self.agent is not None else None
        return recent_calls(int(args[0]) if args and args[0].isdigit() else 20, settings)

    def _cmd_tools(self, args: list[str]) -> None:
        # The session's agent as it is: rebuilding it from default options would drop its conversation.
        from zeph_nb.notebook.views import print_tools

        agent = self.agent if self.agent is not None else self._agent_for(_arguments().parse_args([]))
        if not agent.running:  # the functions a %%zeph cell without --tools would offer now
            self._offer(None)
        print_tools(agent.describe_tools(), {t.name: t.origin for t in self.functions.tools} if self.functions else {})

    def _cmd_mcp(self, args: list[str]) -> None:
        print_mcp(self.agent.chain if self.agent is not None else None)

    def _cmd_config(self, args: list[str]) -> Any:
        return config_table(self.agent)

    def _cmd_clear(self, args: list[str]) -> None:
        if self.agent is None:
            print("nothing to clear: no conversation yet")
            return
        forget = "--forget" in args  # the old conversation's stored outputs go too (read_overflow finds none)
        gone = "; its stored outputs are deleted" if forget else ""
        print(f"new conversation {self.agent.clear(forget=forget)}{gone}")

    def _cmd_status(self, args: list[str]) -> None:
        from zeph_nb.notebook.written import describe_written

        print_status(self.agent, self.runs, self.max_iterations, self.last_run)
        print("\n".join(describe_written(self.agent)))

    def _cmd_skills(self, args: list[str]) -> None:
        from zeph_nb.config import Settings
        from zeph_nb.tools.skills.view import skills_command
        from zeph_nb.tools.started import STARTED

        if args[:1] == ["trust"]:  # the person's say for a skill
            self._the_persons(["skills", *args])
        agent = self.agent  # the session's settings and folder; before the first run, what one would use
        settings = agent.settings if agent is not None else Settings.load()
        print(skills_command(args, settings, agent.workdir if agent is not None else None, STARTED))

    def _cmd_memory(self, args: list[str]) -> Any:
        from zeph_nb.notebook.memory import memory_command

        return memory_command(args, self.agent)

    def _cmd_trust(self, args: list[str]) -> None:
        from zeph_nb.notebook.imports import trust

        if args:  # accepting what an agent wrote as the person's (a module, a zeph.toml): never the code's say
            self._the_persons(["trust", *args])
        trust(args, self.agent)


def _refuse_loosening(settings: Settings, options: argparse.Namespace, magics: ZephMagics,
                      llm: dict[str, Any]) -> None:  # fmt: skip
    """A ConfigError naming the managed key when a cell's option (or a traitlet) would change what the
    organisation's managed settings fixed: the model, the provider, where commands run."""
    from zeph_nb.errors import ConfigError

    managed = settings.managed
    if managed is None:
        return

    def by(option: str) -> str:
        given = getattr(options, option)
        if given is None:
            return f"c.ZephMagics.{option}"
        return f"%%zeph --{option}" if given is True else f"%%zeph --{option.replace('_', '-')} {given}"

    wanted: list[tuple[str, Any, str]] = [(f"llm.{key}", value, by(key)) for key, value in llm.items()
                                          if value != getattr(settings.llm, key)]  # fmt: skip
    provider = options.provider or magics.provider
    if "provider" not in llm and provider != "auto":  # a variable holding a provider: nothing [llm] pins holds
        for key in ("llm.provider", "llm.allowed_base_urls"):
            if managed.manages(key):
                raise ConfigError(f"{managed.says(key)}; {by('provider')} (a provider of your own) is refused")
    ssh, container = options.ssh or magics.ssh, options.container or magics.container
    tmux = bool(options.tmux or magics.tmux)
    if ssh or container:
        where = "ssh" if ssh else "container"
        wanted += [("tools.execution.backend", where, by(where)), (f"tools.execution.{where}", ssh or container,
                                                                   by(where))]  # fmt: skip
    if tmux:
        key, value = ("tools.execution.tmux", True) if ssh or container else ("tools.execution.backend", "tmux")
        wanted.append((key, value, by("tmux")))
    for key, value, who in wanted:
        managed.refuse(key, value, by=who)
    if (ssh or container) and managed.values.get("tools.shell.sandbox") == "bwrap":
        # Every command there would be denied (another machine is outside the OS sandbox): say so at the cell, as
        # for a pinned backend, not with a banner saying each command asks.
        where = "ssh" if ssh else "container"
        raise ConfigError(f"{managed.says('tools.shell.sandbox')}: nothing runs outside it; {by(where)} would run "
                          "commands on another machine and is refused")  # fmt: skip


def _named(settings: Settings) -> set[str]:
    return {entry.name for entry in settings.llm.providers}


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def load_ipython_extension(ipython: Any) -> None:
    from zeph_nb.notebook.imports import guard_kernel_imports

    guard_kernel_imports()  # first: nothing zeph-nb imports from here on may come from the notebook folder
    ipython.register_magics(ZephMagics)
