"""The values every tool speaks in: ToolDef, ToolCall, ToolOutput, and the ToolExecutor protocol.

A tool is defined once, by a pydantic model of its arguments. That model validates what the model sends and
produces the JSON Schema the model is shown, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from zeph_nb.errors import ToolError, ToolErrorCategory, ToolErrorFeedback

if TYPE_CHECKING:
    from zeph_nb.shell import ShellAnalysis, ShellClassifier
    from zeph_nb.tools.scope import CommandScope

__all__ = [
    "BINARY_HINT",
    "BuiltinArgs",
    "SingleToolExecutor",
    "SubjectKind",
    "Tool",
    "ToolArgs",
    "ToolCall",
    "ToolDef",
    "ToolExecutor",
    "ToolOutput",
    "checked_args",
    "validate_params",
]


class ToolArgs(BaseModel):
    """Base for every tool's argument model: unknown parameters are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class BuiltinArgs(ToolArgs):
    """Base for zeph-nb's own tools' argument models: pydantic builds each one's validator and schema on its first
    use (the tool list of the first request, the tool's first call), not at import, where the ~16 of them were
    ~10 ms of every new Agent. Only for models the tests build: a broken one would fail at first use, not import
    (so not for ToolArgs itself, which people's tools subclass)."""

    model_config = ConfigDict(defer_build=True)


# What a refusal to read a binary file says to do instead: "trying again will fail the same way" alone left the
# model nowhere to go.
BINARY_HINT = "read shows text only; run `file` on it to see what it is, or `xxd <path> | head` for its first bytes"

SubjectKind = Literal["command", "path", "url", "text", "code"]


@dataclass(frozen=True)
class ToolDef:
    """A tool as the model sees it (name, description, JSON Schema of its arguments) and as the gates see it.

    The gates read the rest: ``subject`` names the parameters permission rules are matched against, and
    ``subject_kind`` how to read them (a ``path`` is made canonical, a ``command`` is split into simple
    commands, ``code`` is matched exactly with ``*`` a name only: ``code_matches``). ``mutates`` marks tools
    that can change the world (never cached, never retried, asked about under a provisional trust level);
    ``cacheable`` opts a read-only tool into the result cache; ``network`` marks tools whose results do not
    depend on the workspace.
    """

    name: str
    description: str
    args_model: type[ToolArgs]
    subject: tuple[str, ...] = ()
    subject_kind: SubjectKind = "text"
    mutates: bool = False
    cacheable: bool = False
    network: bool = False
    # The executor's requires_confirmation is asked even when a command line's parse already said "allow" (for a
    # tool whose other arguments can make the same text do more: send-keys).
    own_confirmation: bool = False
    # Runs in the person's kernel process (run_python): outside every OS sandbox, with all the kernel can reach.
    # Such a call asks unless a configured rule allows it; an earlier "Always allow" never does, nor is one offered.
    in_kernel: bool = False
    # Where a tool from outside comes from: an MCP server's (server, its own name for the tool), for the audit row.
    origin: tuple[str, str] | None = None
    # -- what the gates, cards, filters and undo read: one place per tool, never a table keyed by its name --------
    # The parameters naming the paths the call changes: undo snapshots them before it runs and restores them on
    # ``%zeph undo``; provenance marks them as written by the agent.
    writes: tuple[str, ...] = ()
    # Acts on everything under the folder it names: "reads" (grep, find_path) or "changes" (delete_path). A deny
    # rule on a path inside the folder then refuses the call, though the call names only the folder.
    walks: Literal["", "reads", "changes"] = ""
    # Its output goes through the output filters (a command's log, a test run); every tool's is redacted and capped.
    filtered: bool = False
    # What the approval card says before the subject ("This will write:"); empty says "This will run:".
    verb: str = ""
    # What the file the first of ``writes`` names becomes, from its text now and the call's parameters (None: the
    # call will fail): the approval card shows the change as a diff, for a person approves content, not a path.
    becomes: Callable[[str, Mapping[str, Any]], str | None] | None = field(default=None, compare=False, repr=False)
    # Why the tool asks, in a person's words, from its subjects (the approval card's "why"); None: "`name` asks
    # before every call".
    explain: Callable[[Sequence[str]], str] | None = field(default=None, compare=False, repr=False)
    # What a successful call is worth to the task (the utility score's gain, 0..1).
    utility: float = 0.5
    # The ``[tools]`` setting that turns it off (``shell_enabled``); empty: only ``[tools] disabled`` does.
    enabled_by: str = ""
    # Other names a permission rule may call it by (the reference agent's "shell" for bash).
    aliases: tuple[str, ...] = ()
    # Runs a command line (its subject): classified, contained in the OS sandbox, its exit code recorded.
    runs_commands: bool = False
    # Acts on another machine (the ssh or container backend): asks unless a rule allows it, whatever its parse.
    remote: bool = False

    def __post_init__(self) -> None:
        if self.cacheable and self.mutates:
            raise ValueError(f"tool {self.name!r}: a tool that changes things cannot be cacheable")
        unknown = [name for name in (*self.subject, *self.writes) if name not in self.args_model.model_fields]
        if unknown:
            raise ValueError(f"tool {self.name!r}: {unknown} are not parameters of {self.args_model.__name__}")
        if self.writes and not self.mutates:
            raise ValueError(f"tool {self.name!r}: a tool that writes {self.writes} changes things (mutates=True)")
        if not 0.0 <= self.utility <= 1.0:
            raise ValueError(f"tool {self.name!r}: utility is a share between 0 and 1, not {self.utility}")

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the arguments, without pydantic's ``title`` noise (it costs tokens and says nothing)."""
        schema: dict[str, Any] = _strip_titles(self.args_model.model_json_schema())
        return schema


# The spec of one tool; ``ToolDef`` is its first name, kept for the plugins that use it.
Tool = ToolDef


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            key: _strip_titles(value)
            for key, value in node.items()
            # A property may itself be named "title"; only drop the annotation, never a key of "properties".
            if not (key == "title" and isinstance(value, str))
        }
    if isinstance(node, list):
        return [_strip_titles(item) for item in node]
    return node


def _new_call_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class ToolCall:
    """One request to run a tool. ``caller_id`` names who asked (a conversation, a person, a test)."""

    tool_id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    call_id: str = field(default_factory=_new_call_id)
    caller_id: str | None = None
    # Folders outside the sandbox's default that the gates cleared for this call (a person approved a write
    # there, or an earlier "Always allow" did): the shell's sandbox makes them writable for this call only.
    opened_paths: tuple[str, ...] = ()
    # Set when a helper model ([gates.retry] parameter_reformat_provider) wrote these parameters, not the model
    # the person is talking to: the approval card and the audit row say so.
    rewritten_by: str | None = None
    # What the gates already worked out, so the executor does not do it again: the validated arguments (used only
    # when they are an instance of the tool's own model) and a command line's parse, with the key of the
    # classifier that made it (used only by an executor whose classifier has the same key).
    args: ToolArgs | None = field(default=None, compare=False, repr=False)
    analysis: tuple[str, ShellAnalysis] | None = field(default=None, compare=False, repr=False)
    # ... and a command's scope (sandbox, network hosts, environment), worked out from that same parse.
    scope: CommandScope | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ToolOutput:
    """What a tool returned.

    ``summary`` is the text the model reads. ``raw`` is the structured envelope kept for audit and UI (for the
    shell ``{stdout, stderr, exit_code, truncated}``, for a file read its path and content). ``error`` is set when
    the call failed; the model then reads ``error.format_for_llm()`` instead of the summary.
    """

    tool_name: str
    summary: str
    raw: Mapping[str, Any] = field(default_factory=dict)
    call_id: str | None = None
    error: ToolErrorFeedback | None = None
    exit_code: int | None = None
    truncated: bool = False

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @property
    def text_for_model(self) -> str:
        return self.error.format_for_llm() if self.error is not None else self.summary

    @classmethod
    def from_error(cls, call: ToolCall, error: ToolError) -> ToolOutput:
        """The value a failed call turns into at the executor boundary."""
        return cls(
            tool_name=call.tool_id,
            summary=error.message,
            raw={**error.details, "error": error.message, "category": error.category.label},
            call_id=call.call_id,
            error=error.feedback,
            exit_code=error.details.get("exit_code"),
            truncated=bool(error.details.get("truncated", False)),
        )


@runtime_checkable
class ToolExecutor(Protocol):
    """Something that runs tools. ``execute`` returns None for a tool it does not own."""

    def tool_definitions(self) -> Sequence[ToolDef]: ...

    async def execute(self, call: ToolCall) -> ToolOutput | None: ...

    def requires_confirmation(self, call: ToolCall) -> bool: ...


class SingleToolExecutor:
    """Base for an executor that owns exactly one tool: ``execute`` checks the name, validates, then ``run``s."""

    tool: ToolDef

    def tool_definitions(self) -> Sequence[ToolDef]:
        return (self.tool,)

    def requires_confirmation(self, call: ToolCall) -> bool:
        return False

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id != self.tool.name:
            return None
        return await self.run(checked_args(self.tool, call), call)

    async def run(self, args: Any, call: ToolCall) -> ToolOutput:
        """Do the work for validated ``args`` (an instance of ``tool.args_model``)."""
        raise NotImplementedError


# pydantic error types that mean "right field, wrong type" rather than "wrong or missing field".
_TYPE_ERRORS = frozenset(
    {
        "string_type",
        "int_type",
        "int_parsing",
        "int_from_float",
        "float_type",
        "float_parsing",
        "bool_type",
        "bool_parsing",
        "list_type",
        "dict_type",
        "model_type",
        "none_required",
        "bytes_type",
        "tuple_type",
    }
)


def validate_params(tool: ToolDef, params: Mapping[str, Any]) -> ToolArgs:
    """Validate ``params`` against the tool's argument model.

    Raises TypeMismatch when every problem is a wrong type, InvalidParameters otherwise (a missing, unknown or
    out-of-range field); the message lists every bad field so the model can fix them all in one go.
    """
    if not isinstance(params, Mapping):
        raise ToolError(
            ToolErrorCategory.INVALID_PARAMETERS,
            f"{tool.name}: parameters must be a JSON object, got {type(params).__name__}",
        )
    try:
        return tool.args_model.model_validate(dict(params))
    except ValidationError as e:
        problems = e.errors(include_url=False)
        all_types = all(p["type"] in _TYPE_ERRORS for p in problems)
        category = ToolErrorCategory.TYPE_MISMATCH if all_types else ToolErrorCategory.INVALID_PARAMETERS
        details = "; ".join(_describe(p) for p in problems)
        raise ToolError(category, f"{tool.name}: {details}") from None


def _describe(problem: Mapping[str, Any]) -> str:
    name = ".".join(str(part) for part in problem["loc"]) or "parameters"
    if problem["type"] == "missing":
        return f"'{name}' is required"
    if problem["type"] == "extra_forbidden":
        return f"'{name}' is not a parameter of this tool"
    return f"'{name}': {problem['msg']} (got {_short(problem.get('input'))})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def call_summary(params: Any) -> str:
    """The argument a call is about (command, path, URL, source → destination, pattern, query, code), else them
    all.

    The one summary of a call: the transcript's card titles, ``%zeph audit``'s "what" column and the dashboard's
    (the API sends it as ``what``) all use it. ``params`` may be the audit log's JSON text.
    """
    if isinstance(params, str):
        text = params
        try:
            params = json.loads(text)
        except ValueError:
            return text
    if isinstance(params, Mapping):
        for key in ("command", "path", "url", "source", "source_path", "pattern", "query", "code"):
            value = params.get(key)
            if isinstance(value, str):
                target = params.get("destination", params.get("destination_path")) if "source" in key else None
                return value + (f" → {target}" if isinstance(target, str) else "")
        return json.dumps(params, ensure_ascii=False, default=str)
    return repr(params)


def parsed(call: ToolCall, classifier: ShellClassifier, param: str, text: str) -> ShellAnalysis:
    """The parse of ``text`` (the call's ``param``): the gates' own, when they made it with a classifier configured
    as ``classifier`` (same ``key``), else made here, for an executor used without the gates."""
    given = call.analysis
    if given is not None and given[0] == classifier.key and call.params.get(param) == text:
        return given[1]
    return classifier.analyze(text)


def checked_args(tool: ToolDef, call: ToolCall) -> ToolArgs:
    """The call's arguments, validated: the gates' validation when they did it for this tool, else done here."""
    if isinstance(call.args, tool.args_model):
        return call.args
    return validate_params(tool, call.params)
