"""The ``diagnostics`` tool: run the project's own checkers and return what they found, structured.

``kind = "check"`` runs the type/compile checkers (mypy for Python, ``cargo check`` for Rust); ``kind = "lint"``
runs the linters (``ruff check`` for Python, ``cargo clippy``). A checker that is not installed, or fails to
run, adds a warning and no diagnostics; it never fails the call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from zeph_nb.config import Settings
from zeph_nb.security.env import scrub_env
from zeph_nb.security.os_sandbox import private_tmp, wrap
from zeph_nb.tools.base import BuiltinArgs, SingleToolExecutor, ToolCall, ToolDef, ToolOutput
from zeph_nb.tools.containment import sandbox_spec, sandbox_status
from zeph_nb.tools.shell.host_guard import HostGuard

__all__ = ["DIAGNOSTICS", "Diagnostic", "DiagnosticsExecutor"]


class DiagnosticsArgs(BuiltinArgs):
    kind: Literal["check", "lint", "clippy"] = Field(
        "check", description="check: type/compile errors; lint: style and bugs; clippy: cargo clippy only"
    )
    max_diagnostics: int | None = Field(None, ge=1, le=1000, description="default: [tools.diagnostics] max_diagnostics")


DIAGNOSTICS = ToolDef(
    "diagnostics",
    "Run the project's checkers (mypy or cargo check; with kind='lint', ruff or clippy) and list what they report.",
    DiagnosticsArgs,
    enabled_by="diagnostics_enabled",
    utility=0.75,
    # The seed's: what the checkers find depends only on the files, so a repeat is answered from the result cache
    # until a call that may change files runs (or the next run starts), as a read's is.
    cacheable=True,
)


@dataclass(frozen=True)
class Diagnostic:
    source: str
    severity: str
    message: str
    file: str
    line: int
    col: int
    code: str | None = None

    def render(self) -> str:
        code = f" [{self.source} {self.code}]" if self.code else f" [{self.source}]"
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}{code}"


class _Missing(Exception):
    """The checker is not installed; the message says what to install."""


_MYPY_LINE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>error|warning|note): "
    r"(?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)


class DiagnosticsExecutor(SingleToolExecutor):
    """Runs ``diagnostics`` calls in ``workdir`` with the shell timeout of ``[tools.shell]``."""

    tool = DIAGNOSTICS

    def __init__(self, settings: Settings | None = None, *, workdir: str | os.PathLike[str] | None = None) -> None:
        self.settings = settings or Settings()
        self.workdir = Path(workdir) if workdir is not None else Path.cwd()
        shell = self.settings.tools.shell
        self.env = scrub_env(os.environ, scrub=shell.scrub_env, keep=shell.keep_env)

    async def run(self, args: DiagnosticsArgs, call: ToolCall) -> ToolOutput:
        limit = args.max_diagnostics or self.settings.tools.diagnostics.max_diagnostics
        return await asyncio.to_thread(self.collect, args.kind, limit, call.call_id)

    def collect(self, kind: str, limit: int = 50, call_id: str | None = None) -> ToolOutput:
        """Run every applicable checker of ``kind``; a ToolOutput whose raw holds the diagnostics and warnings."""
        found: list[Diagnostic] = []
        warnings: list[str] = []
        ran: list[str] = []
        for name, runner in self._checkers(kind):
            try:
                found.extend(runner())
                ran.append(name)
            except _Missing as e:
                warnings.append(str(e))
            except (OSError, subprocess.SubprocessError, ValueError) as e:
                warnings.append(f"{name} could not run: {e}")
        if not ran and not warnings:
            warnings.append("no Python or Rust project here (no *.py files, no Cargo.toml): nothing to check")
        found.sort(key=lambda d: (d.file, d.line, d.col, d.source))
        shown = found[:limit]
        errors = sum(1 for d in found if d.severity == "error")
        head = f"{len(found)} diagnostics ({errors} errors) from {', '.join(ran)}" if ran else "no checker ran"
        if ran and not found:
            head = f"no diagnostics from {', '.join(ran)}"
        lines = [head, *(d.render() for d in shown)]
        if len(found) > limit:
            lines.append(f"[{limit} of {len(found)} shown; raise max_diagnostics to see more]")
        lines += [f"[warning] {w}" for w in warnings]
        return ToolOutput(
            DIAGNOSTICS.name,
            "\n".join(lines),
            raw={"diagnostics": [asdict(d) for d in shown], "total": len(found), "warnings": warnings, "ran": ran},
            call_id=call_id,
            truncated=len(found) > limit,
        )

    # -- checkers -------------------------------------------------------------------------------------------

    def _checkers(self, kind: str) -> list[tuple[str, Any]]:
        checkers: list[tuple[str, Any]] = []
        if kind == "clippy":  # seed 004's name for cargo's linter: Rust only
            kind = "lint"
        elif self._is_python():
            checkers.append(("mypy", self._mypy) if kind == "check" else ("ruff", self._ruff))
        if (self.workdir / "Cargo.toml").is_file():
            checkers.append(("cargo", lambda: self._cargo("check" if kind == "check" else "clippy")))
        return checkers

    def _is_python(self) -> bool:
        markers = ("pyproject.toml", "setup.py", "setup.cfg")
        return any((self.workdir / m).is_file() for m in markers) or next(self.workdir.rglob("*.py"), None) is not None

    def _run(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        # Checkers run the project's own code (mypy plugins, cargo build scripts): in the OS sandbox, like bash.
        status = sandbox_status(self.settings)
        if not status.active and self.settings.tools.shell.sandbox == "bwrap":
            raise OSError(f'the OS sandbox is required ([tools.shell] sandbox = "bwrap") but {status.reason}')
        env = self.env
        spec = sandbox_spec(self.settings, self.workdir)
        with HostGuard(self.settings, spec) as guard, private_tmp() as tmp:
            if status.active:
                argv = wrap(argv, dataclasses.replace(spec, tmp_dir=tmp, trees=guard.trees), status)
                env = {**env, "XDG_CACHE_HOME": "/tmp/.cache"}  # noqa: S108 - the sandbox's own /tmp
            return subprocess.run(
                argv,
                cwd=self.workdir,
                env=env,
                capture_output=True,
                text=True,
                timeout=self.settings.tools.shell.timeout * 4,  # whole-project checks run longer than one command
                check=False,
            )

    def _ruff(self) -> list[Diagnostic]:
        ruff = _find_tool("ruff", "install ruff to get lint diagnostics for Python")
        result = self._run([ruff, "check", "--output-format", "json", "--no-cache", "--exit-zero", "."])
        if result.returncode != 0:  # with --exit-zero only a failure to run (a bad config) exits non-zero
            raise ValueError(_last_lines(result.stderr) or f"ruff exited {result.returncode}")
        items = json.loads(result.stdout or "[]")
        return [
            Diagnostic(
                "ruff",
                "error" if not item.get("code") or item.get("code") == "invalid-syntax" else "warning",
                item["message"],
                self._relative(item["filename"]),
                item["location"]["row"],
                item["location"]["column"],
                item.get("code"),
            )
            for item in items
        ]

    def _mypy(self) -> list[Diagnostic]:
        mypy = _find_tool("mypy", "install mypy to get type diagnostics for Python")
        argv = [mypy, "--show-column-numbers", "--show-error-codes", "--no-error-summary", "--no-pretty"]
        result = self._run([*argv, "--no-color-output", "--hide-error-context", "."])
        found = []
        for line in result.stdout.splitlines():
            match = _MYPY_LINE.match(line)
            if match:
                found.append(
                    Diagnostic(
                        "mypy",
                        match["sev"],
                        match["msg"],
                        self._relative(match["file"]),
                        int(match["line"]),
                        int(match["col"] or 0),
                        match["code"],
                    )
                )
        if result.returncode not in (0, 1) and not found:
            raise ValueError(result.stderr.strip() or result.stdout.strip() or f"exit code {result.returncode}")
        return found

    def _cargo(self, subcommand: str) -> list[Diagnostic]:
        cargo = _find_tool("cargo", "install a Rust toolchain to check Rust code")
        result = self._run([cargo, subcommand, "--message-format=json", "--quiet"])
        if result.returncode != 0 and "no such command" in result.stderr:
            raise _Missing(f"cargo {subcommand} is not installed (rustup component add {subcommand})")
        found = []
        for line in result.stdout.splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            message = event.get("message") if event.get("reason") == "compiler-message" else None
            if not message or not message.get("spans"):
                continue
            span = next((s for s in message["spans"] if s.get("is_primary")), message["spans"][0])
            code = (message.get("code") or {}).get("code")
            found.append(
                Diagnostic(
                    "cargo",
                    message.get("level", "error"),
                    message.get("message", ""),
                    self._relative(span["file_name"]),
                    span.get("line_start", 0),
                    span.get("column_start", 0),
                    code,
                )
            )
        if result.returncode != 0 and not any(d.severity == "error" for d in found):
            # cargo failed without a compiler error to show (a broken manifest, a missing dependency offline,
            # exit 101): that is a checker that did not run, never a clean project.
            raise ValueError(_last_lines(result.stderr) or f"cargo {subcommand} exited {result.returncode}")
        return found

    def _relative(self, name: str) -> str:
        path = Path(name)
        if path.is_absolute():
            try:
                return path.relative_to(self.workdir.resolve()).as_posix()
            except ValueError:
                return path.as_posix()
        return path.as_posix()


def _last_lines(text: str, lines: int = 5) -> str:
    """The end of a checker's error output, where it says what went wrong."""
    return "\n".join(text.strip().splitlines()[-lines:])


def _find_tool(name: str, hint: str) -> str:
    """A checker next to this interpreter (a venv kernel may not have its bin on PATH), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise _Missing(f"{name} not found: {hint}")
    return found
