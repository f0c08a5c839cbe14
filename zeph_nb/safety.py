"""Public validators: pure functions a user can call on their own inputs, the same ones the tools use.

``resolve_sandboxed(path, roots)`` returns the canonical path or raises ``SandboxViolation`` (PolicyBlocked).
``classify_shell(command, settings=None)`` says ``"allow"``, ``"confirm"`` or ``"block"``;
``analyze_shell`` says why, and lists every simple command it found.
``scrub_env(env)`` drops credential-looking variables from an environment mapping.
``scan_secrets(text)`` finds credential-shaped strings; ``redact(text)`` replaces them with ``[REDACTED:<kind>]``.
``sandbox_status(settings=None)`` says whether shell commands run in the OS sandbox here, and if not, why.
``validate_url(url, resolve=None)`` returns the ``ValidatedURL`` (with the address to connect to) or raises a
PolicyBlocked ``ToolError`` for anything the web tools may not fetch; ``resolve(host) -> [ip, ...]`` replaces DNS.
"""

from __future__ import annotations

from zeph_nb.config import Settings
from zeph_nb.security.env import scrub_env
from zeph_nb.security.os_sandbox import SandboxStatus, probe
from zeph_nb.security.paths import resolve_sandboxed
from zeph_nb.security.secrets import SecretFinding, redact, scan_secrets
from zeph_nb.security.urls import ValidatedURL, validate_url
from zeph_nb.shell import ShellAnalysis, ShellClassifier, Verdict

__all__ = [
    "SandboxStatus",
    "SecretFinding",
    "ValidatedURL",
    "analyze_shell",
    "classify_shell",
    "redact",
    "resolve_sandboxed",
    "sandbox_status",
    "scan_secrets",
    "scrub_env",
    "validate_url",
]


def analyze_shell(command: str, settings: Settings | None = None) -> ShellAnalysis:
    """The verdict with its reasons and the simple commands found (nested ones included)."""
    return _classifier(settings).analyze(command)


def classify_shell(command: str, settings: Settings | None = None) -> Verdict:
    """``"allow"``, ``"confirm"`` or ``"block"`` for a shell command under ``settings`` (defaults if None)."""
    return _classifier(settings).classify(command)


def _classifier(settings: Settings | None) -> ShellClassifier:
    # The same translation as zeph_nb.tools.containment.shell_classifier, which this layer sits below.
    shell = (settings or Settings()).tools.shell
    return ShellClassifier(
        allow_network=shell.allow_network,
        blocked_commands=shell.blocked_commands,
        confirm_patterns=shell.confirm_patterns,
        allowed_commands=shell.allowed_commands,
    )


def sandbox_status(settings: Settings | None = None) -> SandboxStatus:
    """Whether shell commands are contained on this machine under ``[tools.shell] sandbox`` (``.active``,
    ``.describe()``)."""
    return probe((settings or Settings.load()).tools.shell.sandbox)
