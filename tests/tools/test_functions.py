"""@zeph_nb.tool: the schema and description read off a typed function, what it refuses at decoration, the
registry the %%zeph agent offers, and how return values read for the model."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.tools.function_toolset import result_text
from zeph_nb.tools.functions import FunctionTool, pick, registered_tools, unregister


def made(fn: Callable[..., Any]) -> FunctionTool:
    found: FunctionTool = fn.__zeph_tool__  # type: ignore[attr-defined]
    return found


def test_the_schema_and_description_come_from_the_signature_and_docstring() -> None:
    @zeph_nb.tool
    def scale(values: list[float], factor: Annotated[float, Field(description="multiply by this", gt=0)] = 2.0,
              unit: Literal["m", "cm"] = "m") -> list[float]:  # fmt: skip
        """Scale measurements.

        Multiplies each value.

        Args:
            values: the measurements
            factor: the docstring's words lose to Field(description=...)

        Returns:
            the scaled values
        """
        return [v * factor for v in values]

    assert scale([1.0, 2.0], 3.0) == [3.0, 6.0]  # still the person's function, called as before
    tool = made(scale).definition
    assert tool.name == "scale" and not tool.mutates and not tool.cacheable
    assert tool.description == "Scale measurements.\n\nMultiplies each value.\n\nReturns: the scaled values"
    schema = tool.input_schema
    assert schema["required"] == ["values"] and schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["values"] == {"description": "the measurements", "items": {"type": "number"}, "type": "array"}
    assert props["factor"]["description"] == "multiply by this" and props["factor"]["exclusiveMinimum"] == 0
    assert props["unit"]["enum"] == ["m", "cm"] and props["unit"]["default"] == "m"


def test_numpy_docstrings_and_a_docstring_without_sections() -> None:
    @zeph_nb.tool(name="lookup-user", mutates=True, network=True, subject="user", timeout=5)
    async def find(user: str, limit: int = 3) -> str:
        """Find a user.

        Parameters
        ----------
        user
            login name
        """
        return user

    tool = made(find)
    assert tool.is_async and tool.timeout == 5 and tool.name == "lookup-user"
    assert tool.definition.description == "Find a user."
    assert tool.definition.input_schema["properties"]["user"]["description"] == "login name"
    assert tool.definition.subject == ("user",) and tool.definition.mutates and tool.definition.network

    @zeph_nb.tool(description="Said here instead.")
    def plain(n: int) -> int:
        """Ignored: description= wins."""
        return n

    assert made(plain).definition.description == "Said here instead."


class Thing:
    pass


def _gen(n: int) -> Any:
    yield n


@pytest.mark.parametrize(
    ("define", "says"),
    [
        (lambda: zeph_nb.tool(lambda x: x), "not 1-64 letters"),
        (lambda: zeph_nb.tool(name="has space")(lambda x: x), "not 1-64 letters"),
        (lambda: zeph_nb.tool(name="x" * 65)(lambda x: x), "not 1-64 letters"),
        (lambda: zeph_nb.tool(_untyped), "parameters without a type hint: b"),
        (lambda: zeph_nb.tool(_star), "*rest cannot be a tool parameter"),
        (lambda: zeph_nb.tool(_kwargs), "**options cannot be a tool parameter"),
        (lambda: zeph_nb.tool(cacheable=True, mutates=True)(_ok), "cannot be cacheable"),
        (lambda: zeph_nb.tool(_thing), "a model could not send these arguments as JSON"),
        (lambda: zeph_nb.tool(_gen), "a generator cannot be a tool"),
        (lambda: zeph_nb.tool(subject="nope")(_ok), "subject ['nope'] names no parameter"),
        (lambda: zeph_nb.tool(_json), "'json' cannot be used"),
        (lambda: zeph_nb.tool("ok"), "name='ok'"),
        (lambda: zeph_nb.tool(timeout=0)(_ok), "timeout must be a positive number"),
    ],
)
def test_what_a_model_could_not_call_is_refused_at_decoration(define: Callable[[], Any], says: str) -> None:
    with pytest.raises(ConfigError, match=_escaped(says)):
        define()
    assert registered_tools() == []


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def _ok(a: int) -> int:
    return a


def _untyped(a: int, b) -> int:  # type: ignore[no-untyped-def]
    return a


def _star(a: int, *rest: int) -> int:
    return a


def _kwargs(a: int, **options: int) -> int:
    return a


def _thing(a: Thing) -> str:
    return ""


def _json(json: str) -> str:
    return json


def test_the_registry_replaces_a_redefined_function_and_refuses_a_second_one_of_that_name() -> None:
    def first() -> Callable[..., Any]:
        @zeph_nb.tool
        def area(w: float, h: float) -> float:
            return w * h

        return area

    a, b = first(), first()  # the same function defined again, as a re-run cell does
    assert registered_tools() == [made(b)] and made(a) is not made(b)

    def other(w: float) -> float:
        return w

    with pytest.raises(ConfigError, match=r"the tool name 'area' is taken by .*first\.<locals>\.area"):
        zeph_nb.tool(name="area")(other)
    zeph_nb.tool(name="area", register=False)(other)  # only for Agent(tools=[...]): no conflict
    assert pick(None) == [made(b)] and pick("area") == [made(b)] and pick(" area , ") == [made(b)]
    with pytest.raises(ConfigError, match=_escaped("no @zeph_nb.tool function is called 'volume'; registered: area")):
        pick("area,volume")
    unregister("area")
    with pytest.raises(ConfigError, match="registered: none yet"):
        pick(["area"])


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Reading(BaseModel):
    value: float
    unit: str


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("as it is\n", "as it is\n"),
        (None, "None (the function returned nothing)"),
        (42, "42"),
        (True, "true"),
        ({"a": [1, 2], "é": None}, '{"a": [1, 2], "é": null}'),
        ((1, "two"), '[1, "two"]'),
        (Point(1, 2), '{"x": 1, "y": 2}'),
        (Reading(value=1.5, unit="V"), '{"value": 1.5, "unit": "V"}'),
        ({(1, 2): "tuple keys"}, "{(1, 2): 'tuple keys'}"),  # JSON cannot carry them: the repr
        (Thing, repr(Thing)),
        ({1, 2}, "{1, 2}"),
    ],
)
def test_return_values_read_as_text_json_or_repr(value: Any, text: str) -> None:
    assert result_text(value) == text


def test_a_long_result_is_cut_with_a_note() -> None:
    text = result_text("x" * 100, limit=10)
    assert text.startswith("x" * 10 + "\n[cut: the function returned 100 characters; the first 10 are kept]")


def test_a_function_named_like_a_built_in_is_refused_when_the_agent_registers_it(tmp_path: Path) -> None:
    """One registry takes every tool: a name a built-in has is refused there, with the fix, not looked up in a list
    of built-in names at decoration."""
    taken = zeph_nb.tool(name="bash")(_ok)
    try:
        with pytest.raises(
            ConfigError, match=r"named 'bash' .*give yours another name, e.g. @zeph_nb.tool\(name='my_bash'\)"
        ):
            zeph_nb.Agent(Settings().model_copy(update={"home": tmp_path / "home"}), zeph_nb.ScriptedProvider(["ok"]),
                          workdir=tmp_path, tools=[taken])  # fmt: skip
    finally:
        zeph_nb.tools.unregister("bash")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        # read_overflow is added by the chain only when no toolset offers it: a function of that name once took its
        # place unseen.
        ("read_overflow", r"named 'read_overflow' \(your function .* and OverflowExecutor\); give yours another name, "
                          r"e.g. @zeph_nb.tool\(name='my_read_overflow'\)"),
        ("Bash", r"offers a tool named 'Bash', which only its case tells from the tool 'bash' \(ShellExecutor\).*"
                 r"@zeph_nb.tool\(name='my_bash'\)"),
        ("READ_OVERFLOW", r"'READ_OVERFLOW', which only its case tells from the tool 'read_overflow'"),
    ],
)  # fmt: skip
def test_a_function_may_not_take_a_built_ins_name_in_any_case(tmp_path: Path, name: str, says: str) -> None:
    from zeph_nb.gates.chain import build_chain
    from zeph_nb.store import Store

    taken = zeph_nb.tool(name=name)(_ok)
    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    store = Store(settings, flusher=False)
    try:
        with pytest.raises(ConfigError, match=says):
            build_chain(settings, workdir=tmp_path, store=store, tools=[taken])
        with pytest.raises(ConfigError, match=says):
            zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(["ok"]), workdir=tmp_path, store=store, tools=[taken])
    finally:
        store.close()
        zeph_nb.tools.unregister(name)


def test_a_function_offered_later_under_a_built_ins_name_is_refused_before_the_run(tmp_path: Path) -> None:
    """The %%zeph agent offers the registered functions again before each run (refresh_tools): a read_overflow
    among them is refused then, and the built-in stays the one the model reaches."""
    from zeph_nb.gates.chain import build_chain
    from zeph_nb.store import Store
    from zeph_nb.tools.overflow import READ_OVERFLOW
    from zeph_nb.tools.toolsets import function_toolset

    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    functions = function_toolset(settings)
    store = Store(settings, flusher=False)
    try:
        chain = build_chain(settings, workdir=tmp_path, store=store, tools=[functions])
        functions.offer([made(zeph_nb.tool(name="read_overflow", register=False)(_ok))])
        with pytest.raises(ConfigError, match=r"my_read_overflow"):
            chain.refresh_tools()
        assert chain.tool("read_overflow") is READ_OVERFLOW  # the set in force stays
    finally:
        store.close()
