"""The folder of the kernel's own sockets: the tmux server's and the SSH master connections'.

Whoever reaches one of them runs commands outside every sandbox (tmux ``run-shell``; a new session over the SSH
master), so the folder is one only this user can enter, and every sandbox hides it (``tools/containment.py``
lists it with the credential folders). ``/run/user/<uid>`` is preferred (per user, a tmpfs); else ``/tmp``. When
``/tmp/zeph-nb-<uid>`` is not a private folder of this user — another local user made it first, or a link — a
fresh private folder with a random name is used instead: another account must not be able to stop zeph-nb by
creating a name.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["socket_folder", "socket_folders"]

log = logging.getLogger("zeph_nb.security")

_chosen: dict[int, Path] = {}  # per process and uid: a fork keeps the parent's


def _preferred() -> Path:
    runtime = Path(f"/run/user/{os.getuid()}")
    base = runtime if runtime.is_dir() and os.access(runtime, os.W_OK) else Path("/tmp")  # noqa: S108
    return base / f"zeph-nb-{os.getuid()}"


def _private(folder: Path) -> bool:
    try:
        st = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def socket_folder() -> Path:
    """This user's private socket folder, created when missing."""
    uid = os.getuid()
    chosen = _chosen.get(uid)
    if chosen is not None and _private(chosen):
        return chosen
    folder = _preferred()
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:  # a folder, or something else (a link, a dangling one): checked below
        pass
    except OSError as e:
        log.warning("zeph-nb: cannot create %s (%s); using a private folder of a random name", folder, e)
    if not _private(folder):
        if folder.exists() or folder.is_symlink():
            log.warning("zeph-nb: %s is not a private folder of this user; using a private folder of a random name",
                        folder)  # fmt: skip
        folder = Path(tempfile.mkdtemp(prefix=f"zeph-nb-{uid}-"))  # mode 0700, a name nobody can guess
    _chosen[uid] = folder
    return folder


def socket_folders() -> list[Path]:
    """Every folder this user's sockets may be in, for the sandbox to hide (the chosen one, and the usual name)."""
    return list(dict.fromkeys([socket_folder(), _preferred()]))
