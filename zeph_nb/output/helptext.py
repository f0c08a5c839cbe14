"""Python's help text wherever it appears: ``python -m pydoc x``, ``python -c 'help(x)'``.

A class's help repeats, under ``Methods inherited from builtins.BaseException:`` and the like, the whole
documentation of every base class: 55 of the 151 lines of a module with one exception class, 8,000 of the 16,000
of ``help(pandas.Series)``. What a person reads there is which members the class has, not their bases' docstrings
again: each such section becomes one line that names its members,
``[Methods inherited from builtins.BaseException: __delattr__, __getattribute__, add_note, with_traceback]``.
What the class defines itself stays whole, and the whole output is in the overflow.
"""

from __future__ import annotations

import re

__all__ = ["INHERITED_CUE", "fold_inherited"]

MIN_SECTION = 3  # a shorter section is shown: one line for it says no less
INHERITED_CUE = " inherited from "  # in the heading of each section it folds
MAX_NAMES = 200  # past this many members (a crafted section), the note says how many more

# ` |  Methods inherited from builtins.ValueError:` under a class's bar (nested classes add bars, a module's help
# indents them). The kinds are pydoc's own words.
_SECTION = re.compile(
    r"^(?P<bar>[ |]*\|  )(?P<what>(?:Class methods|Static methods|Methods|Readonly properties|Data descriptors"
    r"|Data and other attributes) inherited from (?P<base>[\w.]+)):$"
)
_NAME = re.compile(r"[\w.]+")


def fold_inherited(text: str) -> str | None:
    """``text`` with each section of members inherited from a base class cut to their names; None when it holds
    no such section."""
    if INHERITED_CUE not in text:
        return None
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    folded = False
    while index < len(lines):
        found = _SECTION.match(lines[index])
        if found is None:
            out.append(lines[index])
            index += 1
            continue
        bar = found["bar"]
        rule = bar + "-" * 10
        end = index + 1
        names: list[str] = []
        # The section ends at the rule before the next one, or where the class's bar ends.
        while end < len(lines) and lines[end].startswith(bar.rstrip()) and not lines[end].startswith(rule):
            member = lines[end][len(bar) :]
            if member and not member[0].isspace() and lines[end].startswith(bar):
                name = _NAME.match(member)
                if name is not None:
                    names.append(name.group())
            end += 1
        if end - index - 1 < MIN_SECTION:
            out += lines[index:end]
        else:
            more = f" and {len(names) - MAX_NAMES:,} more" if len(names) > MAX_NAMES else ""
            out.append(f"{bar}[{found['what']}: {', '.join(names[:MAX_NAMES])}{more}]")
            folded = True
        index = end
    return "\n".join(out) if folded else None
