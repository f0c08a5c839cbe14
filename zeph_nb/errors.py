"""Errors: what a person sees raised, and what a model reads back.

The exception tree::

    ZephError                     root of everything zeph-nb raises
    ├── ConfigError               unusable zeph.toml, ~/.zeph/config.toml or ZEPH_* variable, or a model
    │                             server that refuses the credentials (401/403)
    ├── ModelError                the model's server failed (rate limit, overload, network, timeout);
    │                             carries a ToolErrorCategory and the server's retry-after
    └── ToolError                 a tool call failed; carries a ToolErrorCategory
        └── SandboxViolation      a path outside the sandbox, or one deny_read refuses (PolicyBlocked)

A person calling a tool from Python gets a ``ToolError`` raised. The agent loop never lets one escape to the
model as an exception: it becomes a ``ToolErrorFeedback`` value, whose ``format_for_llm()`` is the four-line
``[tool_error]`` block sent back as an ``is_error`` tool result.

The eleven categories follow the Zeph tool-error taxonomy. Two flags drive recovery: *retryable* (infrastructure
trouble the retry gate may try again) and *quality failure* (the model's own mistake, the only kind that may
trigger a parameter-reformat attempt). Whether the retry gate did try a call again is the feedback's own fact
(``retried``): it never does for a tool that may change things, so the suggestion says which it was.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = [
    "ConfigError",
    "ModelError",
    "SandboxViolation",
    "ToolError",
    "ToolErrorCategory",
    "ToolErrorFeedback",
    "ZephError",
    "classify_http_status",
    "classify_io_error",
]


class ToolErrorCategory(Enum):
    """Why a tool call failed; the value is the label used in audit rows and in ``[tool_error]`` blocks."""

    TOOL_NOT_FOUND = "tool_not_found"
    INVALID_PARAMETERS = "invalid_parameters"
    TYPE_MISMATCH = "type_mismatch"
    POLICY_BLOCKED = "policy_blocked"
    CONFIRMATION_REQUIRED = "confirmation_required"
    PERMANENT_FAILURE = "permanent_failure"
    CANCELLED = "cancelled"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    NETWORK_ERROR = "network_error"
    TIMEOUT = "timeout"

    @property
    def label(self) -> str:
        """The snake_case name written to audit rows and feedback blocks."""
        return self.value

    @property
    def is_retryable(self) -> bool:
        """Infrastructure trouble that may pass: the retry gate tries these again with backoff."""
        return self in _RETRYABLE

    @property
    def is_quality_failure(self) -> bool:
        """The model's own mistake. Infrastructure errors are never the model's fault."""
        return self in _QUALITY

    @property
    def needs_parameter_reformat(self) -> bool:
        """The one path that earns the model a single chance to resend corrected parameters."""
        return self in (ToolErrorCategory.INVALID_PARAMETERS, ToolErrorCategory.TYPE_MISMATCH)

    @property
    def suggestion(self) -> str:
        """What the model should do next, for a call the retry gate tried again when retryable (a feedback whose
        call was not retried says so instead: ``ToolErrorFeedback.suggestion``)."""
        return _SUGGESTIONS[self]


_RETRYABLE = frozenset(
    {
        ToolErrorCategory.RATE_LIMITED,
        ToolErrorCategory.SERVER_ERROR,
        ToolErrorCategory.NETWORK_ERROR,
        ToolErrorCategory.TIMEOUT,
    }
)
_QUALITY = frozenset(
    {
        ToolErrorCategory.TOOL_NOT_FOUND,
        ToolErrorCategory.INVALID_PARAMETERS,
        ToolErrorCategory.TYPE_MISMATCH,
    }
)
_SUGGESTIONS: dict[ToolErrorCategory, str] = {
    ToolErrorCategory.TOOL_NOT_FOUND: "Check the tool name against the tools you were given.",
    ToolErrorCategory.INVALID_PARAMETERS: "Review the tool schema and send corrected parameters.",
    ToolErrorCategory.TYPE_MISMATCH: "Check each parameter's type against the tool schema.",
    ToolErrorCategory.POLICY_BLOCKED: "This operation is blocked by policy. Do not retry it; try another approach "
    "or ask the user.",
    ToolErrorCategory.CONFIRMATION_REQUIRED: "This operation needs the user's approval, which was not given. "
    "Explain what you wanted to do and why.",
    ToolErrorCategory.PERMANENT_FAILURE: "Trying again will fail the same way: read the error, then fix the cause "
    "or take another approach.",
    ToolErrorCategory.CANCELLED: "The user cancelled this operation. Do not repeat it unless asked.",
    ToolErrorCategory.RATE_LIMITED: "Rate limit exceeded. The system will retry if possible.",
    ToolErrorCategory.SERVER_ERROR: "Server error. The system will retry if possible.",
    ToolErrorCategory.NETWORK_ERROR: "Network error. The system will retry if possible.",
    ToolErrorCategory.TIMEOUT: "The operation timed out. The system will retry if possible; otherwise narrow it.",
}
# The retryable categories for a call the retry gate did not run again: a tool that may change things (MCP, the
# shell, the kernel, file writes), retries switched off, or a wait past the retry budget. Promising a retry there
# would leave the model waiting for one that never comes.
_NOT_RETRIED: dict[ToolErrorCategory, str] = {
    ToolErrorCategory.RATE_LIMITED: "Rate limit exceeded; this call was not retried: wait or try another way.",
    ToolErrorCategory.SERVER_ERROR: "Server error; this call was not retried: try again later or another way.",
    ToolErrorCategory.NETWORK_ERROR: "Network error; this call was not retried: try again later or another way.",
    ToolErrorCategory.TIMEOUT: "The operation timed out; this call was not retried: narrow it or try another way.",
}


@dataclass(frozen=True)
class ToolErrorFeedback:
    """A tool failure as a value the model reads (never an exception the model's caller has to catch)."""

    category: ToolErrorCategory
    message: str
    retried: bool = False  # the retry gate ran the call again before giving up (only it ever does)

    @property
    def retryable(self) -> bool:
        return self.category.is_retryable

    @property
    def suggestion(self) -> str:
        """What the model should do next: for retryable trouble, true to whether this call was retried."""
        if self.retried:
            return self.category.suggestion
        return _NOT_RETRIED.get(self.category, self.category.suggestion)

    def format_for_llm(self) -> str:
        """The four-line ``[tool_error]`` block sent as an ``is_error`` tool result."""
        return (
            "[tool_error]\n"
            f"category: {self.category.label}\n"
            f"error: {self.message}\n"
            f"suggestion: {self.suggestion}\n"
            f"retryable: {'true' if self.retryable else 'false'}"
        )


class ZephError(Exception):
    """Root of every exception zeph-nb raises."""


class ConfigError(ZephError):
    """Configuration that cannot be used. The message names the file, the key and what is allowed."""


class ModelError(ZephError):
    """The model could not be asked. Providers translate their SDK's errors into this, in one place each."""

    def __init__(self, category: ToolErrorCategory, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.category = category
        self.message = message
        self.retry_after = retry_after

    def __str__(self) -> str:
        return f"{self.category.label}: {self.message}"


class ToolError(ZephError):
    """A tool call failed. ``feedback`` is what the model is told."""

    def __init__(self, category: ToolErrorCategory, message: str, *, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.category = category
        self.message = message
        # What the tool had produced when it failed (a shell envelope with partial output), for audit and UI.
        self.details: Mapping[str, Any] = details or {}

    @property
    def feedback(self) -> ToolErrorFeedback:
        return ToolErrorFeedback(self.category, self.message)

    def __str__(self) -> str:
        return f"{self.category.label}: {self.message}"


class SandboxViolation(ToolError):
    """A path resolves outside the allowed roots, or a deny_read rule refuses it."""

    def __init__(self, message: str) -> None:
        super().__init__(ToolErrorCategory.POLICY_BLOCKED, message)


def classify_http_status(status: int) -> ToolErrorCategory:
    """Category of a non-success HTTP status."""
    if status in (400, 422):
        return ToolErrorCategory.INVALID_PARAMETERS
    if status in (401, 403):
        return ToolErrorCategory.POLICY_BLOCKED
    if status == 429:
        return ToolErrorCategory.RATE_LIMITED
    if 500 <= status <= 599:
        return ToolErrorCategory.SERVER_ERROR
    # 404, 410 and everything else: asking again will not help.
    return ToolErrorCategory.PERMANENT_FAILURE


_IO_CATEGORIES: dict[int, ToolErrorCategory] = {
    errno.ETIMEDOUT: ToolErrorCategory.TIMEOUT,
    errno.ECONNREFUSED: ToolErrorCategory.NETWORK_ERROR,
    errno.ECONNRESET: ToolErrorCategory.NETWORK_ERROR,
    errno.ECONNABORTED: ToolErrorCategory.NETWORK_ERROR,
    errno.EPIPE: ToolErrorCategory.NETWORK_ERROR,
    errno.ENETUNREACH: ToolErrorCategory.NETWORK_ERROR,
    errno.EHOSTUNREACH: ToolErrorCategory.NETWORK_ERROR,
    # A busy resource is transient; ServerError is the generic retryable bucket.
    errno.EAGAIN: ToolErrorCategory.SERVER_ERROR,
    errno.EINTR: ToolErrorCategory.SERVER_ERROR,
    errno.EBUSY: ToolErrorCategory.SERVER_ERROR,
    errno.EACCES: ToolErrorCategory.POLICY_BLOCKED,
    errno.EPERM: ToolErrorCategory.POLICY_BLOCKED,
    errno.EROFS: ToolErrorCategory.POLICY_BLOCKED,
    # A name longer than the file system takes: the parameter is wrong, and the same call fails again.
    errno.ENAMETOOLONG: ToolErrorCategory.INVALID_PARAMETERS,
}


def classify_io_error(error: OSError) -> ToolErrorCategory:
    """Category of an OS error.

    A missing file or binary is PermanentFailure, never ToolNotFound: ToolNotFound means the model asked for a
    tool the registry does not have, and counting an OS "not found" against the model would be wrong.
    """
    if isinstance(error, TimeoutError):
        return ToolErrorCategory.TIMEOUT
    if error.errno is not None and error.errno in _IO_CATEGORIES:
        return _IO_CATEGORIES[error.errno]
    return ToolErrorCategory.PERMANENT_FAILURE
