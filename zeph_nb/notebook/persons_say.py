"""Whether a ``%zeph`` line is the person's own: the magics that give the person's say (answer an ask, trust a file
or a skill, keep, resume or forget a scheduled task) run only as a line the person runs in a cell.

run_python's code (approved once) runs in the same kernel and can call any magic: from its own context, from a thread
it starts, or through what it leaves behind to run after its call returned (a callback on the kernel's event loop,
an IPython event hook that runs in the person's next cell). Three checks, each closing one of those ways:

* the kernel's main thread: a person's cell runs there; a thread is something code started;
* no run_python code running now (a count, not a context variable: a fresh ``contextvars.Context`` resets those);
* in ipykernel, the request being run holds that ``%zeph`` line, read from the cell as IPython transforms it (a line
  inside a string, a ``%%zeph`` prompt or a ``%%bash`` script is none).

Approved code can still reach into zeph-nb's internals; the approval card is the boundary (docs/security.md).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["inside_run", "the_persons", "typed_in_cell"]

# Cell magics whose body is Python the kernel runs line by line, %magics included (%%time, %%capture …).
_PYTHON_BODIES = frozenset({"time", "timeit", "capture", "prun", "debug"})


def inside_run() -> bool:
    """Whether the magic runs within a run's run_python (the model's code), not in a cell of the person."""
    import threading

    # A person's cell runs on the kernel's main thread. A thread is something code started, and it starts with an
    # empty context (no MODEL_CODE) and may call the magic after run_python has returned.
    if threading.current_thread() is not threading.main_thread():
        return True
    if "zeph_nb.notebook.kernel" not in sys.modules:  # no kernel tools yet: no run_python either
        return False
    from zeph_nb.notebook.kernel import model_code_running

    return model_code_running()


def typed_in_cell(shell: Any, words: list[str]) -> bool:
    """Whether the request the kernel is running holds a ``%zeph`` line of these words (its ``{names}`` expanded, as
    IPython expands them). The cell the person runs says what the person asked for. Only in ipykernel, where there
    is a request: a terminal IPython's line is the person's (its model code has the other checks)."""
    get_parent = getattr(getattr(shell, "kernel", None), "get_parent", None)
    if shell is None or get_parent is None:
        return True
    try:
        request = get_parent("shell")
    except LookupError:
        return False
    code = (request or {}).get("content", {}).get("code") if isinstance(request, dict) else None
    if not isinstance(code, str):
        return False
    return any(rest.split() == words or _expanded(shell, rest).split() == words for rest in _zeph_lines(shell, code))


def the_persons(shell: Any, words: list[str]) -> None:
    """Refuses the person's say (an answer to an ask, trusting a file or a skill) when it is not the person's line:
    run_python's code could call ``%zeph approve always`` itself, or leave behind a hook or a loop callback that
    answers every later ask, its own next run_python's included, or accepts a module an agent wrote just before the
    person imports it. Keep, resume and forget are guarded the same way (``%zeph jobs``)."""
    from zeph_nb.errors import ZephError

    if inside_run() or not typed_in_cell(shell, words):
        raise ZephError(f"{words[0]} is for the person, in a cell of their own: a run's code (its run_python, a "
                        "thread, a hook or a callback it left behind) may not give the person's say; type the line "
                        f"in a cell (%zeph {' '.join(words)})")  # fmt: skip


def _expanded(shell: Any, text: str) -> str:
    """``text`` with its ``{name}`` and ``$name`` expanded from the notebook's namespace, as IPython expands a magic's
    line run at a cell's top level (``var_expand``, but never with this module's locals); as it is when it cannot."""
    from IPython.utils.text import DollarFormatter

    try:
        return str(DollarFormatter().vformat(text, args=[], kwargs=dict(shell.user_ns)))
    except Exception:  # what IPython does too: a line that does not expand runs as written
        return text


def _zeph_lines(shell: Any, code: str) -> list[str]:
    """What follows ``%zeph`` on each line of ``code`` the kernel would run as that magic: read from the code as
    IPython transforms it, so a line inside a string, a %%zeph cell's prompt or a %%bash cell's script is not one."""
    import ast

    try:
        tree = ast.parse(shell.transform_cell(code))
    except (SyntaxError, ValueError):
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) >= 2):
            continue
        texts = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
        if len(texts) != len(node.args):
            continue
        if node.func.attr == "run_line_magic" and texts[0] == "zeph":
            found.append(texts[1])
        elif node.func.attr == "run_cell_magic" and len(texts) == 3 and texts[0] in _PYTHON_BODIES:
            found += _zeph_lines(shell, texts[2])
    return found
