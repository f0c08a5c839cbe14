"""ToolDef schemas, parameter validation, CompositeExecutor ownership and the registry catalog."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import Field

from zeph_nb.errors import ConfigError, ToolError, ToolErrorCategory
from zeph_nb.tools import CompositeExecutor, ToolArgs, ToolCall, ToolDef, ToolExecutor, ToolOutput, ToolRegistry
from zeph_nb.tools.base import validate_params
from zeph_nb.tools.files.args import FILE_TOOLS


class EchoArgs(ToolArgs):
    text: str = Field(description="What to say back")
    times: int = Field(1, ge=1, le=5)


ECHO = ToolDef("echo", "Say something back.", EchoArgs)


class Echo:
    """A tiny executor written the way a user would write their own."""

    def __init__(self, tag: str, name: str = "echo") -> None:
        self.tag, self.name, self.calls = tag, name, 0

    def tool_definitions(self) -> Sequence[ToolDef]:
        return [ToolDef(self.name, "Say something back.", EchoArgs)]

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id != self.name:
            return None
        self.calls += 1
        args = validate_params(self.tool_definitions()[0], call.params)
        assert isinstance(args, EchoArgs)
        return ToolOutput(self.name, f"{self.tag}:{args.text * args.times}", call_id=call.call_id)

    def requires_confirmation(self, call: ToolCall) -> bool:
        return self.tag == "careful"


def test_schema_comes_from_the_args_model() -> None:
    schema = ECHO.input_schema
    assert schema["type"] == "object"
    assert schema["required"] == ["text"]
    assert schema["properties"]["text"] == {"type": "string", "description": "What to say back"}
    assert schema["properties"]["times"] == {"type": "integer", "default": 1, "minimum": 1, "maximum": 5}
    assert schema["additionalProperties"] is False
    assert "title" not in str(schema)


def test_a_parameter_named_title_survives_title_stripping() -> None:
    class NoteArgs(ToolArgs):
        title: str

    assert NoteArgs.model_json_schema()["properties"]["title"]["title"] == "Title"
    assert ToolDef("note", "n", NoteArgs).input_schema["properties"] == {"title": {"type": "string"}}


def test_every_file_tool_has_a_closed_schema() -> None:
    for tool in FILE_TOOLS:
        assert tool.input_schema["additionalProperties"] is False, tool.name
        assert tool.description.endswith("."), tool.name


@pytest.mark.parametrize(
    ("params", "category", "fragments"),
    [
        ({}, ToolErrorCategory.INVALID_PARAMETERS, ["'text' is required"]),
        ({"text": "a", "extra": 1}, ToolErrorCategory.INVALID_PARAMETERS, ["'extra' is not a parameter"]),
        ({"text": "a", "times": 9}, ToolErrorCategory.INVALID_PARAMETERS, ["'times'", "less than or equal to 5"]),
        ({"text": 5}, ToolErrorCategory.TYPE_MISMATCH, ["'text'", "valid string"]),
        ({"text": "a", "times": "x"}, ToolErrorCategory.TYPE_MISMATCH, ["'times'", "'x'"]),
        # Every bad field is reported at once, and a missing one makes it an InvalidParameters error.
        ({"times": "x", "bogus": 1}, ToolErrorCategory.INVALID_PARAMETERS, ["'text'", "'times'", "'bogus'"]),
    ],
)
def test_validation_errors(params: dict[str, object], category: ToolErrorCategory, fragments: list[str]) -> None:
    with pytest.raises(ToolError) as info:
        validate_params(ECHO, params)
    assert info.value.category is category
    for fragment in fragments:
        assert fragment in info.value.message


def test_params_must_be_an_object() -> None:
    with pytest.raises(ToolError, match="must be a JSON object"):
        validate_params(ECHO, ["text"])  # type: ignore[arg-type]  # the model sent an array


async def test_composite_runs_each_call_on_the_toolset_that_defines_it() -> None:
    first, other = Echo("first"), Echo("other", name="shout")
    composite = CompositeExecutor([first, other])
    assert isinstance(first, ToolExecutor)
    assert [t.name for t in composite.tool_definitions()] == ["echo", "shout"]
    assert (await composite.execute(ToolCall("echo", {"text": "hi"}))).summary == "first:hi"
    assert (await composite.execute(ToolCall("shout", {"text": "yo", "times": 2}))).summary == "other:yoyo"


def test_two_toolsets_may_not_define_one_name() -> None:
    # Which one the model reached would depend on an order nobody sees.
    with pytest.raises(ConfigError, match="two toolsets define a tool named 'echo'"):
        CompositeExecutor([Echo("first"), Echo("second")])


async def test_composite_unknown_tool_is_tool_not_found() -> None:
    composite = CompositeExecutor([Echo("a")])
    with pytest.raises(ToolError) as info:
        await composite.execute(ToolCall("rm_everything", {}))
    assert info.value.category is ToolErrorCategory.TOOL_NOT_FOUND
    assert "available tools: echo" in info.value.message


async def test_composites_nest() -> None:
    inner = CompositeExecutor([Echo("inner")])
    outer = CompositeExecutor([inner, Echo("outer", name="shout")])
    assert (await outer.execute(ToolCall("shout", {"text": "a"}))).summary == "outer:a"
    assert (await outer.execute(ToolCall("echo", {"text": "b"}))).summary == "inner:b"


def test_a_nested_composite_finds_an_owner_without_listing_the_toolsets_after_it() -> None:
    # Every call asks for its owner (to run it, and whether it wants confirmation): a toolset after the owner, in
    # a nested composite too, must not be listed for it (the skills toolset scans its folders to list).
    listed: list[str] = []

    class Counted(Echo):
        def tool_definitions(self) -> Sequence[ToolDef]:
            listed.append(self.name)
            return super().tool_definitions()

    inner = CompositeExecutor([Echo("first"), Counted("later", name="shout")], hidden={"hidden": "x"})
    outer = CompositeExecutor([inner, Echo("outer", name="whisper")])
    listed.clear()
    assert outer.owner_of("echo") is inner
    outer.requires_confirmation(ToolCall("echo"))
    assert listed == []
    assert outer.owner_of("shout") is inner and outer.owner_of("whisper") is not inner
    assert outer.owner_of("hidden") is None and outer.owner_of("nobody") is None


def test_composite_asks_the_owner_about_confirmation() -> None:
    composite = CompositeExecutor([Echo("careful"), Echo("relaxed", name="shout")])
    assert composite.requires_confirmation(ToolCall("echo"))
    assert not composite.requires_confirmation(ToolCall("shout"))
    assert not composite.requires_confirmation(ToolCall("nobody"))


def test_registry_catalog_and_schemas() -> None:
    registry = ToolRegistry([ECHO, *FILE_TOOLS])
    assert registry.names[:3] == ["echo", "read", "write"] and "grep" in registry and len(registry) == 11
    with pytest.raises(ConfigError, match="two toolsets define a tool named"):
        registry.register(ECHO)
    catalog = registry.render_catalog()
    assert "## echo\nSay something back.\n- text (string, required): What to say back" in catalog
    assert "- times (integer, optional, default 1)" in catalog
    assert "- limit (integer | null, optional, default None): Maximum number of lines to return" in catalog
    assert registry.schemas()[0] == {
        "name": "echo",
        "description": "Say something back.",
        "input_schema": ECHO.input_schema,
    }


def test_error_output_carries_feedback() -> None:
    call = ToolCall("read", {"path": "x"}, call_id="c9")
    out = ToolOutput.from_error(call, ToolError(ToolErrorCategory.TIMEOUT, "took too long"))
    assert out.is_error and out.call_id == "c9"
    assert out.text_for_model.startswith("[tool_error]\ncategory: timeout\nerror: took too long")


def test_tool_definitions_refuse_contradictory_gate_metadata() -> None:
    class Args(ToolArgs):
        path: str

    with pytest.raises(ValueError, match="cannot be cacheable"):
        ToolDef("w", "writes", Args, mutates=True, cacheable=True)
    with pytest.raises(ValueError, match="not parameters"):
        ToolDef("r", "reads", Args, subject=("file",))


def test_one_summary_of_a_call_for_cards_audit_and_dashboard() -> None:
    from zeph_nb.tools.base import call_summary

    assert call_summary({"command": "ls -la", "timeout": 5}) == "ls -la"
    assert call_summary('{"path": "notes.txt"}') == "notes.txt"  # the audit log's JSON text
    assert call_summary({"source_path": "a.txt", "destination_path": "b.txt"}) == "a.txt → b.txt"
    assert call_summary({"x": 1}) == '{"x": 1}' and call_summary("not json") == "not json"
    assert call_summary({"code": "df.head()", "timeout": 5}) == "df.head()"  # run_python, propose_cell
