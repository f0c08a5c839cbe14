"""What a call wrote, seen after it: the files under some trees whose inode changed since it started
(``changed_since``, the scan ``gates/undo.py`` runs after a local command for provenance, whatever the classifier
thought the command does), and a written file's change as a unified diff against what was there (``change_diff``,
for the files other tools run when used).
"""

from __future__ import annotations

import difflib
import os

__all__ = ["CTIME_WALK_ENTRIES", "DIFF_CHARS", "change_diff", "changed_since"]


# Entries the scan after a local command looks at (about 4 µs each here); past it, the call's time window is recorded.
CTIME_WALK_ENTRIES = 200_000


def changed_since(
    roots: list[str],
    started_ns: int,
    budget: int = CTIME_WALK_ENTRIES,
    *,
    skip: set[str] | frozenset[str] = frozenset(),
) -> tuple[list[str], bool]:
    """The files and links under ``roots`` (excluded folders too, not the folders in ``skip``) whose inode changed
    at or after ``started_ns``, and whether every entry was seen within ``budget``."""
    found: list[str] = []
    pending = [root for root in roots if root not in skip]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    budget -= 1
                    if budget < 0:
                        return found, False
                    if entry.is_dir(follow_symlinks=False):
                        # git's object store: content git itself addresses by hash, nothing runs or imports it
                        if entry.path not in skip and not (entry.name == "objects" and folder.endswith("/.git")):
                            pending.append(entry.path)
                    elif entry.stat(follow_symlinks=False).st_ctime_ns >= started_ns:
                        found.append(entry.path)
        except OSError:
            continue
    return found, True


DIFF_CHARS = 8000  # per file, in the transcript: the rest is in the file itself


def change_diff(path: str, before: bytes | None, known: bool) -> str:
    """The change to ``path`` as a unified diff against what was there (nothing, for a new file), cut to
    DIFF_CHARS; when what was there was not kept, the new content's head."""
    try:
        with open(path, "rb") as handle:
            after = handle.read(4 * DIFF_CHARS).decode("utf-8", "replace")
    except OSError as e:
        return f"(cannot read it: {e.strerror})"
    if not known:
        return f"(what was there before was not kept; it now begins:)\n{after[:DIFF_CHARS]}"
    old = (before or b"").decode("utf-8", "replace")
    name = os.path.basename(path)
    source = "/dev/null" if before is None else f"a/{name}"  # a new file, as git shows one
    lines = difflib.unified_diff(old.splitlines(keepends=True), after.splitlines(keepends=True), source,
                                 f"b/{name}")  # fmt: skip
    text = "".join(lines)
    return text if len(text) <= DIFF_CHARS else text[:DIFF_CHARS] + "\n[… cut; read the file for the rest]"
