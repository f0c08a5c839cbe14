"""What the ``%zeph`` line commands show: the provider a run will use and why (status), every setting (config),
the audit rows' "what" column, the sandbox line.

Kept apart from the magics so ``%load_ext zeph_nb`` stays cheap: pandas and the transcript are imported when a
command needs them.
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING, Any, ClassVar

from zeph_nb.errors import ConfigError
from zeph_nb.notebook.tables import folded_table_html

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.agent.messages import Provider
    from zeph_nb.agent.tool_filter import ToolFilter
    from zeph_nb.config import Settings
    from zeph_nb.gates.chain import ToolsView

__all__ = [
    "config_table",
    "describe_provider",
    "every_row",
    "model_name",
    "print_filter",
    "print_mcp",
    "print_sandbox",
    "print_status",
    "print_tools",
    "provider_signature",
    "recent_calls",
    "what",
]


def print_sandbox(description: str) -> None:
    """The sandbox line of ``%zeph status``, one clause a line, so a narrow output never breaks it mid-word."""
    first, *rest = description.split("; ")
    print(f"sandbox:      {first}")
    for clause in rest:
        print(f"              {clause}")


def recent_calls(limit: int, settings: Settings | None) -> Any:
    """``%zeph audit``: the last ``limit`` calls, with the command, path or URL each was about (what a person
    scans for) and the rule that decided it (a grant's allow told from a default one). A DataFrame; in a notebook
    a compact table with the long cells folded (whole on hover); ``.full`` is every column of those rows."""
    from zeph_nb import audit

    # This kernel's own cache: it answers offline, and a team's database is read with zeph_nb.audit.
    frame = audit.frame(limit=limit, settings=settings, team=False)
    frame["what"] = frame["params"].map(what)
    frame["rule"] = frame["matched_rule"].fillna("")
    # Which filter rule read a shell call's output and how far it understood it: "generic, fallback".
    rule, confidence = frame["filter_rule"].fillna("no rule"), frame["filter_confidence"]
    frame["filter"] = (rule + ", " + confidence).where(confidence.notna(), "")
    columns = ["ts", "tool", "what", "status", "decision", "rule", "approved_by", "exit_code", "error_category",
               "duration_ms", "waited_ms", "filter", "tokens_saved"]  # fmt: skip
    shown = frame[columns].copy()
    # For a person scanning it (audit.frame() keeps the full values): whole seconds and milliseconds, numbers
    # that may be missing as nullable integers, and an empty cell, not None or NaN, where a call has no value.
    shown["ts"] = shown["ts"].dt.floor("s")
    for column in ("exit_code", "duration_ms", "waited_ms", "tokens_saved"):
        shown[column] = shown[column].round().astype("Int64")
    for column in ("approved_by", "error_category"):
        shown[column] = shown[column].fillna("")
    return _audit_rows(shown, frame.drop(columns=["what", "rule", "filter"]))


# Cells folded in the notebook's table (whole in the cell's tooltip and in the frame). The table takes the output
# area's width with a share for each column, and a cell wraps inside its share: however long a status, a name or a
# category, nothing runs past the page (at 1280 px JupyterLab's output area is ~850 px; tests/e2e/test_lab.py).
_FOLD = {"what": 48, "rule": 40, "by": 16, "error": 22, "filter": 32}
_SHARE = {"time": 8, "tool": 10, "what": 17, "status": 8, "decision": 8, "rule": 14, "by": 8, "error": 11, "ms": 7,
          "filter": 9}  # fmt: skip


def _audit_rows(shown: Any, full: Any) -> Any:
    import pandas as pd

    class AuditRows(pd.DataFrame):  # type: ignore[misc]  # pandas is untyped here (ignore_missing_imports)
        _metadata: ClassVar[list[str]] = ["full"]  # pandas keeps .full on the frame

        @property
        def _constructor(self) -> Any:
            return pd.DataFrame  # derived frames (filters, set_index) are ordinary again

        def _display(self) -> Any:
            """The rows as a person reads them: every cell text, a missing number an empty cell (not <NA> beside
            empty strings), the exit code beside the status, the waits and savings beside what they qualify."""
            rows = pd.DataFrame(self)
            text = rows.astype(object).where(rows.notna(), "")
            status = [f"{s} · exit {c}" if c != "" and c not in (0, -1) else s
                      for s, c in zip(text["status"], text["exit_code"], strict=True)]  # fmt: skip
            ms = [f"{d} (+{w} waited)" if w not in ("", 0) else str(d)
                  for d, w in zip(text["duration_ms"], text["waited_ms"], strict=True)]  # fmt: skip
            saved = [f"{f} · {n:,} saved" if f and n not in ("", 0) else f
                     for f, n in zip(text["filter"], text["tokens_saved"], strict=True)]  # fmt: skip
            return pd.DataFrame({
                "time": [t.strftime("%m-%d %H:%M:%S") if t != "" else "" for t in text["ts"]],
                "tool": text["tool"], "what": text["what"], "status": status, "decision": text["decision"],
                "rule": text["rule"], "by": text["approved_by"], "error": text["error_category"], "ms": ms,
                "filter": saved,
            })  # fmt: skip

        def __repr__(self) -> str:
            with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 60):
                return str(self._display().to_string())

        def _repr_html_(self) -> str:
            note = f"{len(self)} calls, newest first; every column: <code>.full</code>"
            return folded_table_html(self._display(), kind="audit", shares=_SHARE, default_share=8, folds=_FOLD,
                                     note=note)  # fmt: skip

    rows = AuditRows(shown)
    rows.full = full
    return rows


def print_tools(view: ToolsView, functions: dict[str, str]) -> None:
    """``%zeph tools``: what the model may call (``functions``: the person's own, tool name -> where defined),
    what is hidden from it, and the Always-allow grants in force."""
    print("The model may call:")
    # One column as wide as the longest name (MCP tools' names run long), so the summaries line up.
    width = max((len(tool.name) for tool in view.visible), default=0)
    for tool in view.visible:
        note = f"  ({tool.rules} rule{'s' if tool.rules != 1 else ''})" if tool.rules else ""
        mine = f"  [your function {functions[tool.name]}]" if tool.name in functions else ""
        print(f"  {tool.name:{width}} {tool.summary}{note}{mine}")
    if view.hidden:
        print("Hidden (denied or blocked): " + ", ".join(view.hidden))
    if view.grants:
        print("Always allowed:")
        for grant in view.grants:
            print(f"  {grant.tool:6} {grant.shown}   by {grant.granted_by}, {grant.granted_at:%Y-%m-%d %H:%M}")


def every_row(frame: Any) -> Any:
    """``frame``, shown whole: pandas cuts a 67-row table to its first and last five, hiding most settings."""
    import pandas as pd

    class EveryRow(pd.DataFrame):  # type: ignore[misc]  # pandas is untyped here (ignore_missing_imports)
        @property
        def _constructor(self) -> Any:
            return pd.DataFrame  # derived frames (set_index, filters) are ordinary again

        def _repr_html_(self) -> Any:
            with pd.option_context("display.max_rows", None):
                return super()._repr_html_()

        def __repr__(self) -> Any:
            with pd.option_context("display.max_rows", None):
                return super().__repr__()

    return EveryRow(frame)


def what(params: Any) -> str:
    """The one thing a call was about, from its audit params (JSON), as the transcript's card titles it, cut short."""
    from zeph_nb.tools.base import call_summary

    text = call_summary(params).replace("\n", " ⏎ ")
    return text if len(text) <= 80 else text[:79] + "…"


def provider_signature(settings: Settings) -> tuple[str, ...]:
    """What decides which provider ``auto`` picks, with the keys as digests (never kept in the clear)."""

    def digest(secret: Any) -> str:
        return hashlib.sha256(secret.get_secret_value().encode()).hexdigest()[:16] if secret is not None else ""

    llm = settings.llm
    named = tuple(
        f"{entry.model_dump_json()}:{digest(settings.provider_keys.get(entry.name))}" for entry in llm.providers
    )
    return (llm.provider, llm.model or "", llm.base_url or "", digest(settings.anthropic_api_key),
            digest(settings.openai_api_key), *named)  # fmt: skip


def describe_provider(settings: Settings, provider: Provider) -> list[str]:
    """Which provider, model and endpoint the next run uses, and why: the lines of ``%zeph status``."""
    llm = settings.llm
    name = provider.name
    endpoint = str(getattr(provider, "base_url", "") or llm.base_url or "")
    if name == "anthropic" and not endpoint:  # the SDK's own choice: ANTHROPIC_BASE_URL, else Anthropic's API
        endpoint = os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
    if llm.provider not in ("auto", "anthropic", "openai", "scripted"):
        why = f"[llm] provider = {llm.provider!r}, an [[llm.providers]] entry"
    elif llm.provider != "auto":
        why = f"[llm] provider = {llm.provider!r}"
    elif name == "anthropic":
        why = "auto: ANTHROPIC_API_KEY is set"
    elif name == "openai":
        why = "auto: [llm] base_url is set"
    elif name == "scripted" and getattr(provider, "unconfigured", False):
        why = (
            "auto: no ANTHROPIC_API_KEY and no [llm] base_url, so the offline stand-in; set one "
            "(%env ANTHROPIC_API_KEY=…) and the next run uses it"
        )
    else:
        why = "a provider object passed with --provider"
    model = getattr(provider, "model", provider.name)
    lines = [f"provider:     {name}, model {model}" + (f", {endpoint}" if endpoint else "")]
    lines.append(f"              ({why})")
    return lines


def model_name(agent: Agent) -> str:
    return str(getattr(agent.provider, "model", agent.provider.name))


def print_status(agent: Agent | None, runs: int, max_iterations: int | None, last_run: Any) -> None:
    """``%zeph status``: the provider and why, the conversation, limits, the last run, the sandbox, where commands
    run and the approvals waiting."""
    from zeph_nb.notebook.where import describe_where
    from zeph_nb.tools.containment import describe_sandbox

    if agent is None:  # what the settings say the first run will use, so a zeph.toml can be checked first
        from zeph_nb.agent.providers import provider_from_settings
        from zeph_nb.agent.requests import tool_filter_from_settings
        from zeph_nb.config import Settings

        settings = Settings.load()
        print("no run yet; the first %%zeph cell creates the agent (--provider on that cell overrides this one)")
        try:
            for line in describe_provider(settings, provider_from_settings(settings)):
                print(line)
            print_filter(tool_filter_from_settings(settings))
        except ConfigError as e:  # the first run would stop here too: say so now
            print(f"not ready:    {e}")
        print_sandbox(describe_sandbox(settings, os.getcwd()))
        for line in describe_checks(settings):
            print(line)
        return
    settings = agent.settings
    for line in describe_provider(settings, agent.provider):
        print(line)
    print(f"conversation: {agent.conversation_id} ({len(agent.messages)} messages, {runs} run{'s' * (runs != 1)})")
    print(f"state:        {'running' if agent.running else 'idle'}")
    print(f"limits:       {max_iterations or settings.agent.max_tool_iterations} rounds per run, "
          f"context budget {settings.agent.context_budget_tokens} tokens, "
          f"quota {settings.gates.quota.max_tool_calls_per_session or 'none'}")  # fmt: skip
    if last_run is not None and last_run.result is not None:
        usage = last_run.result.usage
        print(f"last run:     {last_run.result.stop_reason}, {usage.input_tokens} in / {usage.output_tokens}"
              f" out tokens ({usage.cache_read_tokens} cached)")  # fmt: skip
    print_sandbox(describe_sandbox(settings, agent.workdir))
    print_filter(agent.tool_filter)
    for line in describe_checks(settings):
        print(line)
    where = describe_where(settings)
    if where is not None:
        print(f"commands:     {where}")
    if agent.store.team is not None:
        print(f"team audit:   {agent.store.team.describe()}")
    if settings.gates.approval.decided_by == "reviewers":
        from zeph_nb.notebook.server import HUB_SERVICE, hub_base_url

        by = settings.set_by("gates.approval.decided_by")
        page = settings.gates.approval.review_page or (hub_base_url() or "/") + HUB_SERVICE
        print(f"asks:         answered by the team's reviewers on the hub ({by}); your buttons, dashboard and "
              f"--approve do not answer them; follow your requests at {page}")  # fmt: skip
    pending = agent.pending_approvals
    print(f"waiting:      {len(pending)} approval{'s' if len(pending) != 1 else ''}")
    for request in pending:
        print(f"  {request.summary}  ({request.reason})")


def print_filter(tool_filter: ToolFilter | None) -> None:
    """The ``Filter:`` line of ``%zeph status``, when ``[agent.tool_filter]`` is on."""
    if tool_filter is not None:
        config = tool_filter.config
        print(f"Filter:       top_k={config.top_k}, always_on={','.join(config.always_on) or 'none'}, "
              f"embeddings={tool_filter.label}")  # fmt: skip


def describe_checks(settings: Any) -> list[str]:
    """The adversarial policy check, the tool policy, the utility gate and the helper models and checks that are
    on, one line each (before the first run too: what the settings will give it)."""
    lines = []
    policy, utility, agent = settings.gates.policy, settings.gates.utility, settings.agent
    check = settings.gates.adversarial
    if check.enabled:
        count = f"{len(check.policies)} polic{'y' if len(check.policies) == 1 else 'ies'}"
        flags = f"fail_open={str(check.fail_open).lower()}, block_on_reject={str(check.block_on_reject).lower()}"
        lines.append(f"policy check: {check.provider}, {count}, {flags}")
    if policy.enabled:
        source = f" from {policy.policy_file}" if policy.policy_file else ""
        lines.append(f"tool policy:  {len(policy.rules)} rules{source}, default {policy.default_effect}")
    if utility.enabled:
        verb = "skips" if utility.mode == "skip" else "warns"
        lines.append(f"utility:      {verb} under {utility.threshold:g} (exempt: {', '.join(utility.exempt_tools)})")
    helpers = [f"reformats parameters with {settings.gates.retry.parameter_reformat_provider}"
               if settings.gates.retry.parameter_reformat_provider else "",
               f"compacts with {agent.compress_provider}" if agent.compress_provider else "",
               "checks replies for hallucinations" if agent.hallucination_detection else ""]  # fmt: skip
    if any(helpers):
        lines.append(f"helpers:      {'; '.join(h for h in helpers if h)}")
    return lines


def config_table(agent: Agent | None) -> Any:
    """``%zeph config``: the config file, what "auto" resolved to, and every key with its value and origin."""
    import pandas as pd

    from zeph_nb.config import Settings

    settings = agent.settings if agent is not None else Settings.load()
    managed = settings.managed
    rows = [(key, value, origin, managed is not None and managed.manages(key) is not None)
            for key, (value, origin) in settings.describe().items()]  # fmt: skip
    print(f"config file: {settings.source or '(none: defaults and environment)'}")
    if managed is not None:  # the organisation's: what no user setting can loosen, and what it set aside
        print(f"managed:     {managed.path} sets {len(managed.keys)} keys (managed = True below); yours cannot "
              "loosen them")  # fmt: skip
        for line in managed.refused:
            print(f"  {line.removeprefix('zeph-nb: ')}")
    if agent is not None:  # what "auto" resolved to, which no single key says
        for line in describe_provider(agent.settings, agent.provider):
            print(line)
    return every_row(pd.DataFrame(rows, columns=["key", "value", "from", "managed"]))


def print_mcp(chain: Any) -> None:
    """``%zeph mcp``: each configured MCP server, whether it runs (or why not), and the tools it offers."""
    from zeph_nb.tools.composite import CompositeExecutor
    from zeph_nb.tools.mcp import McpToolset
    from zeph_nb.tools.mcp.toolset import offered_name, recorded_name

    if chain is None:
        print("no run yet: MCP servers start with the first %%zeph run ([[mcp.servers]] in the settings)")
        return
    pending, toolsets = [chain.executor], []
    while pending:
        executor = pending.pop()
        if isinstance(executor, CompositeExecutor):
            pending.extend(executor.executors)
        elif isinstance(executor, McpToolset):
            toolsets.append(executor)
    connections = [c for toolset in toolsets for c in toolset.connections.values()]
    not_offered = {name: why for toolset in toolsets for name, why in toolset.not_offered.items()}
    if not connections:
        print("no MCP servers configured: add [[mcp.servers]] entries (docs: MCP servers, docs/guide/mcp.md)")
    for connection in connections:
        server = connection.server
        state = "running" if connection.running else "stopped; starts with the next run" if connection.tools else (
            "not started; starts with the next run")  # fmt: skip
        if connection.error:
            state = f"not running ({recorded_name(connection.error, 2_000)})"  # a server's own words: one line
        where = server.url or " ".join([server.command or "", *server.args])
        trust = "trusted (calls run unless a rule asks)" if server.trusted else "every call asks"
        print(f"{server.name}: {state}; {where}; {trust}; {_containment(server)}")
        for tool in connection.tools:  # by the name the model is offered (a server's own may hold any character)
            first = recorded_name(tool.description.strip().splitlines()[0], 200) if tool.description.strip() else ""
            name = offered_name(server.name, tool.name)
            if name in not_offered:
                first = f"NOT OFFERED: {not_offered[name]}"
            print(f"  {name}  {first}")


def _containment(server: Any) -> str:
    """How ``%zeph mcp`` shows what an MCP server may reach."""
    if not server.sandbox or server.url is not None:
        return "not sandboxed"
    grants = ["with the network" if server.network else "no network"]
    if server.paths:
        grants.append("may write " + ", ".join(server.paths))
    return f"sandboxed ({'; '.join(grants)})"
