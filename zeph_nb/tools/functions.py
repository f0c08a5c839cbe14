"""Your own Python functions as tools: ``@zeph_nb.tool``.

The decorator reads a typed function once: its signature becomes the tool's pydantic argument model (so the schema
the model is shown and the check of what it sends are one thing, as for the built-in tools), its docstring the
description, and an ``Args:`` / ``Parameters`` section of it each parameter's description (an
``Annotated[..., Field(description=...)]`` says it too, and wins). Anything a model could not call is refused here,
when the person decorates, not later in a run: a parameter without a type hint, ``*args`` / ``**kwargs``, a type
that JSON cannot carry, a bad name, a tool that changes things and is cacheable.

The function comes back unchanged (the person calls it as before); its ``FunctionTool`` hangs on it as
``__zeph_tool__`` and, unless ``register=False``, joins this process's registry, which the ``%%zeph`` agent offers
(``pick``). ``tools/function_toolset.py`` runs them.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, overload

from pydantic import ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from zeph_nb.errors import ConfigError
from zeph_nb.tools.base import ToolArgs, ToolDef

__all__ = ["FunctionTool", "as_function_tool", "function_tool", "pick", "registered_tools", "tool", "unregister"]

F = TypeVar("F", bound=Callable[..., Any])

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # what the Anthropic and OpenAI APIs accept as a tool name
ATTRIBUTE = "__zeph_tool__"


class FunctionArgs(ToolArgs):
    """Base of the argument models made from signatures: a parameter may be called ``model_name``."""

    model_config = ConfigDict(extra="forbid", frozen=True, protected_namespaces=())


@dataclass(frozen=True)
class FunctionTool:
    """A Python function as a tool: its definition (for the model and the gates) and how to call it."""

    fn: Callable[..., Any]
    definition: ToolDef
    is_async: bool
    positional: tuple[str, ...] = ()  # positional-only parameters, passed by position
    timeout: float | None = None  # seconds; None: [tools] function_timeout_secs

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def origin(self) -> str:
        """Where the function was defined, ``module.qualname``: what error messages and ``%zeph tools`` name."""
        return f"{getattr(self.fn, '__module__', '?')}.{getattr(self.fn, '__qualname__', repr(self.fn))}"


_REGISTRY: dict[str, FunctionTool] = {}


@overload
def tool(fn: F, /) -> F: ...
@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    mutates: bool = False,
    network: bool = False,
    cacheable: bool = False,
    subject: str | Sequence[str] = (),
    subject_kind: Literal["text", "path", "url"] = "text",
    timeout: float | None = None,
    register: bool = True,
) -> Callable[[F], F]: ...
def tool(fn: Any = None, /, **options: Any) -> Any:
    """Make a typed function a tool the agent may call: ``@zeph_nb.tool`` or ``@zeph_nb.tool(mutates=True, ...)``.

    ``name`` (default: the function's), ``description`` (default: the docstring); ``mutates`` (it changes things:
    each call asks unless a rule allows it, never cached or retried), ``network`` (it reaches the network),
    ``cacheable`` (same arguments, same answer: results are reused within a run), ``subject`` (the parameter(s)
    permission rules match, read as ``subject_kind`` text, paths or URLs), ``timeout`` (seconds; default
    ``[tools] function_timeout_secs``), ``register=False`` (only for ``Agent(tools=[...])``, not every ``%%zeph``).
    The function is returned unchanged.
    """
    if fn is None:
        return lambda f: tool(f, **options)
    if isinstance(fn, str):
        raise ConfigError(f"@zeph_nb.tool({fn!r}): give the name as a keyword, @zeph_nb.tool(name={fn!r})")
    made = function_tool(fn, **options)
    if options.get("register", True):
        _register(made)
    with contextlib.suppress(AttributeError, TypeError):  # no __dict__ to hang it on: still offered by name
        setattr(fn, ATTRIBUTE, made)
    return fn


def function_tool(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    mutates: bool = False,
    network: bool = False,
    cacheable: bool = False,
    subject: str | Sequence[str] = (),
    subject_kind: Literal["text", "path", "url"] = "text",
    timeout: float | None = None,
    register: bool = True,
) -> FunctionTool:
    """The ``FunctionTool`` for ``fn`` (what ``@tool`` makes), without registering it. Raises ConfigError saying
    what to change when ``fn`` cannot be a tool."""
    if not callable(fn):
        raise ConfigError(f"@zeph_nb.tool: {fn!r} is not a function")
    name = name if name is not None else getattr(fn, "__name__", "")
    where = f"@zeph_nb.tool on {getattr(fn, '__qualname__', repr(fn))}"
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError(f"{where}: the tool name {name!r} is not 1-64 letters, digits, _ or -; "
                          "give it one with @zeph_nb.tool(name=...)")  # fmt: skip
    if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
        raise ConfigError(f"{where}: a generator cannot be a tool; return the whole result (a str, a list, ...)")
    if cacheable and mutates:
        raise ConfigError(f"{where}: a tool that changes things (mutates=True) cannot be cacheable")
    if timeout is not None and not timeout > 0:
        raise ConfigError(f"{where}: timeout must be a positive number of seconds, not {timeout!r}")
    text, params = _docstring(fn)
    args_model, positional = _args_model(fn, name, params, where)
    subjects = (subject,) if isinstance(subject, str) else tuple(subject)
    unknown = [s for s in subjects if s not in args_model.model_fields]
    if unknown:
        raise ConfigError(f"{where}: subject {unknown} names no parameter of it; parameters: "
                          f"{', '.join(args_model.model_fields) or 'none'}")  # fmt: skip
    definition = ToolDef(
        name,
        description if description is not None else (text or f"Call the Python function {name}."),
        args_model,
        subject=subjects,
        subject_kind=subject_kind,
        mutates=mutates,
        cacheable=cacheable,
        network=network,
    )
    return FunctionTool(fn, definition, inspect.iscoroutinefunction(fn), positional, timeout)


def _docstring(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}): the docstring as written when it has no parameter section, else
    its text without that section (the parameters' words go into the schema instead)."""
    doc = inspect.getdoc(fn) or ""
    if not doc:
        return "", {}
    import docstring_parser

    try:
        parsed = docstring_parser.parse(doc)
    except docstring_parser.ParseError:
        return doc, {}
    params = {p.arg_name: p.description for p in parsed.params if p.description}
    if not params:
        return doc, {}
    parts = [parsed.short_description, parsed.long_description]
    if parsed.returns is not None and parsed.returns.description:
        parts.append("Returns: " + parsed.returns.description)
    return "\n\n".join(part for part in parts if part) or doc, params


def _args_model(
    fn: Callable[..., Any], name: str, docs: dict[str, str], where: str
) -> tuple[type[ToolArgs], tuple[str, ...]]:
    try:
        signature = inspect.signature(fn)
        hints = typing.get_type_hints(fn, include_extras=True)
    except (NameError, TypeError, ValueError) as e:  # a forward reference that names nothing, a builtin
        raise ConfigError(f"{where}: its signature cannot be read ({e})") from None
    fields: dict[str, Any] = {}
    positional: list[str] = []
    missing: list[str] = []
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            star = "*" if param.kind is param.VAR_POSITIONAL else "**"
            raise ConfigError(f"{where}: {star}{param.name} cannot be a tool parameter (a model sends named "
                              "arguments, each with a type); list the parameters one by one")  # fmt: skip
        if param.name.startswith("_") or hasattr(FunctionArgs, param.name):
            raise ConfigError(f"{where}: the parameter name {param.name!r} cannot be used in a tool's schema "
                              f"(a leading _ or a pydantic model attribute); rename it")  # fmt: skip
        if param.name not in hints:
            missing.append(param.name)
            continue
        if param.kind is param.POSITIONAL_ONLY:
            positional.append(param.name)
        hint = hints[param.name]
        default = ... if param.default is param.empty else param.default
        doc = docs.get(param.name)
        fields[param.name] = (hint, Field(default, description=doc) if doc and not _described(hint) else default)
    if missing:
        raise ConfigError(f"{where}: parameters without a type hint: {', '.join(missing)}; the schema the model "
                          "is shown is made from the hints (for example def f(name: str, n: int = 3))")  # fmt: skip
    model_name = "".join(part.capitalize() for part in re.split(r"[_-]+", name) if part) + "Args"
    try:
        model = create_model(model_name, __base__=FunctionArgs, __module__=fn.__module__, **fields)
        model.model_json_schema()
    except Exception as e:  # pydantic: a type it cannot validate, or one with no JSON Schema
        first = str(e).splitlines()[0]
        raise ConfigError(f"{where}: a model could not send these arguments as JSON ({first}); use types JSON "
                          "carries (str, int, float, bool, list, dict, Literal, a pydantic model), e.g. a "
                          "variable's name as str instead of the object") from None  # fmt: skip
    return model, tuple(positional)


def _described(hint: Any) -> bool:
    """Whether ``Annotated[..., Field(description=...)]`` already describes the parameter."""
    if typing.get_origin(hint) is not Annotated:
        return False
    return any(isinstance(meta, FieldInfo) and meta.description for meta in hint.__metadata__)


# -- the registry: this process's decorated functions ------------------------------------------------------


def _register(made: FunctionTool) -> None:
    taken = _REGISTRY.get(made.name)
    if taken is not None and taken.origin != made.origin:  # the same function defined again (a re-run cell) replaces
        raise ConfigError(f"@zeph_nb.tool on {made.origin}: the tool name {made.name!r} is taken by {taken.origin}; "
                          f"give one of them another name (@zeph_nb.tool(name=...)), or "
                          f"zeph_nb.tools.unregister({made.name!r}) first")  # fmt: skip
    _REGISTRY[made.name] = made


def registered_tools() -> list[FunctionTool]:
    """The functions ``@zeph_nb.tool`` registered in this process, in the order they were first decorated."""
    return list(_REGISTRY.values())


def unregister(*names: str) -> None:
    """Take functions out of the registry (by tool name); unknown names are ignored."""
    for name in names:
        _REGISTRY.pop(name, None)


def pick(names: str | Sequence[str] | None) -> list[FunctionTool]:
    """The registered functions called ``names`` (a list, or comma-separated as ``%%zeph --tools a,b`` takes them;
    None: all of them); an unknown name is a ConfigError listing the known ones."""
    if names is None:
        return registered_tools()
    if isinstance(names, str):
        names = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in names if name not in _REGISTRY]
    if unknown:
        known = ", ".join(_REGISTRY) or "none yet (decorate a function with @zeph_nb.tool)"
        raise ConfigError(f"--tools: no @zeph_nb.tool function is called {', '.join(map(repr, unknown))}; "
                          f"registered: {known}")  # fmt: skip
    return [_REGISTRY[name] for name in dict.fromkeys(names)]


def as_function_tool(value: Any) -> FunctionTool | None:
    """The FunctionTool of a decorated function (or a FunctionTool itself); None for anything else."""
    if isinstance(value, FunctionTool):
        return value
    made = getattr(value, ATTRIBUTE, None)
    return made if isinstance(made, FunctionTool) else None
