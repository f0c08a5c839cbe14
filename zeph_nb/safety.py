"""Public validators: pure functions a user can call on their own inputs, the same ones the tools use.

``resolve_sandboxed(path, roots)`` returns the canonical path or raises ``SandboxViolation`` (PolicyBlocked).
"""

from zeph_nb.tools.sandbox import resolve_sandboxed

__all__ = ["resolve_sandboxed"]
