"""FileExecutor: read, write, edit, find_path, list_directory, create/delete/move/copy and grep, in a sandbox.

Writes are atomic (a temporary sibling, fsync, rename), so a failure or a kill never leaves a half-written file;
copies of directories are built beside the destination and renamed into place for the same reason.
"""

from __future__ import annotations

import asyncio
import dataclasses
import difflib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from wcmatch import glob

from zeph_nb.config import Settings
from zeph_nb.errors import SandboxViolation, ToolError, ToolErrorCategory, classify_io_error
from zeph_nb.security.paths import Sandbox, canonicalize
from zeph_nb.tools import file_args as A
from zeph_nb.tools import grep as grep_engines
from zeph_nb.tools.base import ToolCall, ToolDef, ToolOutput, validate_params
from zeph_nb.tools.containment import protected_paths
from zeph_nb.tools.fsutil import atomic_write, make_dirs, staging_file

__all__ = ["FileExecutor"]

MAX_READ_BYTES = 8 * 1024 * 1024
MAX_LISTING = 1000
MAX_GREP_MATCHES = 500
MAX_DIFF_LINES = 60
_MUTATING = frozenset({"write", "edit", "create_directory", "delete_path", "move_path", "copy_path"})
_BY_NAME: dict[str, ToolDef] = {tool.name: tool for tool in A.FILE_TOOLS}


def _invalid(message: str) -> ToolError:
    return ToolError(ToolErrorCategory.INVALID_PARAMETERS, message)


class FileExecutor:
    """The file tools over one sandbox.

    ``allowed_paths`` from ``[tools.file]`` are the roots (relative ones are under ``workdir``); empty means the
    working directory alone. From Python: ``FileExecutor(workdir="proj").run("read", path="README.md")``.
    """

    def __init__(self, settings: Settings | None = None, *, workdir: str | os.PathLike[str] | None = None) -> None:
        settings = settings or Settings()
        file_settings = settings.tools.file
        work = Path(workdir) if workdir is not None else Path.cwd()
        roots = [work / path for path in file_settings.allowed_paths] or [work]
        self.sandbox = Sandbox(
            roots,
            workdir=work,
            deny_read=file_settings.deny_read,
            allow_read=file_settings.allow_read,
            protected=protected_paths(settings, work),
        )
        self.grep_engine = file_settings.grep_engine
        self._handlers: dict[str, Callable[[Any], ToolOutput]] = {
            "read": self._read,
            "write": self._write,
            "edit": self._edit,
            "find_path": self._find_path,
            "list_directory": self._list_directory,
            "create_directory": self._create_directory,
            "delete_path": self._delete_path,
            "move_path": self._move_path,
            "copy_path": self._copy_path,
            "grep": self._grep,
        }

    # -- the ToolExecutor protocol ------------------------------------------------------------------------------

    def tool_definitions(self) -> Sequence[ToolDef]:
        return A.FILE_TOOLS

    def requires_confirmation(self, call: ToolCall) -> bool:
        return call.tool_id in _MUTATING

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id not in _BY_NAME:
            return None
        # File system calls block; a thread keeps the kernel's event loop (and its widgets) responsive.
        return await asyncio.to_thread(self._run, call)

    def run(self, tool: str, /, **params: Any) -> ToolOutput:
        """Run one file tool synchronously; raises ToolError on failure."""
        if tool not in _BY_NAME:
            names = ", ".join(_BY_NAME)
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND, f"unknown file tool {tool!r}; available: {names}")
        return self._run(ToolCall(tool, params))

    def _run(self, call: ToolCall) -> ToolOutput:
        tool = _BY_NAME[call.tool_id]
        args = validate_params(tool, call.params)
        try:
            output = self._handlers[tool.name](args)
        except ToolError:
            raise
        except OSError as e:
            raise ToolError(classify_io_error(e), f"{tool.name}: {_describe_os_error(e, self.sandbox)}") from None
        except UnicodeError as e:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{tool.name}: not valid UTF-8 text ({e})") from None
        except RecursionError:
            # shutil.rmtree and copytree-like walks recurse once per level.
            raise ToolError(
                ToolErrorCategory.PERMANENT_FAILURE,
                f"{tool.name}: the directory tree is too deep to process; remove it with a shell command",
            ) from None
        return dataclasses.replace(output, call_id=call.call_id)

    # -- tools -----------------------------------------------------------------------------------------------

    def _read(self, args: A.ReadArgs) -> ToolOutput:
        path = self.sandbox.resolve(args.path)
        self.sandbox.check_readable(path, args.path)
        shown = self.sandbox.display(path)
        if path.is_dir():
            raise _invalid(f"{shown} is a directory; use list_directory")
        with open(path, "rb") as handle:
            self._check_opened(handle.fileno(), args.path)
            if b"\x00" in handle.read(8192):
                size = path.stat().st_size
                raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{shown} is a binary file ({size} bytes)")
            handle.seek(0)
            lines: list[str] = []
            total = taken_bytes = 0
            truncated = False
            long_lines: list[int] = []
            for raw, cut in _bounded_lines(handle, MAX_READ_BYTES):
                total += 1
                if cut:
                    long_lines.append(total)
                if total <= args.offset or (args.limit is not None and len(lines) >= args.limit):
                    continue
                if taken_bytes + len(raw) > MAX_READ_BYTES:
                    truncated = True
                    continue
                taken_bytes += len(raw)
                lines.append(raw.decode("utf-8", errors="replace"))
        content = "".join(lines)
        first, last = args.offset + 1, args.offset + len(lines)
        summary = content if content else ("(empty file)" if total == 0 else f"(no lines after line {args.offset})")
        partial = truncated or first > 1 or last < total
        if partial and lines:
            summary = content.rstrip("\n") + f"\n[lines {first}-{last} of {total}; use offset and limit to see more]"
        shown_long = [n for n in long_lines if first <= n <= last]
        if shown_long:
            which = ", ".join(map(str, shown_long[:5])) + (" …" if len(shown_long) > 5 else "")
            summary = summary.rstrip("\n") + (
                f"\n[line {which} is longer than {MAX_READ_BYTES} bytes: only its first {MAX_READ_BYTES} bytes are "
                "shown; use grep or a shell command to look further into it]"
            )
        return ToolOutput(
            "read",
            summary,
            raw={
                "path": shown,
                "content": content,
                "first_line": first,
                "last_line": last,
                "total_lines": total,
            },
            truncated=truncated,
        )

    def _write(self, args: A.WriteArgs) -> ToolOutput:
        path = self.sandbox.resolve(args.path)
        self.sandbox.check_writable(path, args.path)
        shown = self.sandbox.display(path)
        if path.is_dir():
            raise _invalid(f"{shown} is a directory; choose a file path")
        created = not path.exists()
        data = args.content.encode("utf-8")
        make_dirs(path.parent)
        atomic_write(path, data)
        verb = "Created" if created else "Overwrote"
        lines = args.content.count("\n") + (0 if args.content.endswith("\n") or not args.content else 1)
        return ToolOutput(
            "write",
            f"{verb} {shown} ({len(data)} bytes, {lines} lines)",
            raw={"path": shown, "bytes": len(data), "created": created},
        )

    def _edit(self, args: A.EditArgs) -> ToolOutput:
        path = self.sandbox.resolve(args.path)
        self.sandbox.check_readable(path, args.path)
        self.sandbox.check_writable(path, args.path)
        shown = self.sandbox.display(path)
        if path.is_dir():
            raise _invalid(f"{shown} is a directory; edit works on files")
        if args.old_string == args.new_string:
            raise _invalid("old_string and new_string are identical; there is nothing to change")
        # Bytes in, bytes out: line endings and everything not touched by the edit stay exactly as they were.
        with open(path, "rb") as handle:
            self._check_opened(handle.fileno(), args.path)
            text = handle.read().decode("utf-8")
        at = text.find(args.old_string)
        if at < 0:
            raise _invalid(
                f"old_string was not found in {shown}; read the file and copy the text exactly, whitespace included"
            )
        # Overlapping matches count: "aa" in "aaa" is ambiguous, so search again one character on.
        matches = _count_overlapping(text, args.old_string)
        if matches > 1:
            raise _invalid(
                f"old_string matches {matches} places in {shown}; include more surrounding lines so it matches once"
            )
        updated = text[:at] + args.new_string + text[at + len(args.old_string) :]
        atomic_write(path, updated.encode("utf-8"))
        first_line = text.count("\n", 0, at) + 1
        diff = list(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                updated.splitlines(keepends=True),
                f"a/{shown}",
                f"b/{shown}",
                n=2,
            )
        )
        shown_diff = "".join(diff[:MAX_DIFF_LINES]) + ("…\n" if len(diff) > MAX_DIFF_LINES else "")
        return ToolOutput(
            "edit",
            f"Edited {shown} at line {first_line}\n{shown_diff}".rstrip("\n"),
            raw={"path": shown, "line": first_line, "diff": "".join(diff)},
        )

    def _find_path(self, args: A.FindPathArgs) -> ToolOutput:
        if "\x00" in args.pattern:
            raise _invalid("pattern contains a NUL byte; remove it")
        base = self.sandbox.workdir
        found: list[str] = []
        more = False
        flags = glob.GLOBSTAR | glob.BRACE
        for match in glob.iglob(args.pattern, root_dir=os.fspath(base), flags=flags):
            try:
                location = self.sandbox.locate(base / match)
            except ToolError:
                continue  # `../*` or a path through a link that leaves the sandbox: not ours to list
            hidden = self.sandbox.protected.hidden_by(location)
            if hidden is not None and hidden != location:
                continue  # what is inside ~/.ssh or the zeph home is nobody's business
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

    def _list_directory(self, args: A.ListDirectoryArgs) -> ToolOutput:
        path = self.sandbox.resolve(args.path)
        self.sandbox.check_readable(path, args.path)
        shown = self.sandbox.display(path)
        if not path.is_dir():
            what = "does not exist" if not path.exists() else "is not a directory; use read"
            category = (
                ToolErrorCategory.PERMANENT_FAILURE if not path.exists() else ToolErrorCategory.INVALID_PARAMETERS
            )
            raise ToolError(category, f"{shown} {what}")
        entries: list[tuple[str, str]] = []
        with os.scandir(path) as scan:
            for entry in scan:
                entries.append((entry.name, _kind(entry)))
        entries.sort()
        more = len(entries) > MAX_LISTING
        lines = [f"[{kind}] {name}" for name, kind in entries[:MAX_LISTING]]
        summary = "\n".join(lines) if lines else f"{shown} is empty"
        if more:
            summary += f"\n[{MAX_LISTING} of {len(entries)} entries shown]"
        return ToolOutput(
            "list_directory",
            summary,
            raw={"path": shown, "entries": [{"name": n, "kind": k} for n, k in entries[:MAX_LISTING]]},
            truncated=more,
        )

    def _create_directory(self, args: A.CreateDirectoryArgs) -> ToolOutput:
        path = self.sandbox.resolve(args.path)
        self.sandbox.check_writable(path, args.path)
        shown = self.sandbox.display(path)
        if path.is_dir():
            return ToolOutput("create_directory", f"{shown} already exists", raw={"path": shown, "created": False})
        if path.exists():
            raise _invalid(f"{shown} exists and is not a directory")
        make_dirs(path)
        return ToolOutput("create_directory", f"Created directory {shown}", raw={"path": shown, "created": True})

    def _delete_path(self, args: A.DeletePathArgs) -> ToolOutput:
        path = self.sandbox.locate(args.path)
        self.sandbox.check_writable(path, args.path)
        shown = self.sandbox.display(path)
        self._refuse_root(path, "delete")
        if path.is_symlink():
            target = canonicalize(path, self.sandbox.workdir)
            if self.sandbox.is_root_or_above(target):
                raise SandboxViolation(f"refusing to delete {shown}: it links to the sandbox root or above it")
            path.unlink()
            kind = "link"
        elif path.is_dir():
            # rmtree never follows links inside the tree (and on Linux resists link swaps while it runs).
            shutil.rmtree(path)
            kind = "directory"
        elif path.exists():
            path.unlink()
            kind = "file"
        else:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{shown} does not exist")
        return ToolOutput("delete_path", f"Deleted {kind} {shown}", raw={"path": shown, "kind": kind})

    def _move_path(self, args: A.MovePathArgs) -> ToolOutput:
        source = self.sandbox.locate(args.source)
        destination = self.sandbox.locate(args.destination)
        self.sandbox.check_writable(source, args.source)
        self.sandbox.check_writable(destination, args.destination)
        self._refuse_root(source, "move")
        self._check_transfer(source, destination, args.source)
        # A rename could carry a file out from under a deny_read rule, so moving counts as reading.
        self._check_tree_readable(source)
        make_dirs(destination.parent)
        try:
            os.rename(source, destination)
        except OSError as e:
            if e.errno != errno.EXDEV:
                raise
            shutil.move(os.fspath(source), os.fspath(destination))
        src, dst = self.sandbox.display(source), self.sandbox.display(destination)
        return ToolOutput("move_path", f"Moved {src} to {dst}", raw={"source": src, "destination": dst})

    def _copy_path(self, args: A.CopyPathArgs) -> ToolOutput:
        source = self.sandbox.resolve(args.source)
        destination = self.sandbox.locate(args.destination)
        self.sandbox.check_writable(destination, args.destination)
        self._check_transfer(source, destination, args.source)
        self._check_tree_readable(source)
        make_dirs(destination.parent)
        src, dst = self.sandbox.display(source), self.sandbox.display(destination)
        if not source.is_dir():
            with staging_file(destination) as staged:
                shutil.copy2(source, staged)
            return ToolOutput("copy_path", f"Copied {src} to {dst}", raw={"source": src, "destination": dst})
        counts = {"files": 0, "dirs": 0, "links": 0}
        skipped: list[str] = []
        staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".zeph-tmp", dir=destination.parent))
        try:
            self._copy_tree(source, staging, destination, counts, skipped)
            os.rename(staging, destination)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        summary = f"Copied {src} to {dst} ({counts['files']} files, {counts['dirs']} directories)"
        if skipped:
            summary += f"; skipped {len(skipped)} entries: " + ", ".join(skipped[:10])
        return ToolOutput("copy_path", summary, raw={"source": src, "destination": dst, **counts, "skipped": skipped})

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
        for hit in hits:
            # Engines never follow links, but a match is only reported when its real path is ours to read.
            real = canonicalize(hit.path, self.sandbox.workdir)
            if not self.sandbox.contains(real) or not self.sandbox.readable(real):
                continue
            if len(lines) >= MAX_GREP_MATCHES:
                more = True
                break
            shown = self.sandbox.display(Path(os.path.abspath(hit.path)))
            lines.append(f"{shown}:{hit.line}: {hit.text}")
            matches.append({"path": shown, "line": hit.line, "text": hit.text})
        if not lines:
            return ToolOutput("grep", f"No matches for {args.pattern!r}", raw={"matches": []})
        summary = "\n".join(lines)
        if more:
            summary += f"\n[first {MAX_GREP_MATCHES} matches shown; narrow the pattern or the path]"
        return ToolOutput("grep", summary, raw={"matches": matches}, truncated=more)

    # -- helpers ---------------------------------------------------------------------------------------------

    def _check_opened(self, fd: int, given: str) -> None:
        """Check what was actually opened, not only the path checked before: a link swapped in between the check
        and the open (by a command running at the same time) must not lead out of the sandbox or into a hidden
        path. Linux names an open file in /proc/self/fd."""
        try:
            opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            return  # no /proc (not Linux): the path check above is all there is
        if not self.sandbox.contains(opened):
            raise SandboxViolation(f"{given!r} changed while it was being opened and now leads outside the sandbox")
        self.sandbox.check_readable(opened, given)

    def _refuse_root(self, path: Path, verb: str) -> None:
        if self.sandbox.is_root_or_above(path):
            raise SandboxViolation(f"refusing to {verb} {path.as_posix()}: it is the sandbox root or above it")

    def _check_transfer(self, source: Path, destination: Path, given: str) -> None:
        if not os.path.lexists(source):
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{given} does not exist")
        if os.path.lexists(destination):
            raise _invalid(
                f"{self.sandbox.display(destination)} already exists; delete it first or choose another name"
            )
        if destination == source or source in destination.parents:
            raise _invalid("the destination is inside the source; choose a path outside it")

    def _check_tree_readable(self, source: Path) -> None:
        if not self.sandbox.deny_read and not self.sandbox.protected.hidden:
            return
        self.sandbox.check_readable(source)
        if source.is_dir() and not source.is_symlink():
            for dirpath, dirnames, filenames in os.walk(source):
                for name in dirnames + filenames:
                    self.sandbox.check_readable(Path(dirpath, name))

    def _copy_tree(self, source: Path, target: Path, final: Path, counts: dict[str, int], skipped: list[str]) -> None:
        """Copy ``source`` into the existing directory ``target`` (to be renamed to ``final``), lstat-ing as it goes."""
        with os.scandir(source) as scan:
            entries = sorted(scan, key=lambda e: e.name)
        for entry in entries:
            src, dst = Path(entry.path), target / entry.name
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                # Copy the link, not what it points at, and only when it still lands inside the sandbox from
                # where the copy will live; content from outside never comes in through a link.
                link = os.readlink(src)
                would_be = canonicalize(final / src.relative_to(source), self.sandbox.workdir, follow_final=False)
                resolved = canonicalize(Path(link) if os.path.isabs(link) else would_be.parent / link, "/")
                if self.sandbox.contains(resolved):
                    os.symlink(link, dst)
                    counts["links"] += 1
                else:
                    skipped.append(f"{self.sandbox.display(src)} (link leaving the sandbox)")
            elif stat.S_ISDIR(mode):
                dst.mkdir()
                shutil.copystat(src, dst)
                counts["dirs"] += 1
                self._copy_tree(src, dst, final / entry.name, counts, skipped)
            elif stat.S_ISREG(mode):
                shutil.copy2(src, dst, follow_symlinks=False)
                counts["files"] += 1
            else:
                skipped.append(f"{self.sandbox.display(src)} (special file)")


def _kind(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return "symlink"
    if entry.is_dir(follow_symlinks=False):
        return "dir"
    if entry.is_file(follow_symlinks=False):
        return "file"
    return "other"


def _count_overlapping(text: str, needle: str) -> int:
    count, at = 0, text.find(needle)
    while at >= 0:
        count += 1
        at = text.find(needle, at + 1)
    return count


def _describe_os_error(error: OSError, sandbox: Sandbox) -> str:
    reason = error.strerror or str(error)
    name = error.filename
    if isinstance(name, (str, os.PathLike)):
        path = Path(os.fspath(name))
        shown = sandbox.display(path) if path.is_absolute() else os.fspath(path)
        return f"{shown}: {reason}"
    return reason


def _bounded_lines(handle: BinaryIO, cap: int) -> Iterator[tuple[bytes, bool]]:
    """The lines of a file, each at most ``cap`` bytes: (line, whether it was cut). A line longer than that (a 1 GiB
    file with no newline) is read in ``cap``-sized pieces and only its first piece kept, so memory stays bounded."""
    while True:
        line = handle.readline(cap)
        if not line:
            return
        if len(line) < cap or line.endswith(b"\n"):
            yield line, False
            continue
        while True:  # skip the rest of this line
            more = handle.readline(cap)
            if not more or more.endswith(b"\n"):
                break
        yield line, True
