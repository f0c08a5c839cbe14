"""Whether a file lives on a local file system: where a read cannot wait on another machine.

Why it matters: the file tools run in a worker thread so that a file system call that hangs (an NFS server gone,
an sshfs or other FUSE daemon stuck) leaves the kernel's event loop, its widgets and its Stop button alive. Handing
a call to a thread and back costs ~0.15 ms (two wake-ups across cores): three times the read of a small file
itself, most of what a small ``read`` costs beyond ``open().read()``. A small file on a local disk or in memory
is read on the loop's own thread, in microseconds, as the audit row's ``fdatasync`` is written there too.

Which file system a device number belongs to comes from ``/proc/self/mountinfo``, read once and again whenever the
mount table changes. The kernel says when it does: a descriptor of that file polls ``POLLPRI`` after any mount or
unmount in the process's namespace, so a table kept here cannot be older than the last poll (a device number an
unmount freed and a network mount took since is seen as the network mount's). Nothing here decides what may be
read: the same checks run on either thread. A wrong answer costs only where the read waits.
"""

from __future__ import annotations

import os
import select
import threading

__all__ = ["LOCAL_TYPES", "on_local_disk"]

# File systems whose data is on this machine: on a disk it has (a failing disk hangs everything alike) or in its
# memory. Not here, so read in a thread: nfs, cifs/smb3, fuse.* (sshfs, s3fs, rclone…), 9p, ceph, glusterfs,
# lustre, afs; overlay too, whose layers may be any of those; and anything unknown.
LOCAL_TYPES = frozenset(
    {"ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "bcachefs", "zfs", "jfs", "reiserfs", "nilfs2", "tmpfs",
     "ramfs", "vfat", "exfat", "msdos", "hfsplus"}
)  # fmt: skip

_MOUNTINFO = "/proc/self/mountinfo"


class _MountTable:
    """The devices of local file systems, as of the last change the kernel reported."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = -1  # a forked child opens its own descriptor: polling a shared one would take the parent's news
        self._fd = -1
        self._poll: select.poll | None = None
        self._local: frozenset[tuple[int, int]] = frozenset()

    def holds(self, device: int) -> bool:
        key = (os.major(device), os.minor(device))
        with self._lock:
            if self._pid != os.getpid() or self._changed():
                self._reload()
            return key in self._local

    def forked(self) -> None:
        """In a new child: a lock another thread held at the fork would never be released here, and the parent's
        descriptor is the parent's to poll (a poll takes the news of a change for every holder of it)."""
        self._lock = threading.Lock()
        if self._fd >= 0:
            os.close(self._fd)
        self._fd, self._poll, self._pid = -1, None, -1

    def _changed(self) -> bool:
        if self._poll is None:  # the table could not be read: tried again, and nothing is local meanwhile
            return True
        # Always readable (POLLIN); POLLPRI (with POLLERR) once after each change, and the poll clears it.
        return any(events & (select.POLLPRI | select.POLLERR) for _, events in self._poll.poll(0))

    def _reload(self) -> None:
        if self._fd >= 0 and self._pid == os.getpid():
            os.close(self._fd)
        self._fd, self._poll, self._local = -1, None, frozenset()
        self._pid = os.getpid()
        try:
            # Opened before it is read: a change after the open is reported at the next poll, so the table read
            # here is never taken for newer than it is.
            self._fd = os.open(_MOUNTINFO, os.O_RDONLY | os.O_CLOEXEC)
            chunks = []
            while chunk := os.read(self._fd, 65536):
                chunks.append(chunk)
        except OSError:  # no /proc (not Linux): nothing is known to be local, every read takes a thread
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
            return
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLPRI)
        self._local = _local_devices(b"".join(chunks).decode("utf-8", errors="replace"))


def _local_devices(mountinfo: str) -> frozenset[tuple[int, int]]:
    """The (major, minor) of the devices mounted with a local type only. A line: ``id parent major:minor root
    point options [optional fields] - type source super-options``; a space inside a name is written ``\\040``,
    so " - " is the separator."""
    kinds: dict[tuple[int, int], set[str]] = {}
    for line in mountinfo.splitlines():
        mount, _, rest = line.partition(" - ")
        fields, kind = mount.split(), rest.split()
        if len(fields) < 3 or not kind:
            continue
        major, _, minor = fields[2].partition(":")
        if major.isdigit() and minor.isdigit():
            kinds.setdefault((int(major), int(minor)), set()).add(kind[0])
    # A device mounted as two types (it would be odd) is local only if both are.
    return frozenset(device for device, types in kinds.items() if types <= LOCAL_TYPES)


_TABLE = _MountTable()
os.register_at_fork(after_in_child=_TABLE.forked)


def on_local_disk(device: int) -> bool:
    """Whether ``device`` (a ``st_dev``) is a mounted file system of a local type (``LOCAL_TYPES``) right now."""
    return _TABLE.holds(device)
