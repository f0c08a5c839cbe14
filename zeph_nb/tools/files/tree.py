"""The file tools that work on trees and names: find_path, list_directory, create/delete/move/copy, grep.

Every one acts through ``Sandbox.entry`` (a walk by directory descriptors) and then by ``dir_fd`` and name, so a link
swapped in by a command running at the same time cannot redirect it; see ``security/beneath.py``.
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from wcmatch import glob

# What wcmatch raises when braces expand past its limit (documented, but defined in its private module).
from wcmatch._wcparse import PATTERN_LIMIT, PatternLimitException

from zeph_nb.errors import SandboxViolation, ToolError, ToolErrorCategory
from zeph_nb.security.beneath import Entry, open_dir
from zeph_nb.security.paths import Sandbox, canonicalize
from zeph_nb.tools.base import ToolOutput
from zeph_nb.tools.files import args as A
from zeph_nb.tools.files import grep as grep_engines
from zeph_nb.tools.files.ops import (
    check_opened,
    copy_file_at,
    copy_tree_at,
    lines_at,
    open_exactly,
    open_regular,
    staging_dir_at,
    walk_tree_at,
)

__all__ = ["TreeTools"]

MAX_LISTING = 1000
MAX_GREP_MATCHES = 500


def _invalid(message: str) -> ToolError:
    return ToolError(ToolErrorCategory.INVALID_PARAMETERS, message)


class TreeTools:
    """The tree half of ``FileExecutor`` (which sets ``sandbox`` and ``grep_engine``)."""

    sandbox: Sandbox
    grep_engine: str

    def _find_path(self, args: A.FindPathArgs) -> ToolOutput:
        if "\x00" in args.pattern:
            raise _invalid("pattern contains a NUL byte; remove it")
        base = self.sandbox.workdir if args.path is None else self.sandbox.resolve(args.path)
        if not base.is_dir():
            raise _invalid(f"path {args.path!r} is not a folder; give the folder to search from, or leave it out")
        found: list[str] = []
        more = False
        flags = glob.GLOBSTAR | glob.BRACE
        try:
            matches = iter(glob.iglob(args.pattern, root_dir=os.fspath(base), flags=flags))
            first = next(matches, None)  # the braces are expanded here, before any file is looked at
        except PatternLimitException:
            raise _invalid(
                f"the pattern's braces expand to more than {PATTERN_LIMIT:,} patterns; use fewer {{a,b}} groups "
                "(a * or ** covers many names at once)"
            ) from None
        for match in itertools.chain([] if first is None else [first], matches):
            location = self._still_inside(base / match)
            if location is None:
                continue  # `../*`, a path through a link that leaves the sandbox, or gone: not ours to list
            hidden = self.sandbox.protected.hidden_by(location)
            if hidden is not None and hidden != location:
                continue  # what is inside ~/.ssh or the zeph home is nobody's business
            if self.sandbox.deny_read and hidden is None and not self.sandbox.readable(location):
                continue  # names under deny_read are as private as their content
            if len(found) >= MAX_LISTING:
                more = True
                break
            # A trailing slash marks real directories only; a link to one is listed as the link it is.
            mark = "/" if location.is_dir() and not location.is_symlink() else ""
            found.append(self.sandbox.display(location) + mark)
        found.sort()
        if not found:
            return ToolOutput("find_path", f"No paths match {args.pattern!r}", raw={"matches": []})
        summary = "\n".join(found)
        if more:
            summary += f"\n[first {MAX_LISTING} matches shown; narrow the pattern]"
        return ToolOutput("find_path", summary, raw={"matches": found}, truncated=more)

    def _still_inside(self, path: Path) -> Path | None:
        """Where ``path`` is, when it exists inside the sandbox now. The glob walked by path, so a directory
        swapped for a link meanwhile could have shown it names from outside: a name is listed only when a walk that
        holds each directory open finds it inside."""
        try:
            with self.sandbox.entry(path, follow_final=False) as entry:
                return entry.path if entry.exists() else None
        except (ToolError, OSError):
            return None

    def _list_directory(self, args: A.ListDirectoryArgs) -> ToolOutput:
        with self.sandbox.entry(args.path) as entry:
            self.sandbox.check_readable(entry.path, args.path)
            shown = self.sandbox.display(entry.path)
            if not entry.is_dir():
                if not entry.exists():
                    raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{shown} does not exist")
                raise _invalid(f"{shown} is not a directory; use read")
            entries: list[tuple[str, str]] = []
            fd = open_dir(entry)
            try:
                with os.scandir(fd) as scan:
                    entries = [(item.name, _kind(item)) for item in scan]
            finally:
                os.close(fd)
            # Names under deny_read are as private as what is in them (`private/**` hides private/x from listings).
            readable = [(name, kind) for name, kind in entries if self.sandbox.readable(entry.path / name)]
            denied = len(entries) - len(readable)
        entries = sorted(readable)
        more = len(entries) > MAX_LISTING
        lines = [f"[{kind}] {name}" for name, kind in entries[:MAX_LISTING]]
        summary = "\n".join(lines) if lines else f"{shown} is empty"
        if more:
            summary += f"\n[{MAX_LISTING} of {len(entries)} entries shown]"
        if denied:
            summary += f"\n[{denied} entries not shown: tools.file.deny_read]"
        return ToolOutput(
            "list_directory",
            summary,
            raw={"path": shown, "entries": [{"name": n, "kind": k} for n, k in entries[:MAX_LISTING]]},
            truncated=more,
        )

    def _create_directory(self, args: A.CreateDirectoryArgs) -> ToolOutput:
        with self.sandbox.entry(args.path, create_parents=True) as entry:
            self.sandbox.check_writable(entry.path, args.path)
            shown = self.sandbox.display(entry.path)
            if entry.is_dir():
                return ToolOutput("create_directory", f"{shown} already exists", raw={"path": shown, "created": False})
            if entry.exists():
                raise _invalid(f"{shown} exists and is not a directory")
            os.mkdir(entry.name, dir_fd=entry.dir_fd)
        return ToolOutput("create_directory", f"Created directory {shown}", raw={"path": shown, "created": True})

    def _delete_path(self, args: A.DeletePathArgs) -> ToolOutput:
        with self.sandbox.entry(args.path, follow_final=False) as entry:
            self.sandbox.check_writable(entry.path, args.path)
            shown = self.sandbox.display(entry.path)
            self._refuse_root(entry.path, "delete")
            st = entry.lstat()
            if st is None:
                raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{shown} does not exist")
            if stat.S_ISLNK(st.st_mode):
                target = canonicalize(entry.path, self.sandbox.workdir)
                if self.sandbox.is_root_or_above(target):
                    raise SandboxViolation(f"refusing to delete {shown}: it links to the sandbox root or above it")
                os.unlink(entry.name, dir_fd=entry.dir_fd)
                kind = "link"
            elif stat.S_ISDIR(st.st_mode):
                # rmtree by dir_fd opens each level with O_NOFOLLOW: links inside the tree are removed, never followed.
                shutil.rmtree(entry.name, dir_fd=entry.dir_fd)
                kind = "directory"
            else:
                os.unlink(entry.name, dir_fd=entry.dir_fd)
                kind = "file"
        return ToolOutput("delete_path", f"Deleted {kind} {shown}", raw={"path": shown, "kind": kind})

    def _move_path(self, args: A.MovePathArgs) -> ToolOutput:
        with (
            self.sandbox.entry(args.source, follow_final=False) as source,
            self.sandbox.entry(args.destination, follow_final=False, create_parents=True) as destination,
        ):
            self.sandbox.check_writable(source.path, args.source)
            self.sandbox.check_writable(destination.path, args.destination)
            self._refuse_root(source.path, "move")
            self._check_transfer(source, destination, args.source)
            # A rename could carry a file out from under a deny_read rule, so moving counts as reading.
            self._check_tree_readable(source, args.source)
            try:
                os.rename(source.name, destination.name, src_dir_fd=source.dir_fd, dst_dir_fd=destination.dir_fd)
            except OSError as e:
                if e.errno != errno.EXDEV:
                    raise
                # Two roots on different filesystems: no rename can cross; copy-and-delete by path is the only way.
                shutil.move(os.fspath(source.path), os.fspath(destination.path))
            src, dst = self.sandbox.display(source.path), self.sandbox.display(destination.path)
        return ToolOutput("move_path", f"Moved {src} to {dst}", raw={"source": src, "destination": dst})

    def _copy_path(self, args: A.CopyPathArgs) -> ToolOutput:
        with (
            self.sandbox.entry(args.source) as source,
            self.sandbox.entry(args.destination, follow_final=False, create_parents=True) as destination,
        ):
            self.sandbox.check_writable(destination.path, args.destination)
            self._check_transfer(source, destination, args.source)
            self._check_tree_readable(source, args.source)
            src, dst = self.sandbox.display(source.path), self.sandbox.display(destination.path)
            if not source.is_dir():
                with open_regular(source, src) as handle:
                    copy_file_at(handle, destination)
                return ToolOutput("copy_path", f"Copied {src} to {dst}", raw={"source": src, "destination": dst})
            counts = {"files": 0, "dirs": 0, "links": 0}
            skipped: list[tuple[Path, str]] = []
            staging = staging_dir_at(destination)
            try:
                source_fd, target_fd = (
                    open_dir(source),
                    os.open(staging, os.O_RDONLY | os.O_DIRECTORY, dir_fd=destination.dir_fd),
                )
                try:
                    copy_tree_at(
                        source_fd, target_fd, source.path, destination.path, counts, skipped, self._link_stays_inside
                    )
                    os.fchmod(target_fd, stat.S_IMODE(os.fstat(source_fd).st_mode))
                finally:
                    os.close(source_fd)
                    os.close(target_fd)
                os.rename(staging, destination.name, src_dir_fd=destination.dir_fd, dst_dir_fd=destination.dir_fd)
            except BaseException:
                shutil.rmtree(staging, dir_fd=destination.dir_fd, ignore_errors=True)
                raise
        summary = f"Copied {src} to {dst} ({counts['files']} files, {counts['dirs']} directories)"
        notes = [f"{self.sandbox.display(path)} ({why})" for path, why in skipped]
        if notes:
            summary += f"; skipped {len(notes)} entries: " + ", ".join(notes[:10])
        return ToolOutput("copy_path", summary, raw={"source": src, "destination": dst, **counts, "skipped": notes})

    def _grep(self, args: A.GrepArgs) -> ToolOutput:
        root = self.sandbox.resolve(args.path if args.path is not None else ".")
        self.sandbox.check_readable(root, args.path)
        if not root.exists():
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{self.sandbox.display(root)} does not exist")
        lines: list[str] = []
        matches: list[dict[str, Any]] = []
        more = False
        hits = grep_engines.search(
            args.pattern,
            root,
            case_sensitive=args.case_sensitive,
            max_results=MAX_GREP_MATCHES + 1,
            engine=self.grep_engine,
        )
        for shown, hit in self._confirmed(hits):
            if len(lines) >= MAX_GREP_MATCHES:
                more = True
                break
            lines.append(f"{shown}:{hit.line}: {hit.text}")
            matches.append({"path": shown, "line": hit.line, "text": hit.text})
        if not lines:
            return ToolOutput("grep", f"No matches for {args.pattern!r}", raw={"matches": []})
        summary = "\n".join(lines)
        if more:
            summary += f"\n[first {MAX_GREP_MATCHES} matches shown; narrow the pattern or the path]"
        return ToolOutput("grep", summary, raw={"matches": matches}, truncated=more)

    # -- helpers ---------------------------------------------------------------------------------------------

    def _shown(self, canonical: str) -> str:
        """``Sandbox.display`` of a canonical absolute path held as text (the kernel's own name for a file it
        opened: no '.', '..', '//' or trailing '/'), compared as text rather than made a Path and taken apart."""
        work = os.fspath(self.sandbox.workdir)
        if canonical == work:
            return "."
        inside = work if work.endswith("/") else work + "/"
        return canonical[len(inside) :] if canonical.startswith(inside) else canonical

    def _confirmed(self, hits: Iterable[grep_engines.GrepMatch]) -> Iterator[tuple[str, grep_engines.GrepMatch]]:
        """The hits whose line is really in a file we may read, checked by reading it again through the sandbox,
        each with its path as shown.

        The engines walk by path (ripgrep in another process), so a directory swapped for a link while they run
        could make them read outside the sandbox, or a deny_read file, under an innocent name; whether the name
        resolves inside *now* says nothing about what was read *then*. Reading the line again, through a walk
        that holds each directory open, and reporting it only when it is the same text does: the text shown is
        text of a file inside the sandbox. Both engines give a file's hits together (in path order), so the
        walk, the checks and the shown name are worked out once per file, not once per hit."""
        pending: list[grep_engines.GrepMatch] = []
        for hit in hits:
            if pending and hit.path != pending[0].path:
                yield from self._confirm_file(pending)
                pending = []
            pending.append(hit)
        yield from self._confirm_file(pending)

    def _confirm_file(self, hits: list[grep_engines.GrepMatch]) -> Iterator[tuple[str, grep_engines.GrepMatch]]:
        if not hits:
            return
        wanted = {hit.line for hit in hits}
        starts = {hit.line: hit.start for hit in hits if hit.start is not None}
        given = os.fspath(hits[0].path)
        try:
            quick = open_exactly(self.sandbox, given)
            if quick is not None:
                try:
                    found = lines_at(quick, wanted, starts)
                finally:
                    os.close(quick)
                shown = self._shown(given)  # the kernel's own name for the file: canonical text
            else:
                with self.sandbox.entry(given) as entry:
                    name = str(entry.path)  # for messages nobody reads: a refusal here only drops the file's hits
                    self.sandbox.check_readable(entry.path, name)
                    with open_regular(entry, name) as handle:
                        check_opened(self.sandbox, handle.fileno(), name)
                        found = lines_at(handle.fileno(), wanted, starts)
                shown = self.sandbox.display(Path(os.path.abspath(given)))
        except (ToolError, OSError):
            return  # outside, hidden, denied or gone: nothing from it is shown
        clip = grep_engines.clip
        for hit in hits:
            line = found.get(hit.line)
            if line is None:
                continue
            if not line.endswith(b"\r"):
                same = hit.text == clip(line.decode("utf-8", errors="replace"))
            else:  # the two engines trim a line's end a little differently (all of \r\n, or one \r)
                same = hit.text in (
                    clip(line.rstrip(b"\r").decode("utf-8", errors="replace")),
                    clip(line.decode("utf-8", errors="replace").removesuffix("\r")),
                )
            if same:
                yield shown, hit

    def _refuse_root(self, path: Path, verb: str) -> None:
        if self.sandbox.is_root_or_above(path):
            raise SandboxViolation(f"refusing to {verb} {path.as_posix()}: it is the sandbox root or above it")

    def _check_transfer(self, source: Entry, destination: Entry, given: str) -> None:
        if not source.exists():
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{given} does not exist")
        if destination.exists():
            raise _invalid(
                f"{self.sandbox.display(destination.path)} already exists; delete it first or choose another name"
            )
        if destination.path == source.path or source.path in destination.path.parents:
            raise _invalid("the destination is inside the source; choose a path outside it")

    def _check_tree_readable(self, source: Entry, given: str) -> None:
        if not self.sandbox.deny_read and not self.sandbox.protected.hidden:
            return
        self.sandbox.check_readable(source.path, given)
        if source.is_dir():
            # A refusal names what was asked for, not the entry inside: names under deny_read are private too.
            inside = f"something inside {given}"
            for path in walk_tree_at(source.dir_fd, source.name, source.path):
                self.sandbox.check_readable(path, inside)

    def _link_stays_inside(self, link: str, copy: Path) -> bool:
        """Whether a link copied to ``copy`` would land inside the sandbox (so copying it brings nothing in)."""
        would_be = canonicalize(copy, self.sandbox.workdir, follow_final=False)
        return self.sandbox.contains(canonicalize(Path(link) if os.path.isabs(link) else would_be.parent / link, "/"))


def _kind(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return "symlink"
    if entry.is_dir(follow_symlinks=False):
        return "dir"
    if entry.is_file(follow_symlinks=False):
        return "file"
    return "other"
