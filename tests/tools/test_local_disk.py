"""Where a read runs: a small file on a local file system on the event loop's thread, anything else in a worker
thread (a file system that may wait on another machine must never freeze the kernel). The mount table behind the
choice follows mounts and unmounts, also when a device number is used again."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.paths import Sandbox
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.files.executor import FileExecutor
from zeph_nb.tools.files.local_disk import _local_devices, on_local_disk

MOUNTINFO = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
30 27 0:40 / /tmp rw,nosuid - tmpfs tmpfs rw,size=1024k
31 27 0:41 / /home/me/remote\\040dir rw,relatime shared:12 - fuse.sshfs me@host:/ rw,user_id=0
32 27 0:42 /export /mnt/nfs rw,relatime master:3 - nfs4 server:/export rw,vers=4.2
33 27 254:0 /srv /srv rw,relatime - ext4 /dev/vda rw
34 27 0:43 / /var/lib/docker/overlay rw - overlay overlay rw,lowerdir=/a,upperdir=/b
35 27 0:44 / /weird rw - ext4 /dev/x rw
36 27 0:44 / /weird2 rw - nfs server:/y rw
"""


def test_the_local_devices_of_a_mount_table() -> None:
    # ext4 (bound twice) and tmpfs are local; sshfs, NFS, overlay and a device also mounted as NFS are not.
    assert _local_devices(MOUNTINFO) == {(254, 0), (0, 40)}


def test_files_here_and_in_proc() -> None:
    assert on_local_disk(os.stat("/proc/self/status").st_dev) is False  # proc is no disk: not known to be quick
    assert on_local_disk(os.makedev(0, 999_999)) is False  # a device no mount has


UNSHARE = shutil.which("unshare")
REMOUNT = """
import os, subprocess, sys
from zeph_nb.tools.files.local_disk import on_local_disk
folder = sys.argv[1]
subprocess.run(["mount", "-t", "tmpfs", "zeph-test", folder], check=True)
first = os.stat(folder).st_dev
local_first = on_local_disk(first)
subprocess.run(["umount", folder], check=True)
subprocess.run(["mount", "-t", "proc", "zeph-test", folder], check=True)
second = os.stat(folder).st_dev
print(first == second, local_first, on_local_disk(second))
"""


@pytest.mark.skipif(UNSHARE is None, reason="needs unshare(1)")
def test_the_table_follows_an_unmount_and_a_mount_on_the_same_device_number(tmp_path: Path) -> None:
    # Anonymous device numbers are used again: a tmpfs's (local) number can be a proc's (not local) a moment
    # later. A table read once would still say local; the kernel's POLLPRI on the mount table says it changed.
    assert UNSHARE is not None
    folder = tmp_path / "mount"
    folder.mkdir()
    done = subprocess.run([UNSHARE, "-m", sys.executable, "-c", REMOUNT, str(folder)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    if done.returncode != 0 and ("Operation not permitted" in done.stderr or "mount" in done.stderr):
        pytest.skip(f"cannot mount in a namespace here: {done.stderr.strip()[-200:]}")
    assert done.returncode == 0, done.stderr
    reused, local_first, local_second = done.stdout.split()
    assert (local_first, local_second) == ("True", "False"), f"same device number again: {reused}"


# -- which thread reads ------------------------------------------------------------------------------------------


def _reader_thread(files: FileExecutor, path: str) -> str:
    """The name of the thread ``read`` of ``path`` ran on, and that it gave what ``run`` gives."""
    ran_on: list[str] = []
    original = files._run

    def watched(call: ToolCall) -> object:
        ran_on.append(threading.current_thread().name)
        return original(call)

    files._run = watched  # type: ignore[method-assign]
    try:
        out = asyncio.run(files.execute(ToolCall("read", {"path": path})))
    finally:
        del files._run
    assert out is not None and out.summary == files.run("read", path=path).summary
    return ran_on[0]


def test_a_small_local_file_is_read_on_the_loop_thread_and_others_in_a_worker(
    files: FileExecutor, tree: dict[str, Path]
) -> None:
    work = tree["work"]
    (work / "small.txt").write_text("hello\n" * 100)
    (work / "large.txt").write_text(("x" * 99 + "\n") * 1000)
    main = threading.current_thread().name
    local = on_local_disk(os.stat(work).st_dev)
    assert (_reader_thread(files, "small.txt") == main) is local
    assert _reader_thread(files, "large.txt") != main  # over 64 KiB: a read long enough to be worth the hop
    os.mkfifo(work / "pipe")
    assert not files._quick_to_read("pipe")  # not a regular file
    assert not files._quick_to_read("missing.txt")
    assert not files._quick_to_read("src")  # a folder
    assert not files._quick_to_read("/proc/self/status")  # a file system that is not a disk
    os.symlink("/proc/self/status", work / "status")
    assert not files._quick_to_read("status")  # where a link leads decides, as the read follows it
    assert not files._quick_to_read(7)  # not a path: the thread's run refuses it


def test_a_refusal_on_the_loop_thread_is_the_same_refusal(files: FileExecutor, tree: dict[str, Path]) -> None:
    work = tree["work"]
    (work / "blob.bin").write_bytes(b"\x7fELF\x00\x01\x02")
    with pytest.raises(ToolError) as info:
        asyncio.run(files.execute(ToolCall("read", {"path": "blob.bin"})))
    assert info.value.category is ToolErrorCategory.PERMANENT_FAILURE and "binary file" in info.value.message
    os.symlink(tree["outside"] / "secret.txt", work / "out.txt")  # a small file on the same disk, outside
    with pytest.raises(ToolError) as info:
        asyncio.run(files.execute(ToolCall("read", {"path": "out.txt"})))
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED


FORKED = """
import os, sys, threading
from zeph_nb.tools.files.local_disk import _TABLE, on_local_disk
here = os.stat(sys.argv[1]).st_dev
before = on_local_disk(here)
parent_fd = _TABLE._fd
_TABLE._lock.acquire()  # as if another thread were asking at the moment of the fork
pid = os.fork()
if pid == 0:
    os._exit(0 if on_local_disk(here) == before else 3)  # with the lock held it would wait forever
_TABLE._lock.release()
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), _TABLE._fd == parent_fd, on_local_disk(here) == before)
"""


def test_a_forked_child_keeps_a_table_of_its_own(tmp_path: Path) -> None:
    # The child starts afresh (its own lock, its own descriptor of the mount table); the parent's is untouched.
    done = subprocess.run([sys.executable, "-c", FORKED, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True", "True"]


@pytest.mark.parametrize("workdir", ["/", "/srv", "/srv/work", "/srv/work-evil"])
@pytest.mark.parametrize("path", ["/", "/srv", "/srv/work", "/srv/work/a.txt", "/srv/work/d/e.txt", "/srv/work-evil/x",
                                  "/srvwork/x", "/etc/passwd"])  # fmt: skip
def test_a_name_the_kernel_gave_is_shown_as_the_sandbox_shows_it(workdir: str, path: str) -> None:
    # A read the kernel confirmed (open_exactly) is named from its text; a prefix sibling is not inside.
    files = FileExecutor.__new__(FileExecutor)
    files.sandbox = Sandbox([workdir], workdir=workdir)
    assert files._shown(path) == files.sandbox.display(Path(path))
