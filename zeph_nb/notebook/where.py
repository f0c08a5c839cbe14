"""Where a notebook's commands run: ``--tmux``, ``--ssh user@host``, ``--container NAME`` (and the same traitlets)
turned into ``[tools.execution]``, and the line ``%zeph status`` and the transcript header print about it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loading the extension stays cheap: pydantic comes with the first cell
    from zeph_nb.config import Settings

__all__ = ["banner", "describe_where", "print_jobs", "with_execution"]


def with_execution(settings: Settings, *, tmux: bool, ssh: str | None, container: str | None) -> Settings:
    """``settings`` with the execution context the cell's options (or the magics' traitlets) chose. One at most:
    two are a mistake the person hears about."""
    chosen = [name for name, value in (("--ssh", ssh), ("--container", container)) if value]
    if len(chosen) > 1:
        from zeph_nb.errors import ConfigError

        raise ConfigError(f"{' and '.join(chosen)} were both given; commands run in one place, choose one")
    update: dict[str, Any] = {}
    if ssh:
        update = {"backend": "ssh", "ssh": ssh}
    elif container:
        update = {"backend": "container", "container": container}
    if tmux:  # alone: this machine's panes; with --ssh or --container: panes there
        update = {**update, "tmux": True} if update else {"backend": "tmux"}
    if not update:
        return settings
    execution = settings.tools.execution.model_validate({**settings.tools.execution.model_dump(), **update})
    return settings.model_copy(update={"tools": settings.tools.model_copy(update={"execution": execution})})


def banner(settings: Settings) -> str | None:
    """What the top of a run's transcript says before anything else: where commands run when it is another
    machine or a container, or that commands are not contained here."""
    if settings.tools.execution.backend in ("ssh", "container"):
        where = describe_where(settings)
        return f"Commands run elsewhere: {where}." if where else None
    from zeph_nb.tools.containment import sandbox_status

    status = sandbox_status(settings)
    if status.active:
        return None
    fix = f" To fix: {status.fix}." if status.fix else ""
    return f"{status.describe()}. Commands that may change anything ask first.{fix}"


def describe_where(settings: Settings) -> str | None:
    """One line on where commands run, when it is not the plain local sandbox."""
    execution = settings.tools.execution
    if execution.backend == "tmux":
        from zeph_nb.tools.shell.panes import attach_command

        return f"bash wait=false runs in a tmux pane in the background; watch: {attach_command()}"
    panes = "; bash wait=false runs in a tmux pane there" if execution.tmux else ""
    if execution.backend == "ssh":
        folder = execution.remote_workdir or "the login folder"
        return f"commands and read/write/edit run over ssh on {execution.ssh}, in {folder}; each asks{panes}"
    if execution.backend == "container":
        folder = execution.remote_workdir or "its working directory"
        return (f"commands and read/write/edit run in container {execution.container}, in {folder}; each "
                f"asks{panes}")  # fmt: skip
    return None


def print_jobs() -> None:
    """``%zeph jobs``: the kernel's background commands, each with its pane and how it stands."""
    from zeph_nb.tools.shell.panes import TmuxPanes, attach_command

    jobs = TmuxPanes.jobs()
    if not jobs:
        print("no background commands (start one with %%zeph --tmux; the agent runs it with bash wait=false)")
        return
    for pane, state, command in jobs:
        shown = command if len(command) <= 80 else command[:77] + "..."
        print(f"{pane:>5}  {state:<22}  {shown}")
    print(f"watch them: {attach_command()}")
