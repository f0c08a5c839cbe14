"""The built-in executors, in the fixed order the composite asks them (first owner of a tool wins)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from zeph_nb.config import Settings
from zeph_nb.security.urls import Resolver
from zeph_nb.tools.base import ToolExecutor
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.diagnostics import DiagnosticsExecutor
from zeph_nb.tools.files.executor import FileExecutor
from zeph_nb.tools.shell.executor import ShellExecutor
from zeph_nb.tools.time import TimeExecutor
from zeph_nb.tools.web.executor import WebExecutor

__all__ = ["builtin_executor"]


def builtin_executor(
    settings: Settings | None = None,
    *,
    workdir: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    resolve: Resolver | None = None,
) -> CompositeExecutor:
    """Every built-in tool behind one executor: files and grep, bash, diagnostics, time, and the web tools.

    ``resolve`` replaces DNS for the web tools (tests only)."""
    settings = settings or Settings()
    executors: list[ToolExecutor] = [
        FileExecutor(settings, workdir=workdir),
        ShellExecutor(settings, workdir=workdir, env=env, resolve=resolve),
        DiagnosticsExecutor(settings, workdir=workdir),
        TimeExecutor(),
        WebExecutor(settings, resolve=resolve),
    ]
    return CompositeExecutor(executors)
