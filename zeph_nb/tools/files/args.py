"""The file tools' specs: their argument models (the single source of their validation and of the schema the model
sees) and the traits the gates, cards and undo read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from zeph_nb.tools.base import BuiltinArgs, ToolDef

__all__ = ["FILE_TOOLS"]

_Path = Field(min_length=1, max_length=4096, description="File path, relative to the working directory")


class ReadArgs(BuiltinArgs):
    path: str = _Path
    offset: int = Field(0, ge=0, description="Number of lines to skip from the start")
    limit: int | None = Field(None, ge=1, description="Maximum number of lines to return")


class WriteArgs(BuiltinArgs):
    path: str = _Path
    content: str = Field(description="The complete new content of the file")


class EditArgs(BuiltinArgs):
    path: str = _Path
    old_string: str = Field(min_length=1, description="Exact text to replace; must occur exactly once")
    new_string: str = Field(description="Text to put in its place")


class FindPathArgs(BuiltinArgs):
    pattern: str = Field(
        min_length=1,
        max_length=4096,
        description="Glob relative to the search folder (default: the working directory), e.g. 'src/**/*.py'",
    )
    path: str | None = Field(
        None, min_length=1, max_length=4096, description="Folder to search from, inside the sandbox (seed 004)"
    )


class ListDirectoryArgs(BuiltinArgs):
    path: str = Field(".", min_length=1, max_length=4096, description="Directory to list")


class CreateDirectoryArgs(BuiltinArgs):
    path: str = _Path


class DeletePathArgs(BuiltinArgs):
    path: str = _Path


class MovePathArgs(BuiltinArgs):
    source: str = _Path
    destination: str = _Path


class CopyPathArgs(BuiltinArgs):
    source: str = _Path
    destination: str = _Path


class GrepArgs(BuiltinArgs):
    pattern: str = Field(min_length=1, max_length=4096, description="Regular expression to search for")
    path: str | None = Field(None, max_length=4096, description="File or directory to search; default: all")
    case_sensitive: bool = True


# subject: the parameters permission rules see, as canonical paths. Reads are cacheable (entries are dropped
# whenever a mutating call runs); everything that changes the tree is marked ``mutates``.
def _first(subjects: Sequence[str]) -> str:
    return subjects[0] if subjects else "a file"


def _edited(old: str, params: Mapping[str, Any]) -> str | None:
    """The text after an edit; None when ``old_string`` is not there exactly once (the edit will fail, and say so)."""
    before, after = str(params.get("old_string", "")), str(params.get("new_string", ""))
    return old.replace(before, after, 1) if before and old.count(before) == 1 else None


FILE_TOOLS: tuple[ToolDef, ...] = (
    ToolDef(
        "read",
        "Read a text file. Use offset and limit to page through large files.",
        ReadArgs,
        subject=("path",),
        subject_kind="path",
        cacheable=True,
        enabled_by="file_enabled",
        utility=0.55,
    ),
    ToolDef(
        "write",
        "Create or overwrite a file with the given content (parent directories are created). Atomic.",
        WriteArgs,
        subject=("path",),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("path",),
        becomes=lambda old, params: str(params.get("content", "")),
        verb="This will write:",
        explain=lambda s: f"it writes the file {_first(s)}",
        utility=0.55,
    ),
    ToolDef(
        "edit",
        "Replace old_string with new_string in a file. old_string must match exactly once, whitespace included.",
        EditArgs,
        subject=("path",),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("path",),
        becomes=_edited,
        verb="This will change:",
        explain=lambda s: f"it changes the file {_first(s)}",
        utility=0.75,
    ),
    ToolDef(
        "find_path",
        "Find files and directories whose path matches a glob ('**' spans directories).",
        FindPathArgs,
        subject=("pattern", "path"),
        subject_kind="path",
        cacheable=True,
        enabled_by="file_enabled",
        walks="reads",
        utility=0.65,
    ),
    ToolDef(
        "list_directory",
        "List a directory: one entry per line, marked [dir], [file] or [symlink].",
        ListDirectoryArgs,
        subject=("path",),
        subject_kind="path",
        cacheable=True,
        enabled_by="file_enabled",
        walks="reads",
        utility=0.65,
    ),
    ToolDef(
        "create_directory",
        "Create a directory and any missing parents.",
        CreateDirectoryArgs,
        subject=("path",),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("path",),
        verb="This will create:",
        explain=lambda s: f"it creates {_first(s)}",
        utility=0.75,
    ),
    ToolDef(
        "delete_path",
        "Delete a file, a link (never its target) or a directory with everything in it.",
        DeletePathArgs,
        subject=("path",),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("path",),
        walks="changes",
        verb="This will delete:",
        explain=lambda s: f"it deletes {_first(s)}; deleted files do not go to a trash can",
        utility=0.75,
    ),
    ToolDef(
        "move_path",
        "Move or rename a file or directory. The destination must not exist.",
        MovePathArgs,
        subject=("source", "destination"),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("source", "destination"),
        walks="changes",
        explain=lambda s: f"it moves {_first(s)}" + (f" to {s[1]}" if len(s) > 1 else ""),
        utility=0.75,
    ),
    ToolDef(
        "copy_path",
        "Copy a file or directory tree. The destination must not exist.",
        CopyPathArgs,
        subject=("source", "destination"),
        subject_kind="path",
        mutates=True,
        enabled_by="file_enabled",
        writes=("destination",),  # the source is only read
        walks="changes",
        explain=lambda s: f"it copies {_first(s)}" + (f" to {s[1]}" if len(s) > 1 else ""),
        utility=0.75,
    ),
    ToolDef(
        "grep",
        "Search file contents with a regular expression. Prints path:line: text for each matching line.",
        GrepArgs,
        subject=("path",),
        subject_kind="path",
        cacheable=True,
        enabled_by="file_enabled",
        walks="reads",
        utility=0.65,
    ),
)
