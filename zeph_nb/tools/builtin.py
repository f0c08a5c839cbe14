"""Every built-in tool family behind one executor (tools/toolsets.py lists them and finds installed ones)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from zeph_nb.config import Settings
from zeph_nb.security.urls import Resolver
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.toolsets import BUILTIN

if TYPE_CHECKING:
    from zeph_nb.store.store import Store
    from zeph_nb.tools.memory import Embedder

__all__ = ["builtin_executor"]


def builtin_executor(
    settings: Settings | None = None,
    *,
    workdir: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    resolve: Resolver | None = None,
    store: Store | None = None,
    run: Callable[[], str | None] | None = None,
    embedder: Embedder | None = None,
    code_embedder: Embedder | None = None,
) -> CompositeExecutor:
    """Every built-in tool behind one executor: files and grep, bash, diagnostics, time, the web and memory tools.

    ``resolve`` replaces DNS for the web tools (tests only); ``store`` (default: the zeph home's), ``run`` (the
    current run's id) and ``embedder`` are the memory tools'; ``code_embedder`` search_code's semantic layer's."""
    settings = settings or Settings()
    return CompositeExecutor([make(settings, workdir, env=env, resolve=resolve, store=store, run=run,
                                   embedder=embedder, code_embedder=code_embedder)
                             for make in BUILTIN.values()])  # fmt: skip
