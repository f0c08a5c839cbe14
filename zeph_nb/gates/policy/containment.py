"""What the policy asks on top of its rules, because of what a call would get beyond the OS sandbox's default.

Pure: a decision and the facts in, a decision out. The policy gate applies these after the permission rules:

* a command outside the sandbox (``sandbox: false``) always asks, never offers "Always allow", and is refused
  when ``[tools.shell] allow_unsandboxed = false``;
* a command that gets the network, or write access to the kernel's environment (``pip install``), asks unless a
  configured rule or an earlier "Always allow" allows it; ``allow_network = false`` refuses it;
* with no working sandbox on this machine, every command line not made only of read-only commands asks;
* ``fetch`` and ``web_scrape`` ask the first time a conversation reaches a host (the full URL is on the card:
  a query string can carry what the agent just read), unless ``[tools.scrape] allowed_hosts`` or a rule allows
  it; "Always allow" grants the host. A ``web_search`` query that looks like it carries a credential asks too;
* a file tool call on a protected path is refused outright.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from zeph_nb.config import Settings
from zeph_nb.gates.policy import GRANTED, PolicyDecision, Rule, exact_pattern
from zeph_nb.security.netproxy import host_allowed
from zeph_nb.security.protected import ProtectedPaths
from zeph_nb.security.secrets import scan_secrets
from zeph_nb.shell import ShellAnalysis
from zeph_nb.tools.base import ToolDef
from zeph_nb.tools.scope import CommandScope
from zeph_nb.tools.shell.path_scope import PATH_GRANT, grant_patterns

__all__ = [
    "KERNEL_EXTRA",
    "confirm_every_command",
    "contain_command",
    "contain_kernel",
    "contain_paths",
    "contain_remote",
    "contain_search",
    "contain_web",
    "web_host",
]


def _ask(
    decision: PolicyDecision,
    rule: str,
    why: str,
    *,
    extras: tuple[str, ...] = (),
    grantable: bool = True,
    asking: tuple[str, ...] | None = None,
    grant_patterns: tuple[str, ...] | None = None,
) -> PolicyDecision:
    """An ask that keeps what the rules already asked about, with ``why`` added."""
    asked = decision.action == "ask"
    return dataclasses.replace(
        decision,
        action="ask",
        rule=decision.rule if asked else rule,
        reason=f"{decision.reason}; {why}" if asked else why,
        reasons=(*decision.reasons, why) if asked else (why,),
        by_rule=False,
        extras=extras,
        # An ask that may not be kept (a managed rule's, one outside the sandbox) stays so whatever is added to it.
        grantable=grantable and (decision.grantable or not asked),
        asking=decision.asking if asking is None else asking,
        grant_patterns=grant_patterns if grant_patterns is not None else decision.grant_patterns,
    )


def contain_command(
    decision: PolicyDecision,
    scope: CommandScope,
    analysis: ShellAnalysis | None,
    grants: Callable[[], Sequence[Rule]] = list,
) -> PolicyDecision:
    """The decision for a shell call, given what it would get (``scope``); ``grants`` are read only when the call
    names paths outside the allowed ones (an earlier "Always allow" of a folder covers them)."""
    if decision.action == "deny":
        return decision
    if scope.refusal is not None:
        return PolicyDecision("deny", *scope.refusal)
    decision = _contain_outside(decision, scope, grants)
    decision = _contain_scope(decision, scope, analysis)
    outside = tuple(line for line in decision.extras if line.endswith("outside the allowed paths"))
    if outside:  # the network and sandbox lines first, then each path outside
        lines = [line for line in decision.extras if line not in outside]
        decision = dataclasses.replace(decision, extras=(*lines, *outside))
    return decision


def contain_remote(decision: PolicyDecision, where: str) -> PolicyDecision:
    """A command, or a write, on an SSH host or in a container: zeph's OS sandbox does not reach there, so it runs
    with that account's full rights. It asks unless a rule (or an Always-allow grant) allows it."""
    if decision.action == "deny" or (decision.action == "allow" and decision.by_rule):
        return decision
    why = f"it runs on {where} with that account's rights, outside zeph's OS sandbox; it asks unless a rule allows it"
    return _ask(decision, "remote execution", why, extras=(f"runs on {where}", *decision.extras))


KERNEL_EXTRA = "runs in this notebook's kernel, outside the OS sandbox, with everything the kernel can reach"


def contain_kernel(decision: PolicyDecision) -> PolicyDecision:
    """Code for the person's kernel (``ToolDef.in_kernel``): it reads and changes their variables, files, network and
    credentials with no sandbox between. It asks unless a configured rule allows its text, and an answer is never
    kept as Always allow (the grants were not consulted for it either)."""
    if decision.action == "deny" or (decision.action == "allow" and decision.by_rule):
        return decision
    why = "code in the kernel runs outside the OS sandbox; it asks every time unless a rule allows this code"
    return _ask(decision, "kernel code", why, extras=(KERNEL_EXTRA, *decision.extras), grantable=False)


def kernel_under_managed_sandbox(decision: PolicyDecision, says: str) -> PolicyDecision:
    """Under a managed ``sandbox = "bwrap"`` (``says`` names it), code for the kernel, which no sandbox holds, is the
    organisation's ask: a person answers each one (never AutoApprove), whatever a user's rule allows. Only a
    managed rule's allow, or any deny, stands."""
    if decision.action == "deny" or (decision.action == "allow" and decision.managed):
        return decision
    why = f"{says}: code in the kernel runs outside it, so a person answers each one"
    return dataclasses.replace(_ask(decision, "kernel code", why, extras=decision.extras, grantable=False),
                               managed=says)  # fmt: skip


def computed_command_under_managed_deny(decision: PolicyDecision, analysis: ShellAnalysis, says: str) -> PolicyDecision:
    """A command word the line computes as it runs (``RM=rm; $RM -rf x``, ``$(echo rm)``) cannot be matched against
    the managed deny rules ``says`` names: it could be one of the commands they deny. So it is the organisation's
    ask — a person answers each one, never AutoApprove, and no grant is kept."""
    if decision.action == "deny":
        return decision
    computed = [c.written or c.name for c in analysis.commands if any(m in (c.written or c.name) for m in "$`")]
    if not computed:
        return decision
    why = (f"the command word {computed[0]!r} is computed when the line runs, so {says} cannot be checked against "
           "it; a person answers each one")  # fmt: skip
    return dataclasses.replace(_ask(decision, "computed command", why, extras=decision.extras, grantable=False),
                               managed=says)  # fmt: skip


def confirm_every_command(decision: PolicyDecision) -> PolicyDecision:
    """``[gates.approval] shell_confirm = true``: a command that would run asks, whatever rule or grant allowed it,
    and an answer is never kept as Always allow (the setting says the person wants to see each one)."""
    if decision.action == "deny":
        return decision
    why = "[gates.approval] shell_confirm = true: every command asks"
    return _ask(decision, "shell_confirm", why, extras=decision.extras, grantable=False)


def _contain_scope(decision: PolicyDecision, scope: CommandScope, analysis: ShellAnalysis | None) -> PolicyDecision:
    """What the sandbox's scope adds: a command outside it, its network or environment, no sandbox at all."""
    extras = (*scope.extras, *decision.extras)
    if scope.unsandboxed_requested:
        why = "the model asked for sandbox=false; such a call asks every time and is never kept as Always allow"
        return _ask(decision, "unsandboxed request", why, extras=extras, grantable=False)
    if scope.extras:
        if decision.action == "allow" and decision.by_rule:
            return dataclasses.replace(decision, extras=extras, reason=f"{decision.reason} ({'; '.join(extras)})")
        why = (
            "a call that gets more than the sandbox's default (network, the kernel's environment) asks unless a "
            "rule allows it"
        )
        return _ask(decision, "network or install grant", why, extras=extras)
    unguarded = not scope.sandboxed and decision.action == "allow" and not decision.by_rule
    if unguarded and (analysis is None or analysis.may_write):
        why = f"{scope.status.describe()}; commands that may change anything ask first"
        return _ask(decision, "no OS sandbox", why, extras=(scope.status.describe(), *decision.extras))
    return decision


def _contain_outside(
    decision: PolicyDecision, scope: CommandScope, grants: Callable[[], Sequence[Rule]]
) -> PolicyDecision:
    """Path arguments outside the allowed paths ask, whatever rule allowed the command; a folder granted earlier
    ("Always allow") covers what is under it."""
    if not scope.outside:
        return decision
    folders = [rule for rule in grants() if rule.tool == "bash" and rule.pattern.startswith(PATH_GRANT)]
    remaining = [
        o for o in scope.outside
        if o.unknown
        or not any(dataclasses.replace(rule, pattern=rule.pattern.removeprefix(PATH_GRANT)).matches("path", str(o.path))
                   for rule in folders)
    ]  # fmt: skip
    if not remaining:
        return decision
    lines = tuple(o.describe() for o in remaining)
    why = "the command names paths outside the working directory and [tools.shell] allowed_paths: " + "; ".join(lines)
    asked = decision.asking if decision.action == "ask" else ()
    patterns = (*(exact_pattern(subject) for subject in asked), *grant_patterns(remaining))
    named = list(dict.fromkeys(str(o.folder or o.path) for o in remaining if not o.unknown))
    remedy = (
        f"To let commands use {', '.join(named)} without asking, add it to [tools.shell] allowed_paths (or run with "
        "an approver that can ask a person)"
        if named
        else "A path whose value is only known when the command runs cannot be allowed ahead; write it out"
    )
    grantable = not any(o.unknown for o in remaining)
    ask = _ask(decision, "path outside allowed_paths", why, extras=lines, asking=(*asked, *named),
               grant_patterns=patterns, grantable=grantable and decision.grantable)  # fmt: skip
    return dataclasses.replace(ask, remedy=remedy)


def contain_paths(
    decision: PolicyDecision, tool: ToolDef, paths: tuple[str, ...], protected: ProtectedPaths
) -> PolicyDecision:
    """A file tool call touching a protected path is refused before anyone is asked: no rule, grant or approval
    can let it through (the file tools refuse it again themselves)."""
    for i, text in enumerate(paths):
        # The paths a tool changes are its ``writes`` (copy_path only reads its source); a mutating tool that does
        # not say which changes each path it names. (A read is looked up as the text it is: no Path made for it.)
        writes = tool.subject[i] in tool.writes if tool.writes and i < len(tool.subject) else tool.mutates
        wall = protected.readonly_by(Path(text)) if writes else protected.hidden_by(text)
        if wall is not None:
            verb = "changed" if writes else "read"
            reason = f"{wall.as_posix()} may not be {verb} by any tool ({protected.reason(wall)})"
            return PolicyDecision("deny", "protected path", reason)
    return decision


def contain_search(decision: PolicyDecision, query: str) -> PolicyDecision:
    """A search query is text sent to another host: one that carries a credential asks first."""
    if decision.action != "allow" or decision.by_rule:
        return decision
    found = sorted({finding.kind for finding in scan_secrets(query)})
    if not found:
        return decision
    why = f"the search query looks like it carries a credential ({', '.join(found)}); it would leave this machine"
    return _ask(decision, "credential in query", why, grantable=False)


def web_host(url: str) -> str:
    """The host of a (normalized) URL, lower case, without the port."""
    try:
        return (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return ""


def contain_web(
    decision: PolicyDecision,
    tool: ToolDef,
    urls: tuple[str, ...],
    settings: Settings,
    approved: Collection[str],
    grants: Callable[[], Sequence[Rule]] = list,
) -> PolicyDecision:
    """The decision for a web tool call: a host outside ``[tools] network_hosts`` is refused, whatever allowed it;
    a host not yet approved in this conversation, nor allowed by ``allowed_hosts`` or an earlier "Always allow"
    (``grants``, read only when it would ask), asks."""
    if decision.action == "deny":
        return decision
    ceiling = settings.tools.network_hosts
    if ceiling is not None:
        outside = list(dict.fromkeys(web_host(url) for url in urls if not host_allowed(web_host(url), ceiling,
                                                                                         _port(url))))  # fmt: skip
        if outside:
            limit = settings.set_by("tools.network_hosts")
            managed = limit if settings.managed is not None and settings.managed.manages("tools.network_hosts") else ""
            reason = f"{tool.name} may not reach {', '.join(outside)}: beyond {limit}"
            return PolicyDecision("deny", "tools.network_hosts", reason, managed=managed)
    if decision.action != "allow" or decision.by_rule:
        return decision
    allowed = (*settings.tools.scrape.allowed_hosts, *approved)
    new = [url for url in urls if not host_allowed(web_host(url), allowed)]
    if not new:
        return decision
    mine = [rule for rule in grants() if rule.tool == tool.name]
    used = [next((g for g in mine if g.matches("url", url)), None) for url in new]
    if all(rule is not None for rule in used):
        names = "; ".join(sorted({rule.source for rule in used if rule is not None}))
        return PolicyDecision("allow", names, GRANTED + names, by_rule=True)
    hosts = list(dict.fromkeys(web_host(url) for url in new))
    why = (
        f"{tool.name} would reach {', '.join(hosts)} for the first time in this conversation; check the whole URL "
        "(a query string can carry data out). Always allow lets it reach this host from now on"
    )
    patterns = tuple(exact_pattern(_origin(url)) + "*" for url in new)
    return _ask(decision, "new host", why, asking=tuple(new), grant_patterns=patterns)


def _port(url: str) -> int | None:
    """The port a (normalized) URL connects to."""
    try:
        parts = urlsplit(url)
        return parts.port or {"https": 443, "http": 80}.get(parts.scheme)
    except ValueError:
        return None


def _origin(url: str) -> str:
    """``https://host[:port]/`` of a normalized URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"
