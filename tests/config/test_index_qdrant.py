"""``[index] vector_backend = "qdrant"`` and its keys: the reference's ``qdrant_url`` is taken (a server URL; none
means Qdrant's local mode in the zeph home), the API key comes from the environment variable the settings name and
is never part of what the settings show."""

from __future__ import annotations

from pathlib import Path

import pytest

import zeph_nb
from zeph_nb.config import Settings

QDRANT = '[index]\nenabled = true\nembedding_provider = "e"\nvector_backend = "qdrant"\n'


def test_the_references_qdrant_keys_load() -> None:
    settings = Settings.from_toml(QDRANT + 'qdrant_url = "http://localhost:6334"\nqdrant_api_key_env = "QDRANT_KEY"\n')
    assert settings.index.vector_backend == "qdrant" and settings.index.qdrant_url == "http://localhost:6334"
    assert Settings.from_toml(QDRANT).index.qdrant_url is None  # no server: the local mode on disk


@pytest.mark.parametrize("url", ["localhost:6334", "http://", "ftp://host:6334", "http://host:6334 extra"])
def test_a_qdrant_url_that_is_not_one_is_refused(url: str) -> None:
    with pytest.raises(zeph_nb.ConfigError, match=r"qdrant_url"):
        Settings.from_toml(QDRANT + f'qdrant_url = "{url}"\n')


@pytest.mark.parametrize("key", ['qdrant_url = "http://localhost:6334"', 'qdrant_api_key_env = "QDRANT_KEY"'])
def test_a_qdrant_key_beside_another_backend_is_refused_not_ignored(key: str) -> None:
    with pytest.raises(zeph_nb.ConfigError, match=r'is read only with vector_backend = "qdrant" \(here "embedded"\)'):
        Settings.from_toml(f"[index]\n{key}\n")


def test_the_api_key_comes_from_the_environment_and_is_never_shown(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(QDRANT + 'qdrant_url = "https://q.example:6333"\nqdrant_api_key_env = "TEAM_QDRANT_KEY"\n')
    env = {"ZEPH_HOME": str(tmp_path), "TEAM_QDRANT_KEY": "qd-secret-123"}
    settings = Settings.load(config, env=env)
    assert settings.qdrant_api_key is not None and settings.qdrant_api_key.get_secret_value() == "qd-secret-123"
    assert "qd-secret-123" not in repr(settings.describe()) and "qd-secret-123" not in settings.model_dump_json()
    assert Settings.load(config, env={"ZEPH_HOME": str(tmp_path)}).qdrant_api_key is None  # unset: no key
    with pytest.raises(zeph_nb.ConfigError, match=r"qdrant_api_key"):  # the key itself is not a config key
        Settings.from_toml('qdrant_api_key = "qd-secret-123"\n')


def test_memorys_qdrant_keys_keep_their_refusal() -> None:
    with pytest.raises(zeph_nb.ConfigError, match=r"\[memory\] qdrant_url does not apply to zeph-nb"):
        Settings.from_toml('[memory]\nqdrant_url = "http://localhost:6334"\n')
