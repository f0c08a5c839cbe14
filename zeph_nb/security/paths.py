"""The path sandbox of the file tools.

Every path is canonicalized by walking it one component at a time from the filesystem root, expanding each
symbolic link as it is met (dangling ones too), before it is compared with the allowed roots. Lexical
normalization alone (``os.path.normpath``) would be wrong: ``link/..`` means the parent of the link's *target*.
``os.path.realpath`` alone would be wrong too: it stops expanding at the first missing component, so a write
through a dangling link, or ``missing/../../etc``, could land outside. Comparing ``Path`` objects rather than
strings means ``/work/sandbox-evil`` is not inside ``/work/sandbox``.
"""

from __future__ import annotations

import errno
import os
import posixpath
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from wcmatch import glob

from zeph_nb.errors import SandboxViolation, ToolError, ToolErrorCategory
from zeph_nb.security.beneath import Entry, walk
from zeph_nb.security.protected import ProtectedPaths

__all__ = ["Sandbox", "canonical_text", "canonicalize", "resolve_sandboxed"]

# Linux gives up after 40 links in one lookup (ELOOP); so do we, which also ends link cycles.
MAX_SYMLINK_HOPS = 40
# deny_read/allow_read globs ignore case, as the seeds describe them: **/*.pem also hides server.PEM.
_GLOB_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.NEGATE | glob.BRACE | glob.IGNORECASE


def _at_or_below(path: Path, top: Path) -> bool:
    """``path == top or top in path.parents``, compared part by part: ``parents`` builds and compares a Path per
    ancestor, which made each check grow with the square of the depth (creating a path 1,500 folders deep, which
    checks every folder it makes, took 7 s of them)."""
    parts = top.parts
    if not parts:  # "." is above every relative path and no absolute one
        return not path.is_absolute()
    return path.parts[: len(parts)] == parts


def _check_text(path: str) -> None:
    if not isinstance(path, str):
        raise ToolError(ToolErrorCategory.TYPE_MISMATCH, f"path must be a string, got {type(path).__name__}")
    if "\x00" in path:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, "path contains a NUL byte; remove it")
    if not path.strip():
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, "path is empty; give a file or directory name")


def canonicalize(path: str | os.PathLike[str], base: str | os.PathLike[str], *, follow_final: bool = True) -> Path:
    """The absolute path ``path`` names, every symlink expanded; it need not exist.

    Relative paths start at ``base``, which should itself be canonical. With ``follow_final=False`` a link in the
    last position is kept as it is (the link itself is what ``delete_path`` or ``move_path`` acts on).
    """
    return Path(canonical_text(path, base, follow_final=follow_final))


def canonical_text(path: str | os.PathLike[str], base: str | os.PathLike[str], *, follow_final: bool = True) -> str:
    """``canonicalize`` as text: what the policy matches, with no ``Path`` made and taken apart again."""
    text = os.fspath(path)
    _check_text(text)
    start = text if posixpath.isabs(text) else posixpath.join(os.fspath(base), text)
    # "." and repeated slashes go, but "..", which must wait until links are expanded, stays.
    # A relative start (a relative ``base``, which callers never pass) loses its first name, as it always did.
    pending = _reversed_parts(start) if start[:1] == "/" else list(reversed(PurePosixPath(start).parts[1:]))
    current = "/"
    hops = 0
    while pending:
        part = pending.pop()
        if part == "..":
            # `current` is canonical, so its lexical parent is its real parent.
            current = posixpath.dirname(current)
            continue
        candidate = posixpath.join(current, part)
        is_final = not pending
        if (follow_final or not is_final) and posixpath.islink(candidate):
            hops += 1
            if hops > MAX_SYMLINK_HOPS:
                raise ToolError(
                    ToolErrorCategory.INVALID_PARAMETERS,
                    f"too many levels of symbolic links in {text!r} (a link cycle?)",
                )
            try:
                target = os.readlink(candidate)
            except OSError:
                # Swapped out since islink(); treat what is there now as a plain name.
                current = candidate
                continue
            if posixpath.isabs(target):
                current = "/"
            pending.extend(_reversed_parts(target))
            continue
        current = candidate
    return current


def _reversed_parts(text: str) -> list[str]:
    """The names in ``text`` after its root, if any, last first: ``PurePosixPath(text).parts`` without the root,
    split as text (two Path objects a path were a sixth of a small read's policy check)."""
    return [part for part in reversed(text.split("/")) if part and part != "."]


class Sandbox:
    """Allowed roots plus read rules; answers "where does this path really point, and may I touch it?"."""

    def __init__(
        self,
        roots: Sequence[str | os.PathLike[str]],
        *,
        workdir: str | os.PathLike[str] | None = None,
        deny_read: Iterable[str] = (),
        allow_read: Iterable[str] = (),
        protected: ProtectedPaths | None = None,
    ) -> None:
        if not roots:
            raise ValueError("a sandbox needs at least one root")
        cwd = os.getcwd()
        self.roots: tuple[Path, ...] = tuple(canonicalize(os.fspath(root), cwd) for root in roots)
        work = canonicalize(os.fspath(workdir), cwd) if workdir is not None else self.roots[0]
        # Relative paths are read from the working directory when it is inside the sandbox, else the first root.
        self.workdir = work if self.contains(work) else self.roots[0]
        self.deny_read = tuple(deny_read)
        self.allow_read = tuple(allow_read)
        self.protected = protected or ProtectedPaths()

    def contains(self, path: Path) -> bool:
        return any(_at_or_below(path, root) for root in self.roots)

    def is_root_or_above(self, path: Path) -> bool:
        """True for a root itself or any of its ancestors: never delete or move these."""
        return any(_at_or_below(root, path) for root in self.roots)

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """Canonical path with every link followed; SandboxViolation (PolicyBlocked) when it leaves the roots."""
        canonical = canonicalize(path, self.workdir)
        self._require_inside(canonical, path)
        return canonical

    def locate(self, path: str | os.PathLike[str]) -> Path:
        """Canonical path of the entry itself: parents resolved, a final link left unfollowed."""
        canonical = canonicalize(path, self.workdir, follow_final=False)
        self._require_inside(canonical, path)
        return canonical

    @contextmanager
    def entry(
        self, path: str | os.PathLike[str], *, follow_final: bool = True, create_parents: bool = False
    ) -> Iterator[Entry]:
        """The entry ``path`` names, walked with directory descriptors (``beneath.walk``) and checked to be inside
        the roots: the tools act on ``entry.name`` in ``entry.dir_fd``, the very directory whose path was checked.

        The path is canonicalized first, so a path that leaves the roots is refused before anything is created;
        ``create_parents`` then makes missing directories on the way, each checked to be inside and writable.
        """
        (self.resolve if follow_final else self.locate)(path)
        if create_parents:
            # A name the file system cannot hold fails after the folders before it were made: refuse it first, so a
            # failed write leaves nothing behind. 255 bytes is NAME_MAX on Linux's file systems (and macOS's).
            for part in Path(path).parts:
                if len(os.fsencode(part)) > 255:
                    raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), os.fspath(path))

        def may_create(directory: Path) -> None:
            self._require_inside(directory, path)
            self.check_writable(directory, path)

        with walk(
            path, self.workdir, follow_final=follow_final, make_parents=may_create if create_parents else None
        ) as found:
            self._require_inside(found.path, path)
            yield found

    def check_readable(self, path: Path, shown: str | os.PathLike[str] | None = None) -> None:
        """Refuse protected paths, then what ``deny_read`` matches, then — when ``allow_read`` is set — what it does
        not match (seed 003: an allowlist applied after the deny check, so a path in both is denied)."""
        name = os.fspath(shown) if shown is not None else self.display(path)
        self.protected.check_read(path, name)
        if self.deny_read and self._matches(path, self.deny_read):
            raise SandboxViolation(f"reading {name!r} is denied by tools.file.deny_read")
        if self.allow_read and not self._matches(path, self.allow_read):
            raise SandboxViolation(f"reading {name!r} is not allowed: it matches no tools.file.allow_read pattern")

    def check_writable(self, path: Path, shown: str | os.PathLike[str] | None = None) -> None:
        """Refuse a write, creation, move or deletion of a protected path (zeph's config and state, dot-files)."""
        self.protected.check_write(path, os.fspath(shown) if shown is not None else self.display(path))

    def readable(self, path: Path) -> bool:
        try:
            self.check_readable(path, "")  # a name only a refusal's message uses: not worked out for nothing
        except SandboxViolation:
            return False
        return True

    def may_read(self, canonical: str) -> bool:
        """``contains(Path(canonical)) and readable(Path(canonical))`` for a canonical absolute path held as text (the
        kernel's own name for a file it opened: no '.', '..', '//' or trailing '/'), worked out on the text. For such
        a text a Path's parts are its names between slashes, so a root's parts lead the path's exactly when the text
        is the root's or starts with it and a slash; the hidden paths are looked up as text already (``hidden_by``).
        ``open_exactly`` asks this for every file grep shows, where making the Path and taking it apart cost more
        than the file's system calls. The deny_read/allow_read globs see the Path forms, as always."""
        for root in self.roots:
            top = str(root)
            if canonical == top or canonical.startswith(top if top.endswith("/") else top + "/"):
                break
        else:
            return False
        if self.deny_read or self.allow_read:
            return self.readable(Path(canonical))
        return self.protected.hidden_by(canonical) is None

    def display(self, path: Path) -> str:
        """How a path is shown to the model: relative to the working directory when it is inside it."""
        if path == self.workdir:
            return "."
        # Parts compared and joined, not `workdir in path.parents` and relative_to(): those build a Path per
        # ancestor, 15 us a call, and grep shows a name per matching file.
        if _at_or_below(path, self.workdir):
            return "/".join(path.parts[len(self.workdir.parts) :])
        return path.as_posix()

    def _require_inside(self, canonical: Path, given: str | os.PathLike[str]) -> None:
        if not self.contains(canonical):
            roots = ", ".join(root.as_posix() for root in self.roots)
            raise SandboxViolation(
                f"{os.fspath(given)!r} resolves to {canonical.as_posix()}, outside the allowed paths ({roots})"
            )

    def _matches(self, path: Path, patterns: Sequence[str]) -> bool:
        # Absolute patterns see the absolute path; relative ones also see the path relative to each root,
        # so `secrets/**` means the sandbox's secrets folder and `**/.env` any .env anywhere.
        names = [path.as_posix()]
        names += [path.relative_to(root).as_posix() for root in self.roots if root in path.parents]
        return any(glob.globmatch(name, pattern, flags=_GLOB_FLAGS) for name in names for pattern in patterns)


def resolve_sandboxed(
    path: str | os.PathLike[str],
    roots: Sequence[str | os.PathLike[str]],
    *,
    base: str | os.PathLike[str] | None = None,
) -> Path:
    """Canonical form of ``path`` (relative paths start at ``base``, default the first root).

    Raises ``SandboxViolation`` when the path, after every symlink is expanded, is outside every root.
    """
    return Sandbox(roots, workdir=base).resolve(path)
