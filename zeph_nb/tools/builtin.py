"""Every built-in tool family behind one executor (tools/toolsets.py lists them and finds installed ones)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from zeph_nb.config import Settings
from zeph_nb.security.urls import Resolver
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.toolsets import BUILTIN

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
    return CompositeExecutor([make(settings, workdir, env=env, resolve=resolve) for make in BUILTIN.values()])
