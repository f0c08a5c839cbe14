"""Credential-shaped strings in tool output and arguments: find them, and replace them before anyone stores them.

Patterns are specific on purpose (a key's known prefix and length, a ``password=`` assignment with a real-looking
value) so that documentation placeholders (``AKIAIOSFODNN7EXAMPLE``, ``password=<your-password>``,
``token: ${TOKEN}``) and look-alikes (git hashes, UUIDs) are not flagged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SecretFinding", "keyword_spans", "redact", "redact_params", "redact_row", "scan_secrets"]


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    start: int  # span of the secret value itself within the text
    end: int

    def preview(self, text: str) -> str:
        value = text[self.start : self.end]
        return value[:4] + "…" if len(value) > 8 else "…"


# (kind, pattern, group holding the secret value)
_PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    ("private_key", re.compile(r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]+?-----END (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----"), 0),
    ("aws_access_key_id", re.compile(r"\b((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b"), 1),
    ("aws_secret_access_key", re.compile(r"(?i)aws.{0,20}?(?:secret|sk).{0,20}?['\"=:\s]\s*['\"]?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"), 1),
    ("github_token", re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b"), 1),
    ("gitlab_token", re.compile(r"\b(glpat-[A-Za-z0-9_-]{20,})\b"), 1),
    ("slack_token", re.compile(r"\b(xox[abposr]-[A-Za-z0-9-]{10,})\b"), 1),
    ("slack_webhook", re.compile(r"(https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,})"), 1),
    ("stripe_key", re.compile(r"\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})\b"), 1),
    ("anthropic_key", re.compile(r"\b(sk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{20,})"), 1),
    ("openai_key", re.compile(r"\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})"), 1),
    ("google_api_key", re.compile(r"\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])"), 1),
    ("google_oauth_token", re.compile(r"\b(ya29\.[0-9A-Za-z_-]{20,})"), 1),
    ("jwt", re.compile(r"\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"), 1),
    ("url_credentials", re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:([^/\s@]{3,})@"), 1),
    ("netrc_password", re.compile(r"(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)"), 1),
    ("json_secret", re.compile(r"(?i)\"(?:[a-z0-9]+[_-])*(?:password|passwd|secret|api_?key|token|access_?token|client_secret)\"\s*:\s*\"([^\"]{4,})\""), 1),
    # The keyword starts a word or follows _ or - (db_password): the lookbehind says so without trying a prefix at
    # every position, which made this pattern five times slower than the others.
    ("assigned_secret", re.compile(r"(?i)(?<![a-z0-9])(?:password|passwd|pwd|secret|api[_-]?key|auth[_-]?token|access[_-]?token|client[_-]?secret)\b\s*[:=]\s*(['\"]?)([^\s'\",;]{6,})\1"), 2),
]  # fmt: skip

_PLACEHOLDER = re.compile(
    r"(?i)^(<.*>|\$\{?\w+\}?|%\w+%|\{\{.*\}\}|x{3,}|\*{3,}|\.{3,}|your[-_]?\w*|changeme|change[-_]me|example\w*|"
    r"\w*EXAMPLE\w*|dummy\w*|placeholder\w*|redacted|none|null|true|false|password|secret|token|test|string|"
    r"\[REDACTED[^\]]*\])$"
)


def _is_placeholder(value: str) -> bool:
    elided = "..." in value or "…" in value  # "sk-..." in documentation
    return bool(_PLACEHOLDER.match(value)) or len(set(value)) <= 2 or "EXAMPLE" in value or elided


# Literal text every match of a pattern contains (lower case). Python's re tries a `\b(...)` pattern at every
# position (~40 ms per MB each, 190 ms for assigned_secret); str.find skips through text at memory speed, so a
# pattern runs only where its keyword occurs: over the lines that hold one, or not at all.
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "private_key": ("private key",),
    "aws_access_key_id": ("akia", "asia", "abia", "acca"),
    "aws_secret_access_key": ("aws",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab_token": ("glpat-",),
    "slack_token": ("xox",),
    "slack_webhook": ("hooks.slack.com",),
    "stripe_key": ("_live_", "_test_"),
    "anthropic_key": ("sk-ant-",),
    "openai_key": ("sk-",),
    "google_api_key": ("aiza",),
    "google_oauth_token": ("ya29.",),
    "jwt": ("eyj",),
    "url_credentials": ("://",),
    "netrc_password": ("machine",),
    "json_secret": ("password", "passwd", "secret", "api", "token"),
    "assigned_secret": ("password", "passwd", "pwd", "secret", "api", "token"),
}
_WHOLE_TEXT = frozenset({"private_key", "netrc_password"})  # may span lines: searched in the whole text
_LINES_AFTER_BYTES = 4096  # below this, a whole-text search is as fast as finding the lines first


def keyword_spans(text: str, lowered: str, keywords: tuple[str, ...], *, merge: bool = True) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text`` that contains one of ``keywords`` (looked for in ``lowered``, the
    text in lower case), in order; with ``merge``, lines next to each other as one span."""
    starts: set[int] = set()
    for keyword in keywords:
        at = lowered.find(keyword)
        while at >= 0:
            start = lowered.rfind("\n", 0, at) + 1
            starts.add(start)
            end = lowered.find("\n", at)
            at = lowered.find(keyword, end) if end >= 0 else -1
    spans: list[tuple[int, int]] = []
    for start in sorted(starts):
        end = text.find("\n", start)
        end = end if end >= 0 else len(text)
        if merge and spans and start <= spans[-1][1] + 1:  # the next line: one search over both
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def scan_secrets(text: str) -> list[SecretFinding]:
    """Every credential-shaped value in ``text``, in order, without overlaps."""
    found: list[SecretFinding] = []
    lowered = text.lower()  # the keywords are ASCII: offsets are the same as in text
    for kind, pattern, group in _PATTERNS:
        keywords = _KEYWORDS[kind]
        if not any(keyword in lowered for keyword in keywords):
            continue
        if kind in _WHOLE_TEXT or len(text) < _LINES_AFTER_BYTES:
            matches = list(pattern.finditer(text))
        else:
            matches = [m for start, end in keyword_spans(text, lowered, keywords)
                       for m in pattern.finditer(text, start, end)]  # fmt: skip
        for match in matches:
            value = match.group(group)
            if not value or _is_placeholder(value):
                continue
            start, end = match.span(group)
            if any(start < other.end and other.start < end for other in found):
                continue  # a more specific pattern already covers it
            found.append(SecretFinding(kind, start, end))
    return sorted(found, key=lambda f: f.start)


def redact(text: str, findings: list[SecretFinding] | None = None) -> str:
    """``text`` with each secret value replaced by ``[REDACTED:<kind>]``."""
    findings = scan_secrets(text) if findings is None else findings
    pieces: list[str] = []
    last = 0
    for finding in findings:
        pieces.append(text[last : finding.start])
        pieces.append(f"[REDACTED:{finding.kind}]")
        last = finding.end
    pieces.append(text[last:])
    return "".join(pieces)


def redact_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row about to be stored, every text value redacted: plain text as text, JSON text (``params``) value by
    value so it stays JSON. The store's one choke point calls this for every table."""
    clean: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, str) and scan_secrets(value):
            clean[key] = _redact_text_or_json(value)
        else:
            clean[key] = value
    return clean


def _redact_text_or_json(text: str) -> str:
    if text[:1] in ("{", "["):
        try:
            value = json.loads(text)
        except ValueError:
            return redact(text)
        return json.dumps(_redact_value(value), ensure_ascii=False, sort_keys=False)
    return redact(text)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False)  # a key names the secret: {"password": "…"}
        if scan_secrets(text):
            return redact_params(value)
        return value
    if isinstance(value, list):
        return [_redact_value(item) for item in value]
    return value


def redact_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """A call's arguments with secret values replaced, for showing them to a person.

    Scanned as JSON, so a value is caught by its key too (``{"password": "…"}``).
    """
    text = json.dumps(params, ensure_ascii=False, default=str)
    redacted = redact(text)
    if redacted == text:
        return dict(params)
    try:
        value = json.loads(redacted)
    except ValueError:  # a replacement swallowed a quote: fall back to one value at a time
        return {key: redact(str(item)) for key, item in params.items()}
    return dict(value) if isinstance(value, dict) else {"params": value}
