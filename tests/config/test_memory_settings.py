"""The reference agent's [memory] keys are about its conversation history and its vector database: a config ported
from it is told, key by key, why each does not apply here, not 'unknown key'."""

from __future__ import annotations

import pytest

import zeph_nb
from zeph_nb.config.memory import NOT_HERE


@pytest.mark.parametrize("key", sorted(NOT_HERE))
def test_a_reference_memory_key_is_refused_saying_why(key: str) -> None:
    value = "{enabled = true}" if key in ("sessions", "documents", "semantic") else "1"
    with pytest.raises(zeph_nb.ConfigError) as refused:
        zeph_nb.Settings.from_toml(f"[memory]\n{key} = {value}\n")
    message = str(refused.value)
    assert f"[memory] {key} does not apply to zeph-nb: {NOT_HERE[key]}" in message and "remove it" in message


def test_the_keys_of_this_product_still_load() -> None:
    settings = zeph_nb.Settings.from_toml("[memory]\nenabled = true\nscope = 'user'\nvector_weight = 0.3\n")
    assert settings.memory.enabled and settings.memory.scope == "user"
