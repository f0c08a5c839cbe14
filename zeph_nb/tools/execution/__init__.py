"""Where commands run when it is not this machine: a container (``container.py``) or an SSH host (``ssh.py``),
both a ``CommandBackend`` (``backend.py``: the shared run/read/write behaviour), with the tools offered on them
(``tools.py``). The local contexts are ``tools/shell``: the sandboxed runner, and its tmux panes.

One backend per kernel and target: the shell and file tools share it, and with it one SSH connection.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zeph_nb.config import Settings

# Every new Agent asks backend_for() whether commands run elsewhere; the answer is mostly no, and the backends' base
# (backend.py) is then not needed: it is imported by the first backend made, or by a reader of these two names.
if TYPE_CHECKING:
    from zeph_nb.tools.execution.backend import CommandBackend, CommandResult

__all__ = ["CommandBackend", "CommandResult", "backend_for", "close_backends"]

_BACKENDS: dict[tuple[object, ...], CommandBackend] = {}


def backend_for(settings: Settings, env: Mapping[str, str] | None = None) -> CommandBackend | None:
    """This kernel's backend for ``[tools.execution]``, or None for a local context."""
    execution = settings.tools.execution
    if execution.backend not in ("ssh", "container"):
        return None
    key = (execution.backend, execution.ssh, tuple(execution.ssh_options), execution.container, execution.engine,
           execution.remote_workdir, os.getpid())  # fmt: skip
    backend = _BACKENDS.get(key)
    if backend is None:
        if execution.backend == "ssh":
            from zeph_nb.tools.execution.ssh import SshBackend

            assert execution.ssh is not None  # the settings' validator
            backend = SshBackend(execution.ssh, workdir=execution.remote_workdir, options=execution.ssh_options,
                                 env=env)  # fmt: skip
        else:
            from zeph_nb.tools.execution.container import ContainerBackend

            assert execution.container is not None
            backend = ContainerBackend(execution.container, engine=execution.engine,
                                       workdir=execution.remote_workdir, env=env)  # fmt: skip
        if not _BACKENDS:
            atexit.register(close_backends)
        _BACKENDS[key] = backend
    return backend


def __getattr__(name: str) -> Any:
    if name in ("CommandBackend", "CommandResult"):
        from zeph_nb.tools.execution import backend

        return getattr(backend, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def close_backends() -> None:
    """Close every backend's connection (at exit: an SSH master connection would outlive the kernel)."""
    backends = list(_BACKENDS.values())
    _BACKENDS.clear()
    for backend in backends:
        backend.close()
