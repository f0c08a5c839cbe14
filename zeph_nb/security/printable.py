"""Text from outside (a server's tool name, a key in a downloaded config file) shown on one line as it is.

Such text may hold escape sequences that recolour or clear a terminal, line breaks that forge the next line of a
message or an audit row, bidirectional overrides that reorder what is read, or megabytes. ``one_line`` writes every
character that is not printable as its escape (``\\x1b``, ``\\n``, ``\\u202e``) and cuts the text at a length.
(``output.sanitize.visible`` is its counterpart for what a person approves, where line breaks stay.)
"""

from __future__ import annotations

__all__ = ["one_line"]


def one_line(text: str, limit: int, *, count_rest: bool = False) -> str:
    """``text`` cut at ``limit`` characters (marked ``…``, with how many more when ``count_rest``) and with its
    control, format and separator characters written as their escapes."""
    if len(text) > limit:
        rest = f"[{len(text) - limit:,} more characters]" if count_rest else ""
        text = f"{text[:limit]}…{rest}"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
