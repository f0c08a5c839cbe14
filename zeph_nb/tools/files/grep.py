"""Regex search over a directory tree: ripgrep when its binary is present, pure Python otherwise.

Both engines mean the same thing, so results do not depend on which one ran: every regular file under the root
is searched, hidden ones included, except inside ``.git``/``.hg``/``.svn``; ignore files are not read; symbolic
links are not followed; a file with a NUL byte is binary and skipped; results come in path order.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from zeph_nb.errors import ToolError, ToolErrorCategory

__all__ = ["GrepMatch", "clip", "find_ripgrep", "grep_python", "grep_ripgrep", "search"]

VCS_DIRS = frozenset({".git", ".hg", ".svn"})
MAX_LINE_CHARS = 500
_BINARY_PROBE = 8192
# Files larger than this are searched line by line instead of read whole.
_WHOLE_FILE_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True)
class GrepMatch:
    # The file as the engine names it: text from both engines (a Path per match was a tenth of grep's cost at
    # hundreds of matches), and its users take ``os.fspath`` of it, so a Path serves too.
    path: str | os.PathLike[str]
    line: int
    text: str
    # Where the line begins in the file (its first byte's offset), when the engine says (ripgrep does): a hint for
    # reading the line again (``ops.lines_at``), never trusted on its own.
    start: int | None = None


def find_ripgrep() -> str | None:
    """The rg binary: the one the ``ripgrep`` wheel put next to this interpreter first, then PATH.

    A kernel started from a venv often does not have the venv's bin directory on PATH, hence the first look.
    """
    beside = Path(sys.executable).parent / "rg"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("rg")


def clip(text: str) -> str:
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + " […]"


def grep_ripgrep(rg: str, pattern: str, root: Path, *, case_sensitive: bool, max_results: int) -> Iterator[GrepMatch]:
    """Matches from ripgrep, in path order; stops reading (and ends rg) after ``max_results``."""
    args = [
        rg,
        "--null",  # path, NUL, then "line:offset:text": a path may contain ':' but never NUL
        "--line-number",
        "--byte-offset",  # where each line begins: reading it again need not split the file (ops.lines_at)
        "--with-filename",
        "--no-heading",
        "--color=never",
        "--hidden",
        "--no-ignore",
        "--no-messages",  # unreadable files are skipped quietly, as in the Python engine
        "--sort=path",
        "--case-sensitive" if case_sensitive else "--ignore-case",
    ]
    for vcs in sorted(VCS_DIRS):
        args.append(f"--glob=!{vcs}")
    args += ["--regexp", pattern, "--", str(root)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    count = 0
    last_name, path = b"", ""  # a file's hits come together: its name is decoded once
    try:
        for raw in proc.stdout:
            path_bytes, sep, rest = raw.partition(b"\x00")
            number, colon, rest = rest.partition(b":")
            offset, colon_too, text = rest.partition(b":")
            if not sep or not colon or not colon_too or not number.isdigit() or not offset.isdigit():
                continue
            if path_bytes != last_name:
                last_name, path = path_bytes, os.fsdecode(path_bytes)
            yield GrepMatch(
                path, int(number), clip(text.rstrip(b"\r\n").decode("utf-8", errors="replace")), int(offset)
            )
            count += 1
            if count >= max_results:
                return
        stderr = proc.stderr.read().decode("utf-8", errors="replace")
        if proc.wait() == 2 and ("regex" in stderr or "parse error" in stderr):
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"invalid regex {pattern!r}: {stderr.strip()}")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def compile_pattern(pattern: str, *, case_sensitive: bool) -> re.Pattern[str]:
    try:
        return re.compile(pattern, 0 if case_sensitive else re.IGNORECASE)
    except re.error as e:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"invalid regex {pattern!r}: {e}") from None


def _walk_files(root: Path) -> list[Path]:
    if root.is_file() and not root.is_symlink():
        return [root]
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in VCS_DIRS]
        for name in filenames:
            full = Path(dirpath, name)
            if not full.is_symlink():
                found.append(full)
    # Same order as rg --sort=path: by the path's bytes.
    found.sort(key=lambda p: os.fsencode(p))
    return found


def grep_python(pattern: str, root: Path, *, case_sensitive: bool, max_results: int) -> Iterator[GrepMatch]:
    """The fallback engine: same files, same order, Python's ``re`` dialect."""
    regex = compile_pattern(pattern, case_sensitive=case_sensitive)
    # Most files do not match at all: one search over the whole text (MULTILINE, so ^ and $ still mean line
    # ends) rules them out at C speed before any per-line work. \A and \Z mean something else on a whole text,
    # so such patterns skip the pre-check.
    whole = None if ("\\A" in pattern or "\\Z" in pattern) else re.compile(pattern, regex.flags | re.MULTILINE)
    count = 0
    for path in _walk_files(root):
        name = os.fspath(path)
        for number, line in _matching_lines(path, regex, whole):
            yield GrepMatch(name, number, clip(line))
            count += 1
            if count >= max_results:
                return


def _matching_lines(path: Path, regex: re.Pattern[str], whole: re.Pattern[str] | None) -> Iterator[tuple[int, str]]:
    try:
        if path.stat().st_size > _WHOLE_FILE_LIMIT:
            yield from _matching_lines_streamed(path, regex)
            return
        data = path.read_bytes()
    except OSError:
        return
    nul = data.find(b"\x00")
    if 0 <= nul < _BINARY_PROBE:
        return
    if nul >= 0:
        data = data[: data.rfind(b"\n", 0, nul) + 1]  # binary after all; rg stops at the first NUL too
    text = data.decode("utf-8", errors="replace")
    if whole is not None and whole.search(text) is None:
        return
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the text after a final newline is not a line
    for number, line in enumerate(lines, start=1):
        line = line.removesuffix("\r")
        if regex.search(line):
            yield number, line


def _matching_lines_streamed(path: Path, regex: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    with open(path, "rb") as handle:
        if b"\x00" in handle.read(_BINARY_PROBE):
            return
        handle.seek(0)
        for number, raw in enumerate(handle, start=1):
            if b"\x00" in raw:
                return
            line = raw.rstrip(b"\r\n").decode("utf-8", errors="replace")
            if regex.search(line):
                yield number, line


def search(
    pattern: str, root: Path, *, case_sensitive: bool, max_results: int, engine: str = "auto"
) -> Iterator[GrepMatch]:
    """Dispatch to an engine: ``auto`` prefers ripgrep, ``ripgrep`` insists on it, ``python`` never uses it."""
    rg = find_ripgrep() if engine != "python" else None
    if engine == "ripgrep" and rg is None:
        raise ToolError(
            ToolErrorCategory.PERMANENT_FAILURE,
            "grep_engine = 'ripgrep' but no rg binary was found; install the 'ripgrep' package or use 'auto'",
        )
    if rg is not None:
        return grep_ripgrep(rg, pattern, root, case_sensitive=case_sensitive, max_results=max_results)
    return grep_python(pattern, root, case_sensitive=case_sensitive, max_results=max_results)
