"""Run a command the way a container's default security profile would: new namespaces refused.

``python container_jail.py -- COMMAND …`` installs a seccomp filter like the one Docker, Podman and Kubernetes'
``RuntimeDefault`` apply to an unprivileged container (``unshare`` and a ``clone`` asking for any new namespace
fail with EPERM; ``clone3``, whose flags a filter cannot read, fails with ENOSYS so the C library falls back to
``clone``), then executes COMMAND. The filter is the kernel's own and survives ``execve``: everything COMMAND
starts — a Jupyter kernel, bubblewrap — runs under it, as it would in such a container. No privilege is needed
(``PR_SET_NO_NEW_PRIVS`` first, as the kernel requires of an unprivileged process).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys

# Per architecture: (AUDIT_ARCH_*, __NR_unshare, __NR_clone, __NR_clone3).
_SYSCALLS = {"x86_64": (0xC000003E, 272, 56, 435), "aarch64": (0xC00000B7, 97, 220, 435)}
# CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET
_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
_LD_W_ABS, _JEQ_K, _AND_K, _RET_K = 0x20, 0x15, 0x54, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


def _program() -> bytes:
    arch, unshare, clone, clone3 = _SYSCALLS[platform.machine()]
    # struct seccomp_data: int nr at 0, u32 arch at 4, u64 args[6] from 16 (args[0]'s low word: little-endian).
    instructions = [
        (_LD_W_ABS, 0, 0, 4),  # 0: A = arch
        (_JEQ_K, 0, 7, arch),  # 1: another ABI: allow (9)
        (_LD_W_ABS, 0, 0, 0),  # 2: A = syscall number
        (_JEQ_K, 6, 0, unshare),  # 3: unshare: EPERM (10)
        (_JEQ_K, 6, 0, clone3),  # 4: clone3: ENOSYS (11)
        (_JEQ_K, 0, 3, clone),  # 5: not clone: allow (9)
        (_LD_W_ABS, 0, 0, 16),  # 6: A = clone's flags
        (_AND_K, 0, 0, _NEW_NAMESPACES),  # 7
        (_JEQ_K, 0, 1, 0),  # 8: no new namespace: allow (9), else EPERM (10)
        (_RET_K, 0, 0, _ALLOW),  # 9
        (_RET_K, 0, 0, _ERRNO | errno.EPERM),  # 10
        (_RET_K, 0, 0, _ERRNO | errno.ENOSYS),  # 11
    ]
    return b"".join(struct.pack("HBBI", *instruction) for instruction in instructions)


def refuse_namespaces() -> None:
    """Install the filter on this process (and so on everything it executes from now on)."""
    libc = ctypes.CDLL(None, use_errno=True)
    code = _program()
    filters = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(len(code) // 8, ctypes.addressof(filters))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.exit("usage: container_jail.py -- COMMAND [ARG …]")
    refuse_namespaces()
    os.execvp(args[0], args)  # noqa: S606 - the command given, as `env` or `nice` run theirs
