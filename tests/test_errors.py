from __future__ import annotations

import errno

import pytest

from zeph_nb.errors import (
    ConfigError,
    SandboxViolation,
    ToolError,
    ToolErrorCategory,
    ToolErrorFeedback,
    ZephError,
    classify_http_status,
    classify_io_error,
)

C = ToolErrorCategory


def test_there_are_eleven_categories_with_stable_labels() -> None:
    assert [c.label for c in C] == [
        "tool_not_found",
        "invalid_parameters",
        "type_mismatch",
        "policy_blocked",
        "confirmation_required",
        "permanent_failure",
        "cancelled",
        "rate_limited",
        "server_error",
        "network_error",
        "timeout",
    ]


@pytest.mark.parametrize(
    ("category", "retryable", "quality", "reformat"),
    [
        (C.TOOL_NOT_FOUND, False, True, False),
        (C.INVALID_PARAMETERS, False, True, True),
        (C.TYPE_MISMATCH, False, True, True),
        (C.POLICY_BLOCKED, False, False, False),
        (C.CONFIRMATION_REQUIRED, False, False, False),
        (C.PERMANENT_FAILURE, False, False, False),
        (C.CANCELLED, False, False, False),
        (C.RATE_LIMITED, True, False, False),
        (C.SERVER_ERROR, True, False, False),
        (C.NETWORK_ERROR, True, False, False),
        (C.TIMEOUT, True, False, False),
    ],
)
def test_flags(category: ToolErrorCategory, retryable: bool, quality: bool, reformat: bool) -> None:
    assert category.is_retryable is retryable
    assert category.is_quality_failure is quality
    assert category.needs_parameter_reformat is reformat
    assert category.suggestion


def test_feedback_block_has_a_header_and_four_lines() -> None:
    text = ToolErrorFeedback(C.RATE_LIMITED, "too many requests").format_for_llm()
    header, *lines = text.split("\n")
    assert header == "[tool_error]"
    assert [line.split(":", 1)[0] for line in lines] == ["category", "error", "suggestion", "retryable"]
    assert lines[0] == "category: rate_limited"
    assert lines[1] == "error: too many requests"
    assert lines[3] == "retryable: true"
    assert ToolErrorFeedback(C.PERMANENT_FAILURE, "gone").format_for_llm().endswith("retryable: false")


@pytest.mark.parametrize(
    ("status", "category"),
    [
        (400, C.INVALID_PARAMETERS),
        (422, C.INVALID_PARAMETERS),
        (401, C.POLICY_BLOCKED),
        (403, C.POLICY_BLOCKED),
        (404, C.PERMANENT_FAILURE),
        (410, C.PERMANENT_FAILURE),
        (429, C.RATE_LIMITED),
        (500, C.SERVER_ERROR),
        (502, C.SERVER_ERROR),
        (529, C.SERVER_ERROR),
        (599, C.SERVER_ERROR),
        (418, C.PERMANENT_FAILURE),
        (301, C.PERMANENT_FAILURE),
    ],
)
def test_classify_http_status(status: int, category: ToolErrorCategory) -> None:
    assert classify_http_status(status) is category


@pytest.mark.parametrize(
    ("error", "category"),
    [
        # An OS "not found" is about a file, not about the tool registry.
        (FileNotFoundError(errno.ENOENT, "No such file or directory"), C.PERMANENT_FAILURE),
        (OSError(errno.ENOENT, "No such file or directory"), C.PERMANENT_FAILURE),
        (IsADirectoryError(errno.EISDIR, "Is a directory"), C.PERMANENT_FAILURE),
        (PermissionError(errno.EACCES, "Permission denied"), C.POLICY_BLOCKED),
        (ConnectionRefusedError(errno.ECONNREFUSED, "refused"), C.NETWORK_ERROR),
        (ConnectionResetError(errno.ECONNRESET, "reset"), C.NETWORK_ERROR),
        (BrokenPipeError(errno.EPIPE, "broken pipe"), C.NETWORK_ERROR),
        (TimeoutError("timed out"), C.TIMEOUT),
        (OSError(errno.ENOSPC, "No space left on device"), C.PERMANENT_FAILURE),
        (OSError("no errno at all"), C.PERMANENT_FAILURE),
    ],
)
def test_classify_io_error(error: OSError, category: ToolErrorCategory) -> None:
    assert classify_io_error(error) is category


def test_one_exception_root() -> None:
    for cls in (ConfigError, ToolError, SandboxViolation):
        assert issubclass(cls, ZephError)
    assert issubclass(ZephError, Exception) and not issubclass(ZephError, (KeyboardInterrupt, SystemExit))
    err = SandboxViolation("nope")
    assert err.category is C.POLICY_BLOCKED
    assert err.feedback.format_for_llm().startswith("[tool_error]\ncategory: policy_blocked")


@pytest.mark.parametrize("category", [C.RATE_LIMITED, C.SERVER_ERROR, C.NETWORK_ERROR, C.TIMEOUT])
def test_a_retry_is_promised_only_for_a_call_that_was_retried(category: ToolErrorCategory) -> None:
    not_retried = ToolErrorFeedback(category, "failed").format_for_llm()
    assert "this call was not retried" in not_retried and "will retry" not in not_retried
    assert "retryable: true" in not_retried  # the model may try again itself
    retried = ToolErrorFeedback(category, "failed", retried=True).format_for_llm()
    assert f"suggestion: {category.suggestion}" in retried and "will retry if possible" in retried
    assert ToolErrorFeedback(C.PERMANENT_FAILURE, "x").suggestion == C.PERMANENT_FAILURE.suggestion
