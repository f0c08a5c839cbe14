"""What a file-writing call will change (``ToolDef.becomes``: write, edit), as a diff for the approval card: a person
approves content, not a path."""

from __future__ import annotations

import difflib
from typing import Any

from zeph_nb.errors import ToolError
from zeph_nb.security.paths import Sandbox
from zeph_nb.security.secrets import redact
from zeph_nb.tools.base import ToolDef
from zeph_nb.tools.files.ops import open_regular

__all__ = ["MAX_PREVIEW_LINES", "change_preview"]

MAX_PREVIEW_LINES = 80
_MAX_OLD_BYTES = 1024 * 1024  # a larger file is not read for a preview: the card says so


def change_preview(tool: ToolDef, params: Any, sandbox: Sandbox) -> str:
    """A unified diff of the file before and after the call (secrets redacted, at most ``MAX_PREVIEW_LINES``
    lines), or "" for other tools. The current content is read only from a readable path inside the sandbox: a
    preview never shows what the file tools would refuse to read."""
    if tool.becomes is None or not tool.writes or not isinstance(params, dict):
        return ""
    given = params.get(tool.writes[0])
    if not isinstance(given, str):
        return ""
    try:
        old = _current(sandbox, given)
    except (ToolError, OSError, UnicodeError):
        return ""
    if old is None:
        return f"(current content of {given} not shown: larger than {_MAX_OLD_BYTES // 1024} KB)"
    new = tool.becomes(old, params)
    if new is None:
        return ""  # the call will fail and say why; nothing to preview
    diff = list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{given}", f"b/{given}", n=2))
    if not diff:
        return "(no change)"
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in diff[:MAX_PREVIEW_LINES])
    if len(diff) > MAX_PREVIEW_LINES:
        shown += f"… {len(diff) - MAX_PREVIEW_LINES} more diff lines\n"
    return redact(shown)


def _current(sandbox: Sandbox, given: str) -> str | None:
    """The file's text now, read as the ``read`` tool reads it: walked by descriptor (a link swapped in cannot lead
    outside), pipes and devices refused (a FIFO would block the approval gate). "" when there is no file yet, None
    when it is too large to show."""
    with sandbox.entry(given) as entry:
        sandbox.check_readable(entry.path, given)
        found = entry.lstat()
        if found is None:
            return ""
        if found.st_size > _MAX_OLD_BYTES:
            return None
        with open_regular(entry, given) as handle:
            return handle.read(_MAX_OLD_BYTES + 1).decode("utf-8")
