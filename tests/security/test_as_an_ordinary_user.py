"""The containment tests again, as an ordinary user: CI and containers run everything as root, and a person runs
Jupyter as themselves. As root the kernel skips checks an ordinary user meets (file permissions, RLIMIT_NPROC,
hard limits it cannot raise, user namespaces it needs for bubblewrap), so a green run as root alone says little.

When the tests run as root, this one runs the containment suite once more as Debian's ``nobody``/``nogroup``
(``setpriv``, no supplementary groups), with a fresh HOME and ZEPH_HOME of its own, from the repository root, with
this same interpreter. A repository or interpreter that user cannot reach (a pyenv Python under a ``/root`` of mode
700, as on this project's CI machine) is shown to it at the same path in a mount namespace of its own (a tmpfs over
the folder it cannot traverse, the needed folder bound back in); nothing else of that folder is shown.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUITE = (
    "tests/security/test_containment.py",
    "tests/security/test_sandbox_parts.py",
    "tests/security/test_project_environments.py",
)
UID = GID = 65534  # Debian's nobody and nogroup: a user that owns nothing here
RERUN_TIMEOUT = 900

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the OS sandbox and setpriv are Linux's"),
    pytest.mark.skipif(
        sys.platform == "linux" and os.geteuid() != 0,
        reason="the suite already runs as an ordinary user here (not root): nothing to run again",
    ),
]

# Prints each argument the user cannot read (a folder: cannot list or enter); nothing when all are reachable.
UNREACHABLE = 'for p; do [ -r "$p" ] && { [ ! -d "$p" ] || [ -x "$p" ]; } || printf "%s\\n" "$p"; done'
WHICH_PYTHON = "import sys; print(sys.version); print(sys.prefix); print(sys.base_prefix)"
MOVE_AWAY = """This test runs the containment suite as an ordinary user (uid {uid}), who cannot read:
{paths}
{why}
Clone the repository somewhere every user can read (not under /root or a home of mode 700, e.g. /srv/zeph-nb or
/tmp/zeph-nb) and build .venv there from a Python other users can read as well (rm -rf .venv && make test
PYTHON=/usr/bin/python3), then run the tests again."""


def _as_user(setpriv: str) -> list[str]:
    return [setpriv, f"--reuid={UID}", f"--regid={GID}", "--clear-groups", "--"]


def _unreachable(setpriv: str, paths: Sequence[str]) -> list[str]:
    # The test runs in the user's own process: whether it may read, not what root's mode bits suggest.
    run = subprocess.run([*_as_user(setpriv), "/bin/sh", "-c", UNREACHABLE, "sh", *paths],
                         capture_output=True, text=True, check=True, timeout=60)  # fmt: skip
    return run.stdout.splitlines()


def _needed(home: str, zeph_home: str) -> list[str]:
    """What the rerun reads: the repository, the interpreter and its libraries, the environment, the two homes."""
    paths = {
        str(REPO),
        str(REPO / SUITE[0].partition("::")[0]),
        sys.executable,
        os.path.realpath(sys.executable),
        home,
        zeph_home,
    }
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        paths.add(sysconfig.get_path(name))
    library = sysconfig.get_config_var("LDLIBRARY")
    folder = sysconfig.get_config_var("LIBDIR")
    if library and folder and os.path.exists(os.path.join(folder, library)):
        paths.add(os.path.join(folder, library))  # a shared libpython (pyenv's): else the loader takes another one
    return sorted(paths)


def _exposed(unreachable: Sequence[str]) -> list[str]:
    """The folders to show the user: for each path it cannot reach, the environment or tree it belongs to."""
    roots = [os.path.realpath(p) for p in (REPO, sys.prefix, sys.base_prefix)]
    shown = set()
    for path in unreachable:
        real = os.path.realpath(path)
        holder = [root for root in roots if real == root or real.startswith(root + os.sep)]
        shown.add(max(holder, key=len) if holder else real if os.path.isdir(real) else os.path.dirname(real))
    ordered = sorted(shown, key=len)
    return [p for i, p in enumerate(ordered) if not any(p.startswith(outer + os.sep) for outer in ordered[:i])]


def _blocker(setpriv: str, path: str) -> str | None:
    """The outermost folder on the way to ``path`` the user cannot enter; None when that is ``path`` itself or
    there is none (a file inside it is unreadable): a mount namespace cannot help then."""
    parts = Path(path).parts
    ancestors = [str(Path(*parts[: i + 1])) for i in range(1, len(parts))]
    unreachable = set(_unreachable(setpriv, ancestors))
    blocked = next((a for a in ancestors if a in unreachable), None)
    return None if blocked == path else blocked


def _namespace_script(setpriv: str, exposed: Sequence[str], blockers: Sequence[str], stages: Sequence[str]) -> str:
    """Run as root in a private mount namespace: bind each exposed folder aside, cover each blocking folder with a
    world-readable tmpfs, move the exposed folders back to their own paths, then become the user."""
    q = shlex.quote
    lines = ["set -eu"]
    lines += [f"mount --bind {q(folder)} {q(stage)}" for folder, stage in zip(exposed, stages, strict=True)]
    for blocker in sorted(set(blockers), key=len):
        lines += [f"mkdir -p {q(blocker)}", f"mount -t tmpfs -o mode=755 zeph-as-user {q(blocker)}"]
    for folder, stage in zip(exposed, stages, strict=True):
        lines += [f"mkdir -p {q(folder)}", f"mount --move {q(stage)} {q(folder)}"]
    lines.append(f'exec {" ".join(q(a) for a in _as_user(setpriv))} "$@"')
    return "\n".join(lines)


@pytest.fixture
def homes() -> Iterator[tuple[str, str]]:
    """A HOME and a ZEPH_HOME of the user's own, in the default temporary folder, removed afterwards."""
    made = [tempfile.mkdtemp(prefix="zeph-as-user-home-"), tempfile.mkdtemp(prefix="zeph-as-user-zeph-")]
    for folder in made:
        os.chown(folder, UID, GID)
    try:
        yield made[0], made[1]
    finally:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)


def _environment(home: str, zeph_home: str) -> dict[str, str]:
    """This run's environment less what belongs to root or to this pytest (its own ZEPH_HOME, the running test's
    name, a TMPDIR of root's), with the user's homes."""
    dropped = ("ZEPH_", "JUPYTER", "PYTEST_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped) and k not in ("TMPDIR", "MAIL")}
    env.update(HOME=home, ZEPH_HOME=zeph_home, USER="nobody", LOGNAME="nobody", PYTHONDONTWRITEBYTECODE="1")
    return env


def _run(argv: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    """``argv`` in a process group of its own, ended whole if it outlives ``timeout``."""
    process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return -1, f"{output.decode(errors='replace')}\n[killed after {timeout:.0f} s]"
    return process.returncode, output.decode(errors="replace")


def test_the_containment_suite_passes_as_an_ordinary_user(homes: tuple[str, str]) -> None:
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    assert os.path.exists(setpriv), "setpriv is missing: it is in util-linux (Debian: apt-get install util-linux)"
    env = _environment(*homes)
    unreachable = _unreachable(setpriv, _needed(*homes))
    head = _as_user(setpriv)
    stages: list[str] = []
    if unreachable:
        exposed = _exposed(unreachable)
        blockers = [_blocker(setpriv, folder) for folder in exposed]
        unfixable = [f for f, b in zip(exposed, blockers, strict=True) if b is None]
        unshare = shutil.which("unshare")
        assert unshare and not unfixable, MOVE_AWAY.format(
            uid=UID,
            paths="\n".join(f"  {p}" for p in unreachable),
            why=f"(nor can it be shown them: {', '.join(unfixable)})" if unfixable else "(and unshare is missing)",
        )
        stages = [tempfile.mkdtemp(prefix="zeph-as-user-stage-") for _ in exposed]
        script = _namespace_script(setpriv, exposed, [b for b in blockers if b], stages)
        head = [unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh"]
    try:
        # The same interpreter, not one that merely starts: a pyenv python whose libpython the user cannot read
        # runs with the system's libpython and standard library instead.
        code, seen = _run([*head, sys.executable, "-c", WHICH_PYTHON], env, 120)
        ours = "\n".join((sys.version, sys.prefix, sys.base_prefix))
        assert code == 0 and seen.strip() == ours, MOVE_AWAY.format(
            uid=UID,
            paths="\n".join(f"  {p}" for p in unreachable) or "  (nothing it was asked about)",
            why=f"As that user, {sys.executable} does not start as this interpreter:\n"
            f"{seen.strip()}\n(this one:\n{ours})",
        )
        started = time.monotonic()
        argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--tb=short", "-rfEs", *SUITE]
        code, output = _run([*head, *argv], env, RERUN_TIMEOUT)
        took = time.monotonic() - started
    finally:
        for stage in stages:
            os.rmdir(stage)
    assert code == 0, f"As uid {UID}, `{' '.join(argv[1:])}` failed ({took:.0f} s):\n" + (
        output if len(output) < 30000 else "…\n" + output[-30000:]
    )
