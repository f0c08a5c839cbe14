from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError


def test_defaults_follow_the_spec() -> None:
    s = Settings()
    assert s.agent.max_tool_iterations == 10
    assert s.tools.enabled and s.output.summarize
    assert s.tools.shell.timeout == 30
    assert "git push --force" in s.tools.shell.confirm_patterns
    assert s.tools.scrape.timeout == 15
    assert s.tools.scrape.max_body_bytes == 1024 * 1024
    assert s.output.overflow.threshold == 50_000
    assert s.output.overflow.retention_days == 7
    assert s.output.overflow.max_overflow_bytes == 10 * 1024 * 1024
    assert s.agent.tafc.complexity_threshold == 0.6
    assert s.gates.permissions is None
    assert s.tools.file.allowed_paths == []


def test_from_toml_reads_every_section() -> None:
    s = Settings.from_toml(
        """
        [agent]
        max_tool_iterations = 4
        [gates.quota]
        max_tool_calls_per_session = 20
        [tools.shell]
        timeout = 5
        allow_network = false
        transactional = true
        transaction_scope = ["src/**"]
        auto_rollback_exit_codes = [1, 2]
        [tools.file]
        deny_read = ["**/.env"]
        [[gates.permissions.bash]]
        pattern = "cargo *"
        action = "allow"
        [[gates.permissions.bash]]
        pattern = "*"
        action = "ask"
        [gates.cache]
        ttl_secs = 0
        [gates.retry]
        max_attempts = 3
        [gates.dependencies]
        enabled = true
        rules = { write = { requires = ["read"] } }
        [gates.anomaly]
        enabled = true
        [[gates.authorization.rules]]
        effect = "deny"
        tool = "bash"
        args_match = "sudo\\\\s"
        """
    )
    assert s.agent.max_tool_iterations == 4
    assert s.gates.quota.max_tool_calls_per_session == 20
    assert s.tools.shell.timeout == 5 and not s.tools.shell.allow_network
    assert s.tools.shell.auto_rollback_exit_codes == [1, 2]
    assert s.tools.file.deny_read == ["**/.env"]
    assert s.gates.permissions is not None
    assert [(r.pattern, r.action) for r in s.gates.permissions["bash"]] == [
        ("cargo *", "allow"),
        ("*", "ask"),
    ]
    assert s.gates.dependencies.rules["write"].requires == ["read"]
    assert s.gates.authorization.rules[0].args_match == "sudo\\s"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("nan", 0.6), ("inf", 0.6), ("-inf", 0.6), ("1.5", 1.0), ("-0.2", 0.0), ("0.25", 0.25)],
)
def test_tafc_threshold_is_clamped(value: str, expected: float) -> None:
    s = Settings.from_toml(f"[agent.tafc]\ncomplexity_threshold = {value}\n")
    assert math.isclose(s.agent.tafc.complexity_threshold, expected)


def test_unknown_key_names_file_key_and_what_is_allowed(tmp_path: Path) -> None:
    cfg = tmp_path / "zeph.toml"
    cfg.write_text("[tools.shel]\ntimeout = 3\n")
    with pytest.raises(ConfigError) as info:
        Settings.load(cfg, env={})
    message = str(info.value)
    assert str(cfg) in message
    assert "tools.shel" in message
    assert "did you mean 'shell'" in message
    assert "allowed here:" in message and "scrape" in message


def test_unknown_top_level_table() -> None:
    with pytest.raises(
        ConfigError,
        match=r"unknown key 'agnet' \(did you mean 'agent'\?\); allowed here: agent, tools, gates, output, audit, llm",
    ):
        Settings.from_toml("[agnet]\nmax_tool_iterations = 3\n")


@pytest.mark.parametrize(
    ("entry", "key", "allowed"),
    [
        ('[[llm.providers]]\nname = "fast"\nkind = "openai"\nbogus = 1\n', "llm.providers[0].bogus",
         "api_key_env, base_url, embedding_model, kind, max_tokens, model, name, replies"),
        ('[[mcp.servers]]\nname = "docs"\ncommand = "uvx"\nbogus = 1\n', "mcp.servers[0].bogus",
         "args, command, env, headers, name, network, paths, sandbox, timeout_secs, trusted, url"),
        ('[[gates.policy.rules]]\neffect = "deny"\ntool = "bash"\nbogus = 1\n', "gates.policy.rules[0].bogus",
         "args_match, effect, paths, tool"),
        # the same walk reaches the entries of a table of tables
        ('[[gates.permissions.bash]]\npattern = "ls *"\naction = "allow"\nbogus = 1\n',
         "gates.permissions.bash[0].bogus", "action, pattern"),
        ('[gates.dependencies.rules.edit]\nbogus = 1\n', "gates.dependencies.rules.edit.bogus", "prefers, requires"),
    ],
)  # fmt: skip
def test_an_unknown_key_in_an_array_of_tables_lists_what_its_entry_allows(entry: str, key: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_toml(entry, source="z.toml")
    assert str(info.value) == f"invalid configuration:\n  z.toml: unknown key '{key}'; allowed here: {allowed}"


@pytest.mark.parametrize(
    ("toml", "shown"),
    [
        ('[llm]\n"a\\nb\\u001b[31mred\\u0007" = 1\n', "unknown key 'llm.a\\nb\\x1b[31mred\\x07'"),
        ('[[mcp.servers]]\nname = "a"\ncommand = "x"\n"\\r\\nz.toml: fake" = 2\n', "mcp.servers[0].\\r\\nz.toml: fake"),
        ('"\\u202eabc" = 1\n', "unknown key '\\u202eabc'"),
        ('[gates.permissions."x\\ny"]\nfoo = 1\n', "gates.permissions.x\\ny: Input should be a valid list"),
    ],
)  # fmt: skip
def test_a_hostile_key_stays_on_one_readable_line(toml: str, shown: str) -> None:
    """A downloaded zeph.toml: a line break, an ANSI or OSC escape or a bidi override in a key is written as its
    escape, so the error is one line per problem and a terminal or notebook shows it as it is."""
    with pytest.raises(ConfigError) as info:
        Settings.from_toml(toml, source="z.toml")
    message = str(info.value)
    assert shown in message and len(message.splitlines()) == 2 and message.splitlines()[1].isprintable()


def test_a_huge_key_or_value_is_cut_in_the_error() -> None:
    for toml in ('[llm]\n"' + "k" * 1_000_000 + '" = 1\n', '[llm]\nmax_tokens = "' + "v" * 1_000_000 + '"\n'):
        with pytest.raises(ConfigError) as info:
            Settings.from_toml(toml, source="z.toml")
        assert len(str(info.value)) < 2_000 and "more characters]" in str(info.value)


def test_wrong_type_names_the_key_and_the_value() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_toml('[tools.shell]\ntimeout = "soon"\n', source="my.toml")
    message = str(info.value)
    assert "my.toml" in message and "tools.shell.timeout" in message and "'soon'" in message


def test_out_of_range_and_bad_enum_are_errors() -> None:
    with pytest.raises(ConfigError, match=r"agent\.max_tool_iterations"):
        Settings.from_toml("[agent]\nmax_tool_iterations = 0\n")
    with pytest.raises(ConfigError, match=r"gates\.permissions\.bash\[0\]\.action"):
        Settings.from_toml('[[gates.permissions.bash]]\npattern = "*"\naction = "maybe"\n')


def test_malformed_toml_says_where() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_toml("[agent]\nmax_tool_iterations = = 3\n", source="broken.toml")
    message = str(info.value)
    assert message.startswith("broken.toml: malformed TOML")
    assert "line 2" in message


def test_invalid_regex_in_authorization_rule() -> None:
    with pytest.raises(ConfigError, match="invalid regex"):
        Settings.from_toml('[[gates.authorization.rules]]\neffect = "deny"\ntool = "bash"\nargs_match = "("\n')
    long = "a" * 513
    with pytest.raises(ConfigError, match="at most 512"):
        Settings.from_toml(f'[[gates.authorization.rules]]\neffect = "deny"\ntool = "bash"\nargs_match = "{long}"\n')


def test_loader_internals_are_not_config_keys() -> None:
    with pytest.raises(ConfigError, match="'home' is not a config key"):
        Settings.from_toml('home = "/tmp"\n')


def test_load_prefers_working_directory_then_home(isolated_env: Path) -> None:
    assert Settings.load().source is None
    (isolated_env / "config.toml").write_text("[agent]\nmax_tool_iterations = 7\n")
    s = Settings.load()
    assert s.agent.max_tool_iterations == 7 and s.source == str(isolated_env / "config.toml")
    assert s.home == isolated_env
    Path("zeph.toml").write_text("[agent]\nmax_tool_iterations = 3\n")
    assert Settings.load().agent.max_tool_iterations == 3


def test_explicit_path_must_exist(isolated_env: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        Settings.load(isolated_env / "missing.toml")


def test_zeph_config_variable(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = isolated_env / "other.toml"
    other.write_text("[tools.shell]\ntimeout = 9\n")
    monkeypatch.setenv("ZEPH_CONFIG", str(other))
    assert Settings.load().tools.shell.timeout == 9


def test_environment_overrides_with_types(isolated_env: Path) -> None:
    Path("zeph.toml").write_text("[agent]\nmax_tool_iterations = 3\n[tools.shell]\ntimeout = 5\n")
    env = {
        "ZEPH_HOME": str(isolated_env),
        "ZEPH_AGENT_MAX_TOOL_ITERATIONS": "12",
        "ZEPH_TOOLS_SHELL_ALLOW_NETWORK": "false",
        "ZEPH_TOOLS_FILE_DENY_READ": '["**/.env", "*.pem"]',
        "ZEPH_TOOLS_FILE_GREP_ENGINE": "python",
        "ANTHROPIC_API_KEY": "sk-ant-test",
    }
    s = Settings.load(env=env)
    assert s.agent.max_tool_iterations == 12
    assert s.tools.shell.timeout == 5
    assert s.tools.shell.allow_network is False
    assert s.tools.file.deny_read == ["**/.env", "*.pem"]
    assert s.tools.file.grep_engine == "python"
    assert s.anthropic_api_key is not None and s.anthropic_api_key.get_secret_value() == "sk-ant-test"
    assert "sk-ant-test" not in repr(s)
    described = s.describe()
    assert described["agent.max_tool_iterations"] == (12, "env:ZEPH_AGENT_MAX_TOOL_ITERATIONS")
    assert described["tools.shell.timeout"] == (5, f"file:{Path.cwd() / 'zeph.toml'}")
    assert described["tools.scrape.timeout"] == (15, "default")


def test_table_valued_keys_are_set_from_the_environment_as_json_or_toml(isolated_env: Path) -> None:
    env = {
        "ZEPH_HOME": str(isolated_env),
        "ZEPH_GATES_DEPENDENCIES_ENABLED": "true",
        "ZEPH_GATES_DEPENDENCIES_RULES": '{"deploy": {"requires": ["test"]}}',  # JSON, as CI files hold it
        "ZEPH_GATES_PERMISSIONS": '{bash = [{pattern = "ls *", action = "allow"}]}',  # or a TOML inline table
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "is not a zeph-nb setting and is ignored" any more
        s = Settings.load(env=env)
    assert s.gates.dependencies.rules["deploy"].requires == ["test"]
    assert s.gates.permissions is not None and s.gates.permissions["bash"][0].pattern == "ls *"
    described = s.describe()
    assert described["gates.dependencies.rules.deploy.requires"] == (["test"], "env:ZEPH_GATES_DEPENDENCIES_RULES")


def test_bad_environment_value_names_the_variable(isolated_env: Path) -> None:
    with pytest.raises(ConfigError, match=r"ZEPH_AGENT_MAX_TOOL_ITERATIONS.*agent\.max_tool_iterations"):
        Settings.load(env={"ZEPH_AGENT_MAX_TOOL_ITERATIONS": "lots"})


def test_unknown_environment_variable_warns(isolated_env: Path) -> None:
    with pytest.warns(UserWarning, match="did you mean ZEPH_AGENT_MAX_TOOL_ITERATIONS"):
        Settings.load(env={"ZEPH_AGENT_MAX_TOOL_ITERATION": "3"})


def test_settings_are_immutable() -> None:
    s = Settings()
    with pytest.raises(Exception, match="frozen"):
        s.agent.max_tool_iterations = 3  # type: ignore[misc]


def test_the_settings_reference_lists_every_key_with_what_it_does() -> None:
    # The docs' settings page is this table, made at every build (docs/_ext/zeph_docs.py; tests/test_docs.py).
    from zeph_nb.config import _leaf_keys
    from zeph_nb.config.reference import reference_table

    rows = [line for line in reference_table().splitlines() if line.startswith("| `")]
    assert len(rows) == len(_leaf_keys()) and all(not row.endswith("|  |") for row in rows)  # every key described
