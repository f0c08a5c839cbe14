"""The paths a command line names, measured against ``[tools.shell] allowed_paths``: the shell's path restriction.

The classifier says which words are paths and whether they are read or written (``PathUse``); this module
resolves them the way the command will (``~`` is the kernel's home, relative paths start at the working directory,
every link expanded) and sorts them:

* inside the working directory or an ``allowed_paths`` entry: fine;
* read from a system location a command needs in order to run (``/usr``, ``/bin``, ``/lib``, ``/etc/ssl``, the
  kernel's Python environment), or ``/tmp`` when the command runs in the sandbox (its /tmp is its own, but for
  the real folders the sandbox shows there: a home or an environment under /tmp is the machine's), or
  ``/dev/null`` and friends: fine;
* a protected path (credentials, zeph's state, config and dot-files for writes) or one ``[tools.file] deny_read``
  names: refused, like the file tools refuse it;
* anything else is *outside*: the call asks (the card names each path and whether it is read or written),
  "Always allow" grants its folder, and the OS sandbox opens that folder for the call. ``strict_paths = true``
  refuses instead.
"""

from __future__ import annotations

import glob as pyglob
import itertools
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wcmatch import glob

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError
from zeph_nb.security.os_sandbox import SandboxSpec, shown_from_tmp
from zeph_nb.security.paths import Sandbox, canonicalize
from zeph_nb.security.protected import ProtectedPaths, inside
from zeph_nb.shell import PathUse

__all__ = ["PATH_GRANT", "OutsidePath", "PathReport", "grant_patterns", "path_report", "system_read_roots"]

PATH_GRANT = "path:"  # the prefix of a bash grant that names a folder, not a command

_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ssl", "/etc/ca-certificates",
           "/etc/alternatives")  # fmt: skip
_DEVICES = frozenset({"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/stdout",
                      "/dev/stderr", "/dev/tty", "/dev/full"})  # fmt: skip
_GLOB_CHARS = "*?["
_VERBS = {"read": "reads", "write": "writes", "use": "uses"}


@dataclass(frozen=True)
class OutsidePath:
    """A path outside the allowed paths: where it resolves, how it is used, as written, and the folder an
    approval opens and "Always allow" grants (the folder itself, or the folder the file is in; None for a path
    whose value is not known, or one too broad to grant: the filesystem's root, your home)."""

    path: Path
    mode: str
    word: str
    folder: Path | None
    unknown: bool = False

    def describe(self) -> str:
        if self.mode == "more":
            return f"and {self.word} outside the allowed paths, not listed here"
        if self.unknown:
            return f"{_VERBS.get(self.mode, 'uses')} {self.word}, a path whose value is only known when it runs"
        shown = self.word if self.word == str(self.path) else f"{self.word} ({self.path})"
        return f"{_VERBS.get(self.mode, 'uses')} {shown}, outside the allowed paths"

    @property
    def grant(self) -> tuple[str, ...]:
        """The patterns "Always allow" keeps for it (each prefixed ``path:``, so no command rule matches them)."""
        if self.unknown:
            return ()
        if self.folder is None:
            return (PATH_GRANT + glob.escape(str(self.path)),)
        escaped = glob.escape(str(self.folder)).rstrip("/")
        return (PATH_GRANT + escaped, PATH_GRANT + escaped + "/**")


@dataclass(frozen=True)
class PathReport:
    outside: tuple[OutsidePath, ...] = ()
    refusal: tuple[str, str] | None = None  # (the setting, why)


def system_read_roots(settings: Settings) -> list[Path]:
    """Where commands read what they need to run: the system's programs and libraries, the Python environment."""
    roots = [Path(p) for p in _SYSTEM]
    for prefix in (settings.python_prefix, settings.conda_prefix, Path(os.path.realpath(sys.base_prefix))):
        if prefix is not None:
            roots.append(Path(os.path.realpath(prefix)))
    return roots


def _expand(word: str, home: Path) -> str:
    if word == "~" or word.startswith("~/"):
        return str(home) + word[1:]
    return os.path.expanduser(word) if word.startswith("~") else word


def _fixed_part(word: str) -> str:
    """``/etc/*.conf`` is read in ``/etc``: the path up to the first segment with a glob character."""
    if not any(ch in word for ch in _GLOB_CHARS):
        return word
    cut = min(word.index(ch) for ch in _GLOB_CHARS if ch in word)
    head = word[:cut]
    return head[: head.rfind("/") + 1] or "." if "/" in head else "."


def _folder(path: Path, broad: Sequence[Path]) -> Path | None:
    """The folder an approval of ``path`` opens: itself when it is a folder, else the folder it is in — when that
    exists and is not too broad to open or grant (/, /home, your home, a system folder)."""
    folder = path if path.is_dir() else path.parent
    if not folder.is_dir() or folder in broad:
        return None
    return folder


_BROAD = ("/", "/home", "/root", "/etc", "/usr", "/var", "/opt", "/srv", "/mnt", "/media", "/boot", "/proc", "/sys",
          "/dev", "/run", "/var/tmp", "/tmp")  # fmt: skip  # noqa: S108 - names, never written


def _candidates(word: str, bases: Sequence[Path]) -> list[str]:
    """The words a path argument stands for: a glob expanded on disk, from each folder the command may be in
    (the working directory, and where a cd in the line goes), as bash would; otherwise the word itself."""
    found: list[str] = []
    starts = bases if not os.path.isabs(word) else bases[:1]
    for base in starts:
        if any(ch in word for ch in _GLOB_CHARS):
            pattern = word if os.path.isabs(word) else os.path.join(base, word)
            # iglob is lazy: a model's /*/*/*/*/* stops at the cap instead of listing the filesystem first.
            matches = list(itertools.islice(pyglob.iglob(pattern), _MAX_MATCHES))
            found += matches or [os.path.join(base, _fixed_part(word))]
        else:
            found.append(word if os.path.isabs(word) else os.path.join(base, word))
    return list(dict.fromkeys(found))


_MAX_MATCHES = 200
_MAX_SHOWN = 20


def path_report(
    settings: Settings,
    workdir: str | os.PathLike[str],
    uses: Sequence[PathUse],
    protected: ProtectedPaths,
    *,
    private_tmp: bool = True,
    cd_dirs: Sequence[str] = (),
) -> PathReport:
    """Sort the path arguments of one command line (see the module's docstring). ``private_tmp``: the command
    runs in the sandbox, whose /tmp is its own; outside it, /tmp is the machine's and counts as outside.
    ``cd_dirs``: where a cd in the line goes, so a relative path is checked from there too."""
    if not uses:
        return PathReport()
    shell, files = settings.tools.shell, settings.tools.file
    work = canonicalize(os.fspath(workdir), "/")
    roots = [work, *(canonicalize(_expand(p, settings.user_home), work) for p in shell.allowed_paths)]
    readers = system_read_roots(settings)
    reader = Sandbox(roots, workdir=work, deny_read=files.deny_read, allow_read=files.allow_read, protected=protected)
    broad = [Path(p) for p in _BROAD] + [settings.user_home]
    bases = [work]
    for folder in cd_dirs:
        try:
            bases.append(canonicalize(_expand(folder, settings.user_home), work))
        except ToolError:
            continue
    # Of /tmp, the sandbox shows some real folders (the kernel's environment, the home, when they are there): a path
    # in one of those is the machine's, not the command's own.
    shown = (
        shown_from_tmp(SandboxSpec(work, tuple(roots), ProtectedPaths(home=settings.user_home))) if private_tmp else []
    )
    outside: list[OutsidePath] = []
    for use in uses:
        if use.unknown:
            unknown = OutsidePath(Path(use.word), use.mode, use.word, None, unknown=True)
            if unknown not in outside:
                outside.append(unknown)
            continue
        for candidate in _candidates(_expand(use.word, settings.user_home), bases):
            refusal = _sort(candidate, use, roots, readers, reader, protected, private_tmp, shown, broad, outside)
            if refusal is not None:
                return PathReport(refusal=refusal)
    if len(outside) > _MAX_SHOWN:  # a card of 200 lines hides more than it shows: the rest as one line, asked about
        more = len(outside) - _MAX_SHOWN
        outside = [*outside[:_MAX_SHOWN], OutsidePath(Path("…"), "more", f"{more} more paths", None, unknown=True)]
    if outside and shell.strict_paths:
        named = "; ".join(o.describe() for o in outside)
        why = (f"{named}. [tools.shell] strict_paths = true refuses paths outside the working directory; add the "
               "folder to [tools.shell] allowed_paths to let commands use it")  # fmt: skip
        return PathReport(refusal=("tools.shell.strict_paths", why))
    return PathReport(tuple(outside))


def _sort(
    candidate: str,
    use: PathUse,
    roots: Sequence[Path],
    readers: Sequence[Path],
    reader: Sandbox,
    protected: ProtectedPaths,
    private_tmp: bool,
    shown: Sequence[Path],
    broad: Sequence[Path],
    outside: list[OutsidePath],
) -> tuple[str, str] | None:
    """One resolved path: fine, a refusal (returned), or one more entry in ``outside``."""
    try:
        path = canonicalize(candidate, "/")
    except ToolError:
        return None  # a link cycle or an odd name: the command will fail on it as well
    if str(path) in _DEVICES or str(path).startswith("/dev/fd/"):
        return None
    wall = protected.hidden_by(path) or (protected.readonly_by(path) if use.mode == "write" else None)
    if wall is not None:
        verb = "changed" if use.mode == "write" and protected.hidden_by(path) is None else "read"
        why = f"{use.word} ({path}) may not be {verb} by any tool: {protected.reason(wall)}"
        return ("protected path", why)
    if use.mode != "write":
        try:
            reader.check_readable(path, use.word)
        except ToolError as e:
            return ("tools.file.deny_read", str(e))
    if any(inside(path, root) for root in roots):
        return None
    if use.mode != "write" and any(inside(path, shown) for shown in protected.readable):
        return None  # a skill's script in the zeph home: the sandbox shows it read-only, never opens it for writing
    if private_tmp and inside(path, Path("/tmp")) and not any(inside(path, real) for real in shown):  # noqa: S108
        return None
    if use.mode != "write" and any(inside(path, root) for root in readers):
        return None
    found = OutsidePath(path, use.mode, use.word, _folder(path, broad))
    if found not in outside:
        outside.append(found)
    return None


def grant_patterns(outside: Sequence[OutsidePath]) -> tuple[str, ...]:
    """What "Always allow" keeps for outside paths: each folder and everything under it, or the path alone when
    its folder is too broad to grant."""
    return tuple(dict.fromkeys(pattern for found in outside for pattern in found.grant))
