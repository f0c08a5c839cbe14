"""What the kernel tools say about the person's variables: a table of names, and one variable described.

Pure functions over values; they never import pandas or NumPy themselves. A DataFrame in the namespace means
pandas is already imported, so its type is recognised by the module it comes from and its own methods are used.
Every ``repr`` is bounded: a hostile or huge object must not stall the kernel or flood the model.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import reprlib
import sys
import types
from collections.abc import Mapping
from typing import Any

__all__ = ["describe_variable", "hidden_name", "list_variables"]

# Names that say their value is a credential: a dict's key, a column, a variable. Their values are not shown
# (the output's secret scanner finds values by their shape; "pw" or a "password" column has none).
_SECRET_NAME = re.compile(
    r"passw|passwd|passphrase|(?:^|[_\-.])(?:pass|pw)(?:$|[_\-.])|pwd|secret|token|api.?key|private.?key|credential"
    r"|auth(?!or)|cookie|bearer|signature|(?:^|[_\-.])key(?:$|[_\-.])",
    re.IGNORECASE,
)
_HIDDEN_VALUE = "[REDACTED:named_secret]"

# IPython's own names in every namespace (its history and exit helpers), never the person's work.
_IPYTHON_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython", "open"})
_REPR_CHARS = 2000


def hidden_name(name: str, value: Any) -> bool:
    """Whether ``name`` is left out of what the agent sees: underscore names (IPython's ``_``, ``_i3``…, private
    helpers), IPython's own, modules, and zeph's objects (the magics' agent, runs and transcripts)."""
    if name.startswith("_") or name in _IPYTHON_NAMES or isinstance(value, types.ModuleType):
        return True
    module = getattr(type(value), "__module__", "") or ""
    return module == "zeph_nb" or module.startswith(("zeph_nb.", "zeph_nb_server"))


def _kind(value: Any) -> str:
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module.split('.')[0]}.{kind.__qualname__}"


def _known(value: Any) -> bool:
    """A pandas or NumPy value: its properties (shape, nbytes, memory_usage) are read. Any other object's are not —
    a property is the person's code, and listing variables must run none (a lazy proxy would fetch, a property
    could do anything)."""
    return _module(value) in ("pandas", "numpy")


def _size(value: Any) -> str:
    shape = getattr(value, "shape", None) if _known(value) else inspect.getattr_static(value, "shape", None)
    if isinstance(shape, tuple) and all(isinstance(n, int) for n in shape):
        return " x ".join(str(n) for n in shape) if shape else "scalar"
    if isinstance(value, str | bytes | list | tuple | dict | set | frozenset):
        return f"{len(value):,} items" if not isinstance(value, str | bytes) else f"{len(value):,} chars"
    return ""


def _memory(value: Any) -> int:
    """Bytes the value holds, as its own library counts them (pandas deep, NumPy nbytes), else sys.getsizeof."""
    try:
        if _module(value) == "pandas" and callable(getattr(value, "memory_usage", None)):
            total = value.memory_usage(deep=True)
            return int(total.sum()) if hasattr(total, "sum") else int(total)
        if _module(value) == "numpy" and isinstance(getattr(value, "nbytes", None), int):
            return int(value.nbytes)
        return sys.getsizeof(value)
    except Exception:  # an object's own method failing is not the person's problem here
        return 0


def _human(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return f"{size} B"


def _module(value: Any) -> str:
    return (getattr(type(value), "__module__", "") or "").split(".")[0]


def list_variables(namespace: Mapping[str, Any]) -> str:
    """One line per variable: name, type, shape or length, memory. Functions and classes the person defined are
    listed apart, by signature."""
    rows: list[tuple[str, str, str, str]] = []
    defined: list[str] = []
    for name, value in sorted(namespace.items()):
        if hidden_name(name, value):
            continue
        if inspect.isfunction(value) or inspect.isclass(value):
            try:
                signature = str(inspect.signature(value)) if inspect.isfunction(value) else ""
            except (TypeError, ValueError):
                signature = "(…)"
            defined.append(f"{'class ' if inspect.isclass(value) else 'def '}{name}{signature}")
            continue
        rows.append((name, _kind(value), _size(value), _human(_memory(value))))
    if not rows and not defined:
        return "No variables yet in the notebook's namespace."
    width = [max(len(row[i]) for row in rows) if rows else 0 for i in range(3)]
    lines = [f"{n:<{width[0]}}  {k:<{width[1]}}  {s:<{width[2]}}  {m}".rstrip() for n, k, s, m in rows]
    if defined:
        lines += ["", "Functions and classes defined in the notebook:", *defined]
    return "\n".join(lines)


def _short_repr(value: Any, limit: int = _REPR_CHARS) -> str:
    if isinstance(value, bytes | bytearray | memoryview) and len(value) > limit:  # reprlib would repr it all first
        return f"{_short_repr(bytes(value[:limit]), limit)}… ({len(value):,} bytes in all)"
    shorter = reprlib.Repr()
    shorter.maxstring, shorter.maxother, shorter.maxlist, shorter.maxdict = 400, 400, 20, 20
    try:
        text = shorter.repr(value)
    except Exception as e:  # a __repr__ that raises: say so, the object is still described
        text = f"<repr failed: {type(e).__name__}: {e}>"
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"


def _value_of(key: Any, value: Any) -> str:
    return _HIDDEN_VALUE if isinstance(key, str) and _SECRET_NAME.search(key) else _short_repr(value, 400)


def _masked(head: Any) -> Any:
    """A DataFrame's first rows with the values of columns named like credentials replaced."""
    secret = [c for c in head.columns if isinstance(c, str) and _SECRET_NAME.search(c)]
    if not secret:
        return head
    head = head.copy()
    for column in secret:
        head[column] = _HIDDEN_VALUE
    return head


def _frame(value: Any, rows: int) -> list[str]:
    import pandas as pd  # already imported: the value is pandas'

    lines = [f"shape: {value.shape[0]:,} rows, {value.shape[1]:,} columns", "", "dtypes:"]
    lines += [f"  {column}: {dtype}" for column, dtype in value.dtypes.items()]
    nulls = value.isna().sum()
    if int(nulls.sum()):
        lines += ["", "nulls per column:"] + [f"  {c}: {int(n):,}" for c, n in nulls.items() if int(n)]
    with pd.option_context("display.max_columns", 40, "display.width", 200, "display.max_colwidth", 60):
        lines += ["", f"head({rows}):", _masked(value.head(rows)).to_string()]
        numeric = value.select_dtypes("number")
        if numeric.shape[1]:
            lines += ["", "describe() of the numeric columns:", numeric.describe().to_string()]
    return lines


def _series(value: Any, rows: int) -> list[str]:
    secret = isinstance(value.name, str) and _SECRET_NAME.search(value.name)
    head = _HIDDEN_VALUE if secret else value.head(rows).to_string()
    lines = [f"length: {len(value):,}", f"dtype: {value.dtype}", f"name: {value.name!r}",
             f"nulls: {int(value.isna().sum()):,}", "", f"head({rows}):", head]  # fmt: skip
    if value.dtype.kind in "iufc":
        lines += ["", "describe():", value.describe().to_string()]
    return lines


def _array(value: Any, rows: int) -> list[str]:
    lines = [f"shape: {value.shape}", f"dtype: {value.dtype}", f"memory: {_human(int(value.nbytes))}"]
    if value.size and value.dtype.kind in "iufb":
        import numpy as np  # already imported: the value is NumPy's

        finite = value[np.isfinite(value)] if value.dtype.kind == "f" else value
        if finite.size:
            lines.append(f"min {finite.min()!r}, max {finite.max()!r}, mean {finite.mean()!r}, std {finite.std()!r}")
        if value.dtype.kind == "f" and finite.size < value.size:
            lines.append(f"non-finite values (nan, inf): {value.size - finite.size:,}")
    with_np_print = _short_repr(value[:rows] if value.ndim else value)
    lines += ["", f"first {rows}:", with_np_print]
    return lines


def _container(value: Any, rows: int) -> list[str]:
    lines = [f"length: {len(value):,}"]
    if isinstance(value, dict):
        sample = list(value.items())[:rows]
        lines += [f"first {len(sample)} of {len(value):,} items:"]
        lines += [f"  {_short_repr(k, 200)}: {_value_of(k, v)}" for k, v in sample]
    else:
        sample = list(value)[:rows] if not isinstance(value, set | frozenset) else sorted(value, key=repr)[:rows]
        kinds = sorted({type(item).__name__ for item in list(value)[:1000]})
        lines += [f"item types: {', '.join(kinds) or '-'}", f"first {len(sample)}:"]
        lines += [f"  {_short_repr(item, 400)}" for item in sample]
    return lines


def describe_variable(name: str, value: Any, rows: int = 5) -> str:
    """``value`` described for the model: a DataFrame's shape, dtypes, nulls, head and describe(); a Series',
    an array's shape, dtype and summary statistics; a container's length and first items; anything else its type,
    docstring head and a bounded repr."""
    kind = type(value)
    header = f"{name}: {_kind(value)}"
    if _SECRET_NAME.search(name) and isinstance(value, str | bytes):
        return f"{header}\nlength: {len(value):,}\nvalue: {_HIDDEN_VALUE} (its name says it is a credential)"
    try:
        if _module(value) == "pandas" and kind.__name__ == "DataFrame":
            lines = _frame(value, rows)
        elif _module(value) == "pandas" and kind.__name__ == "Series":
            lines = _series(value, rows)
        elif _module(value) == "numpy" and kind.__name__ == "ndarray":
            lines = _array(value, rows)
        elif isinstance(value, dict | list | tuple | set | frozenset):
            lines = _container(value, rows)
        else:
            doc = (inspect.getdoc(value) or "").strip().splitlines()
            lines = [f"type: {kind.__module__}.{kind.__qualname__}"]
            if doc and kind.__module__ != "builtins":
                lines.append(f"doc: {doc[0][:300]}")
            if callable(value):
                with contextlib.suppress(TypeError, ValueError):  # a builtin without a signature
                    lines.append(f"signature: {name}{inspect.signature(value)}")
            lines.append(f"repr: {_short_repr(value)}")
    except Exception as e:  # the object's own methods failed (a broken frame, a lazy proxy): what we can say
        lines = [f"could not be described fully ({type(e).__name__}: {e})", f"repr: {_short_repr(value)}"]
    return "\n".join([header, *lines])
