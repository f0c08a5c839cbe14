"""``[undo]``: what ``%zeph undo`` keeps of the files a run changes."""

from __future__ import annotations

from pydantic import Field

from zeph_nb.config.common import _Section

__all__ = ["UndoSettings"]

DEFAULT_EXCLUDE = [".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".ipynb_checkpoints",
                   ".mypy_cache", ".pytest_cache", ".ruff_cache"]  # fmt: skip


class UndoSettings(_Section):
    """``[undo]``: snapshots taken before each call that may change files in the working directory."""

    enabled: bool = Field(True, description="snapshot before the file tools' writes and local shell commands")
    max_snapshot_bytes: int = Field(
        64 * 1024 * 1024,
        ge=0,
        description="file content one call may read and keep; a file past it is noted by size and time only, and "
        "undo cannot restore it (0: no cap)",
    )
    max_files: int = Field(
        50_000, ge=0, description="entries a shell command's scan of the working directory looks at (0: no cap)"
    )
    exclude: list[str] = Field(
        default_factory=lambda: list(DEFAULT_EXCLUDE),
        description="folder names a shell command's scan skips (their changes cannot be undone)",
    )
    required: bool = Field(False, description="a call whose snapshot would be incomplete does not run")
