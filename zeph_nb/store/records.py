"""Each table's row as a typed record: the one place a table's columns are written down.

A record's fields, in order, are the table's columns; their DuckDB types follow from the annotations (``str`` is
VARCHAR, ``int`` BIGINT, ``datetime`` TIMESTAMP, a ``dict`` or sequence is JSON in a VARCHAR) unless a field says
otherwise with ``Timestamp`` (an ISO text the writer made) or ``Int32``. ``schema.COLUMNS`` and the typed frames
of unflushed rows are made from these; the migrations are frozen text and a test holds them to the records.

Fields a writer never sets are filled when the row is written: ``spool`` and ``seq`` by the spool, ``mac`` by a
signed append. Module order matters only to ``store/schema.py``; nothing here imports the engine.
"""

from __future__ import annotations

import os
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from types import NoneType, UnionType
from typing import Annotated, Any

__all__ = [
    "ApprovalRow",
    "ConversationRow",
    "FileChangeRow",
    "GrantRow",
    "Int32",
    "KeptTaskRow",
    "MemoryRow",
    "OverflowRow",
    "Timestamp",
    "ToolCallRow",
    "columns_of",
    "utc_now",
]


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _now_iso() -> str:
    return utc_now().isoformat()


@dataclass(frozen=True)
class Sql:
    """The DuckDB type of a field whose Python type alone would say another."""

    type: str


Timestamp = Annotated[str, Sql("TIMESTAMP")]  # UTC, as ISO text
Int32 = Annotated[int, Sql("INTEGER")]

_BY_PYTHON: dict[Any, str] = {
    str: "VARCHAR",
    int: "BIGINT",
    float: "DOUBLE",
    bool: "BOOLEAN",
    datetime: "TIMESTAMP",
    dict: "VARCHAR",  # JSON
    list: "VARCHAR",
    Sequence: "VARCHAR",
}


def _sql_type(annotation: Any) -> str:
    if isinstance(annotation, UnionType) or typing.get_origin(annotation) is typing.Union:
        (inner,) = [a for a in typing.get_args(annotation) if a is not NoneType]
        return _sql_type(inner)
    if typing.get_origin(annotation) is Annotated:
        marks = [m for m in annotation.__metadata__ if isinstance(m, Sql)]
        return marks[0].type if marks else _sql_type(typing.get_args(annotation)[0])
    return _BY_PYTHON[typing.get_origin(annotation) or annotation]


def columns_of(record: type) -> dict[str, str]:
    """The record's columns in order, with their DuckDB types."""
    hints = typing.get_type_hints(record, include_extras=True)
    columns = {}
    for f in fields(record):
        try:
            columns[f.name] = _sql_type(hints[f.name])
        except (KeyError, ValueError) as exc:
            raise TypeError(
                f"{record.__name__}.{f.name}: no DuckDB type for {hints[f.name]!r}; use one of str, int, float, "
                "bool, datetime, dict, Sequence, or say it with Annotated[..., Sql('TYPE')]"
            ) from exc
    return columns


@dataclass(kw_only=True)
class ToolCallRow:
    """What happened to one call (the ``tool_calls`` table). ``params`` are redacted when recorded."""

    ts: Timestamp = field(default_factory=_now_iso)
    conversation_id: str | None = None
    call_id: str
    caller_id: str | None = None
    tool: str
    params: dict[str, Any]  # stored as JSON, secrets redacted
    status: str = "ok"  # ok | error | denied | cancelled | abandoned
    decision: str | None = None  # allow | ask | deny
    matched_rule: str | None = None
    approved_by: str | None = None
    exit_code: Int32 | None = None
    truncated: bool = False
    error_category: str | None = None
    duration_ms: float | None = None  # checks and execution; waiting for a person is waited_ms
    raw_bytes: int | None = None
    filtered_bytes: int | None = None
    tokens_saved: int | None = None
    overflow_id: str | None = None
    filter_rule: str | None = None
    pid: Int32 = field(default_factory=os.getpid)  # the writer's process
    spool: str | None = None
    seq: int | None = None
    cached: bool = False  # answered by the result cache: the tool did not run
    attempts: Int32 | None = None  # runs of the tool, retries included
    reason: str | None = None  # why the decision was what it was
    sandbox: str | None = None  # commands: bwrap | none (no sandbox here) | unsandboxed (approved outside it)
    network_hosts: str | None = None  # commands granted the network: JSON list of host:port reached
    waited_ms: float | None = None  # waiting for a person's approval; None: nobody was asked
    filter_confidence: str | None = None  # full | partial | fallback: how far the filter understood the output
    run_id: str | None = None  # the agent run (one %%zeph cell) the call belongs to
    # An MCP server's tool: the server's name and its own name for the tool (``tool`` is the name offered to the
    # model, made safe for model APIs and cut to 64 characters, so neither can be read back from it).
    mcp_server: str | None = None
    mcp_tool: str | None = None
    # Files the call wrote that other tools run when used (conftest.py, Makefile, .envrc …): JSON [{path, why}]
    runs_on_use: str | None = None
    # A command whose failing exit rolled its changes back: JSON {restored, removed[, not_restored]} (status stays
    # what the call's was: it ran)
    rollback: str | None = None
    # Seed 003's audit fields (m014).
    # The [gates.trust] level in force when the call was decided (untrusted | provisional | trusted), with
    # "; <tool> blocked" when the anomaly detector (or a person) had blocked this tool.
    trust_level: str | None = None
    # What the model read of the result (filtered, redacted, the overflow note included), its first 2,000
    # characters (recording.RESULT_TEXT_CHARS); when cut, a last line gives the total and the overflow id of the whole.
    result_text: str | None = None
    # Where the decision's authority came from: default (the trust level's default), classifier (the command
    # classifier or the tool's own executor asked), config (a rule in the user's or project's config), managed (a
    # rule of the organisation's managed settings), grant (an earlier Always allow), blocklist, policy (the
    # [gates.policy] tool policy), trust (a tool blocked by the anomaly detector), gate (quota, utility, the
    # adversarial check, a malformed call); for an ask: person (a click in the notebook or a terminal answer:
    # approved_by names who), reviewer (the team's inbox or hub: approved_by names the reviewer), approver (an
    # approver object a program set, AutoApprove, DenyAll…), timeout (nobody answered). None: refused before
    # anything decided (an unknown tool, arguments that are not valid).
    claim_source: str | None = None
    # How long each phase of the call took, JSON of milliseconds in the order they ran: prepare (looking up and
    # validating the call), decide (blocklist, tool policy, permission rules), checks (utility, adversarial check,
    # approval and cache gates, without the wait), wait (waiting for a person; the row's waited_ms), execute (the
    # tool, retries included), output (filters, redaction, overflow), record (building the outcome and this row).
    # A phase the call never reached is absent; all but wait add up to about duration_ms. Writing the row itself
    # comes after it and is not in it.
    phases: str | None = None


@dataclass(frozen=True, kw_only=True)
class OverflowRow:
    """A large output kept whole for ``read_overflow`` (the ``overflow`` table)."""

    id: str  # overflow:<uuid>
    conversation_id: str | None
    created_at: Timestamp = field(default_factory=_now_iso)
    tool: str | None = None
    call_id: str | None = None
    content: str | None  # inline: rows written before blobs; a new row's text is its file under blobs/
    bytes: int  # of the whole output, before any cut to [store] max_overflow_bytes
    truncated: bool = False
    spool: str | None = None
    seq: int | None = None
    blob: str | None = None  # the SHA-256 of the text kept in blobs/<uuid of id>, checked when it is read


@dataclass(frozen=True, kw_only=True)
class GrantRow:
    """An "Always allow" grant (the ``permission_rules`` table). Rows are only ever added: a revocation is a
    second row with the same id and ``revoked_at`` set, so spools replay in order and every reader agrees on what
    is in force."""

    id: str
    tool: str
    pattern: str
    action: str = "allow"
    granted_by: str
    granted_at: datetime
    revoked_at: datetime | None = None
    reason: str | None = None
    spool: str | None = None
    seq: int | None = None
    mac: str | None = None  # HMAC with the store's key (security/mac.py); rows without a valid one are ignored


@dataclass(frozen=True, kw_only=True)
class ApprovalRow:
    """One event of the approval inbox for headless runs (the ``approvals`` table). A run writes a ``requested``
    row and, when it stops waiting, a ``closed`` row with what it did; a person's answer from the dashboard is an
    ``answered`` row written by the server. What an id's state is follows from its rows."""

    id: str
    event: str  # requested | answered | closed
    ts: Timestamp = field(default_factory=_now_iso)
    conversation_id: str | None = None
    call_id: str | None = None
    tool: str | None = None
    summary: str | None = None  # one line: "bash: rm -rf build"
    params: str | None = None  # JSON, secrets redacted
    subjects: str | None = None  # JSON list: commands, canonical paths, the URL
    rule: str | None = None
    reason: str | None = None
    requester: str | None = None  # whose run asks
    host: str | None = None  # where the run is: a request of a process that is gone is not pending any more
    pid: Int32 | None = None
    expires_at: Timestamp | None = None  # UTC; the run denies by itself after this
    outcome: str | None = None  # answered: approve | always | deny; closed: those, expired or cancelled
    decided_by: str | None = None
    note: str | None = None
    spool: str | None = None
    seq: int | None = None
    mac: str | None = None  # answered rows: HMAC with the store's key; an answer without a valid one is ignored
    grantable: bool | None = None  # requested rows: whether "Always allow" may be offered (never outside the sandbox)
    why: str | None = None  # requested rows: why it asks, in one plain sentence (gates/approval/explain.py)


@dataclass(frozen=True, kw_only=True)
class ConversationRow:
    """A conversation, titled by its first prompt cut to 200 characters (the ``conversations`` table)."""

    id: str
    created_at: Timestamp = field(default_factory=_now_iso)
    title: str
    spool: str | None = None
    seq: int | None = None


@dataclass(frozen=True, kw_only=True)
class FileChangeRow:
    """One path a call changed, for ``%zeph undo`` (the ``file_changes`` table): its state before the call and
    the state the call left, as JSON (``undo/states.PathState``); file contents are blobs beside the
    database, named by their sha256. A row with no ``path`` says why a call's changes were not tracked."""

    ts: Timestamp = field(default_factory=_now_iso)
    run_id: str
    conversation_id: str | None = None
    call_id: str | None = None
    tool: str
    workdir: str
    path: str | None = None
    before: str | None = None  # JSON PathState
    after: str | None = None
    note: str | None = None  # e.g. "not kept: over [undo] max_snapshot_bytes", "remote: ssh …"
    pid: Int32 = field(default_factory=os.getpid)
    spool: str | None = None
    seq: int | None = None


@dataclass(frozen=True, kw_only=True)
class MemoryRow:
    """A note the model kept with ``memory_save`` (the ``memories`` table), for one user and one project folder.
    A deletion is a second row with the same id and ``deleted_at`` set: a row still in another kernel's spool, copied
    in after the text was deleted from the file, stays deleted for every reader."""

    id: str  # twelve hex digits: what %zeph memory delete names
    created_at: Timestamp = field(default_factory=_now_iso)
    user_name: str  # [the settings'] user: who was at the keyboard
    project: str  # the canonical working directory of the run that saved it
    text: str | None = None  # redacted by the store's choke point; None on a deletion row
    tags: Sequence[str] = ()  # JSON list
    conversation_id: str | None = None
    run_id: str | None = None
    call_id: str | None = None  # the memory_save call (its tool_calls row)
    embedding: str | None = None  # JSON list of floats, of the redacted text; None without an embedding provider
    embedding_model: str | None = None  # what made it: a vector of another model is not compared
    deleted_at: Timestamp | None = None
    deleted_by: str | None = None
    pid: Int32 = field(default_factory=os.getpid)
    spool: str | None = None
    seq: int | None = None


@dataclass(frozen=True, kw_only=True)
class KeptTaskRow:
    """One event of a scheduled task the person kept across kernels with ``%zeph jobs keep`` (the ``kept_tasks``
    table): ``kept`` (the whole task), ``resumed`` (started in a kernel by ``%zeph jobs resume``) or ``forgotten``
    (``%zeph jobs forget``, or a deferred task's one run started). Rows are only ever added, each signed with the
    store's key: a kept task starts runs when resumed, so a row nobody's magic wrote must not list as one."""

    id: str  # "k" and seven hex digits: what %zeph jobs resume / forget name
    event: str  # kept | resumed | forgotten
    ts: Timestamp = field(default_factory=_now_iso)
    user_name: str  # [the settings'] user: who kept, resumed or forgot it
    project: str  # the canonical working directory of the agent that scheduled it
    prompt: str | None = None  # kept rows: the task's prompt, redacted by the store's choke point
    kind: str | None = None  # periodic | deferred
    interval_secs: float | None = None  # the period, or the delay it was scheduled with
    max_runs: Int32 | None = None  # periodic: its limit when it had one
    runs: Int32 | None = None  # runs it had made when kept (a limit counts on from there)
    due_at: Timestamp | None = None  # deferred: when its run was due (UTC)
    scheduled_by: str | None = None  # the conversation whose model scheduled it
    task_id: str | None = None  # the kernel's task: kept from (kept), started as (resumed)
    note: str | None = None  # resumed: "overdue, run now"; forgotten: why (ran once)
    host: str | None = None
    pid: Int32 = field(default_factory=os.getpid)
    spool: str | None = None
    seq: int | None = None
    mac: str | None = None  # HMAC with the store's key (security/mac.py); rows without a valid one are ignored
