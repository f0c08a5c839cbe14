"""Where a default differs from the seeds', the setting's own description says so and why (issue 49): the settings
reference is made from these descriptions, so the reason reaches the docs with the key."""

from __future__ import annotations

import pytest

from zeph_nb.config import Settings
from zeph_nb.config.reference import _described


def described(dotted: str) -> str:
    return " ".join(_described(Settings)[dotted].split())  # what the settings reference prints for the key


@pytest.mark.parametrize(
    ("dotted", "seed", "ours"),
    [
        ("tools.shell.auto_rollback_exit_codes", "[1, 2]", []),
        ("gates.anomaly.window_size", "20", 10),
        ("output.filters.test.truncate_stack_trace", "50", 40),
    ],
)
def test_a_default_that_differs_from_the_seeds_says_why(dotted: str, seed: str, ours: object) -> None:
    value: object = Settings()
    for part in dotted.split("."):
        value = getattr(value, part)
    assert value == ours
    text = described(dotted)
    assert f"seed's {seed}" in text and "because" in text, text
