"""Public validators: pure functions a user can call on their own inputs, the same ones the tools use.

``resolve_sandboxed(path, roots)`` returns the canonical path or raises ``SandboxViolation`` (PolicyBlocked).
``classify_shell(command, settings=None)`` says ``"allow"``, ``"confirm"`` or ``"block"``;
``analyze_shell`` says why, and lists every simple command it found.
``scrub_env(env)`` drops credential-looking variables from an environment mapping.
"""

from __future__ import annotations

from zeph_nb.config import Settings
from zeph_nb.tools.environment import scrub_env
from zeph_nb.tools.sandbox import resolve_sandboxed
from zeph_nb.tools.shell_classifier import ShellAnalysis, ShellClassifier, classify_shell

__all__ = ["analyze_shell", "classify_shell", "resolve_sandboxed", "scrub_env"]


def analyze_shell(command: str, settings: Settings | None = None) -> ShellAnalysis:
    """The verdict with its reasons and the simple commands found (nested ones included)."""
    return ShellClassifier(settings).analyze(command)
