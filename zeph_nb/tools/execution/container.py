"""ContainerBackend: commands and files in a running container, through the engine's own CLI.

``docker exec`` (or ``podman exec``: the engine is found by asking ``docker --version``, then ``podman
--version``) with ``-i`` only when there is stdin to give, ``-w`` for the working directory, and the same ``sh -c``
scripts every backend runs. The container is the person's (the project's dev container, say): zeph neither
creates nor stops it, and a command's rights are whatever the container gives its user.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.execution.backend import CommandBackend

__all__ = ["ContainerBackend", "detect_engine"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$")  # a container's name or id, never an option
_CLIENT_ENV = ("HOME", "PATH", "DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "CONTAINER_HOST",
               "XDG_RUNTIME_DIR", "LANG", "LC_ALL")  # fmt: skip


def detect_engine(preferred: str = "auto") -> str:
    """The container engine's CLI: ``preferred``, or the first of docker and podman that answers ``--version``."""
    candidates = ("docker", "podman") if preferred == "auto" else (preferred,)
    for name in candidates:
        binary = shutil.which(name)
        if binary is None:
            continue
        try:
            answered = subprocess.run([binary, "--version"], capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if answered.returncode == 0:
            return binary
    raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                    f"no container engine answers here (tried {', '.join(candidates)}); install docker or podman, "
                    'or set [tools.execution] engine = "docker" | "podman"')  # fmt: skip


class ContainerBackend(CommandBackend):
    kind = "container"

    def __init__(
        self,
        container: str,
        *,
        engine: str = "auto",
        workdir: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not _NAME.match(container):
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"{container!r} is not a container name or id (letters, digits, _ . -)")  # fmt: skip
        source = os.environ if env is None else env
        super().__init__(workdir=workdir, env={k: v for k, v in source.items() if k in _CLIENT_ENV})
        self.container = container
        self.binary = detect_engine(engine)
        self.engine = self.binary.rsplit("/", 1)[-1]
        self._probed = False

    @property
    def where(self) -> str:
        return f"{self.engine} container {self.container}"

    def argv(self, script: str, args: Sequence[str], *, stdin: bool) -> list[str]:
        # No -w: the run script enters the working directory itself, so a missing one is an error that says so.
        interactive = ["-i"] if stdin else []
        return [self.binary, "exec", *interactive, self.container, "sh", "-c", script, "sh", *args]

    def tmux_argv(self, args: Sequence[str]) -> list[str]:
        return [self.binary, "exec", self.container, "tmux", *args]

    def attach_hint(self, label: str, session: str) -> str:
        return f"{self.engine} exec -it {self.container} tmux -L {label} attach -t {session}"

    async def open(self) -> None:
        if self._probed:
            return
        result = await self.script("true", [], timeout=30)
        if result.exit_code != 0:
            message = result.stderr.strip()[-400:] or f"exit status {result.exit_code}"
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            f"cannot run commands in {self.where}: {message}; start it (docker start "
                            f"{self.container}) or check its name with docker ps")  # fmt: skip
        self._probed = True
