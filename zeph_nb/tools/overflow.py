"""The ``read_overflow`` tool: page through an output that was too large to show, by its opaque id."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import Field

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import BuiltinArgs, SingleToolExecutor, ToolCall, ToolDef, ToolOutput

if TYPE_CHECKING:
    from zeph_nb.store.store import Store

__all__ = ["READ_OVERFLOW", "OverflowExecutor"]

_ID = re.compile(r"^overflow:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class ReadOverflowArgs(BuiltinArgs):
    id: str = Field(min_length=1, max_length=100, description="The overflow:<uuid> id given in a cut output")
    offset: int = Field(0, ge=0, description="Character to start at")
    limit: int = Field(50_000, ge=1, le=1_000_000, description="How many characters to return")


READ_OVERFLOW = ToolDef(
    "read_overflow", "Read the full text of an output that was cut, by its overflow:<uuid> id.", ReadOverflowArgs
)


class OverflowExecutor(SingleToolExecutor):
    """``read_overflow`` for one conversation: ids of other conversations are not found."""

    tool = READ_OVERFLOW

    def __init__(self, store: Store, conversation_id: str) -> None:
        self.store = store
        self.conversation_id = conversation_id

    async def run(self, args: ReadOverflowArgs, call: ToolCall) -> ToolOutput:
        import asyncio

        if not _ID.match(args.id):
            raise ToolError(
                ToolErrorCategory.INVALID_PARAMETERS,
                f"{args.id!r} is not an overflow id; they look like overflow:123e4567-e89b-12d3-a456-426614174000",
            )
        from zeph_nb.store.store import OverflowUnreadable

        try:
            content = await asyncio.to_thread(self.store.get_overflow, args.id, self.conversation_id)
        except OverflowUnreadable as e:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, str(e)) from None
        if content is None:
            raise ToolError(
                ToolErrorCategory.PERMANENT_FAILURE,
                f"no stored output {args.id} in this conversation: it belongs to another conversation (a new one "
                "starts after `%zeph clear`), was deleted by `%zeph clear --forget`, or expired after retention_days",
            )
        if args.offset >= len(content) > 0:
            raise ToolError(
                ToolErrorCategory.INVALID_PARAMETERS,
                f"offset {args.offset} is past the end of {args.id}, which has {len(content)} characters: "
                f"read from offset 0 to {len(content) - 1}",
            )
        end = min(len(content), args.offset + args.limit)
        text = content[args.offset : end]
        if args.offset > 0 or end < len(content):
            more = "; use offset to read more" if end < len(content) else ""
            text += f"\n[characters {args.offset}-{end} of {len(content)}{more}]"
        return ToolOutput(
            READ_OVERFLOW.name,
            text,
            raw={"id": args.id, "offset": args.offset, "end": end, "total": len(content)},
            call_id=call.call_id,
        )
