"""Managed settings: a file outside every user's reach whose values no user layer can loosen — not zeph.toml, not
~/.zeph/config.toml, not a ZEPH_* variable, not settings a program builds — each refusal said in one line naming
the managed key and the file."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from zeph_nb.agent.providers import provider_from_settings
from zeph_nb.config import PermissionRule, Settings
from zeph_nb.config.managed import combine, reach_problem
from zeph_nb.errors import ConfigError

ManagedFile = Callable[[str], Path]

MANAGED = """
[tools]
network_hosts = ["pypi.org", "*.python.org"]

[tools.shell]
sandbox = "bwrap"

[[gates.permissions.fetch]]
pattern = "*"
action = "deny"
"""

LOOSER = """
[tools]
network_hosts = ["pypi.org", "evil.example.com", "docs.python.org"]

[tools.shell]
sandbox = "off"

[[gates.permissions.fetch]]
pattern = "*"
action = "allow"
"""


def load(user: Path | None = None) -> tuple[Settings, list[str]]:
    """Settings.load() as a kernel does it, and the lines it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        settings = Settings.load(user)
    # A ResourceWarning is the garbage collector finishing another test's object (an unclosed asyncio transport,
    # seen under pytest-xdist, where the order differs): not something loading settings said.
    return settings, [str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)]


def test_a_managed_file_turns_on_the_sandbox_denies_a_tool_and_pins_the_hosts(
    isolated_env: Path, managed_file: ManagedFile, tmp_path: Path
) -> None:
    path = managed_file(MANAGED)
    user = tmp_path / "zeph.toml"
    user.write_text(LOOSER)
    settings, said = load(user)
    assert settings.tools.shell.sandbox == "bwrap"
    assert settings.tools.network_hosts == ["pypi.org", "docs.python.org"]  # within *.python.org: kept
    # The managed deny comes first: the user's allow after it never answers.
    assert settings.gates.permissions == {"fetch": [PermissionRule(pattern="*", action="deny"),
                                                    PermissionRule(pattern="*", action="allow")]}  # fmt: skip
    assert said == [
        f'zeph-nb: tools.network_hosts is capped at ["pypi.org", "*.python.org"] by {path} (managed); '
        f'{user}\'s ["evil.example.com"] is ignored',
        f'zeph-nb: tools.shell.sandbox is set to "bwrap" by {path} (managed); {user}\'s "off" is ignored',
    ]
    assert settings.managed is not None and settings.managed.path == path
    assert settings.managed.keys == {"tools.network_hosts", "tools.shell.sandbox", "gates.permissions"}
    assert settings.managed.refused == tuple(said)
    assert settings.managed.is_managed_rule("gates.permissions.fetch", 0)
    assert not settings.managed.is_managed_rule("gates.permissions.fetch", 1)
    described = settings.describe()
    assert described["tools.shell.sandbox"] == ("bwrap", f"managed:{path}")
    assert described["tools.shell.timeout"] == (30, "default")


def test_an_environment_variable_cannot_loosen_a_managed_key(
    isolated_env: Path, managed_file: ManagedFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = managed_file(MANAGED)
    monkeypatch.setenv("ZEPH_TOOLS_SHELL_SANDBOX", "off")
    monkeypatch.setenv("ZEPH_TOOLS_NETWORK_HOSTS", '["*"]')
    settings, said = load()
    assert (settings.tools.shell.sandbox, settings.tools.network_hosts) == ("bwrap", ["pypi.org", "*.python.org"])
    assert f'zeph-nb: tools.shell.sandbox is set to "bwrap" by {path} (managed); ZEPH_TOOLS_SHELL_SANDBOX\'s "off" ' \
           "is ignored" in said  # fmt: skip
    assert 'ZEPH_TOOLS_NETWORK_HOSTS\'s ["*"] is ignored' in said[0]


def test_the_home_config_file_cannot_loosen_either(isolated_env: Path, managed_file: ManagedFile) -> None:
    managed_file('[agent]\nmax_tool_iterations = 5\n[gates.trust]\nlevel = "provisional"\n')
    (isolated_env / "config.toml").write_text('[agent]\nmax_tool_iterations = 50\n[gates.trust]\nlevel = "trusted"\n')
    settings, said = load()
    assert (settings.agent.max_tool_iterations, settings.gates.trust.level) == (5, "provisional")
    assert [line.rpartition("; ")[2] for line in said] == [
        f"{isolated_env / 'config.toml'}'s 50 is ignored",
        f'{isolated_env / "config.toml"}\'s "trusted" is ignored',
    ]


def test_a_users_tighter_value_stands_and_keeps_its_origin(
    isolated_env: Path, managed_file: ManagedFile, tmp_path: Path
) -> None:
    managed_file("[agent]\nmax_tool_iterations = 20\n[gates.trust]\nlevel = \"provisional\"\n"
                 "[tools.shell]\nsandbox = \"auto\"\nallow_network = true\n")  # fmt: skip
    user = tmp_path / "zeph.toml"
    user.write_text('[agent]\nmax_tool_iterations = 4\n[gates.trust]\nlevel = "untrusted"\n'
                    '[tools.shell]\nsandbox = "bwrap"\nallow_network = false\n')  # fmt: skip
    settings, said = load(user)
    assert said == []
    assert settings.agent.max_tool_iterations == 4 and settings.gates.trust.level == "untrusted"
    assert settings.tools.shell.sandbox == "bwrap" and settings.tools.shell.allow_network is False
    assert settings.describe()["gates.trust.level"] == ("untrusted", f"file:{user}")


@pytest.mark.parametrize(
    ("key", "managed", "user", "used", "refused"),
    [
        # deny-like lists are joined
        ("tools.shell.blocked_commands", ["nc"], ["curl"], ["nc", "curl"], None),
        ("tools.file.deny_read", ["**/.env"], [], ["**/.env"], None),
        # allow-like lists are a ceiling
        ("tools.shell.allowed_paths", ["/data"], ["/data/x", "/srv"], ["/data/x"], ["/srv"]),
        (
            "tools.scrape.allowed_hosts",
            ["*.corp.org"],
            ["wiki.corp.org", "corp.org.evil"],
            ["wiki.corp.org"],
            ["corp.org.evil"],
        ),
        ("tools.network_hosts", ["pypi.org"], [], [], None),  # no host at all is tighter still
        ("tools.network_hosts", ["pypi.org:443"], ["pypi.org:8443"], ["pypi.org:443"], ["pypi.org:8443"]),
        # "only these": empty means any, so a user's empty list is not tighter
        ("tools.shell.allowed_commands", ["ls", "git status"], [], ["ls", "git status"], []),
        ("tools.shell.allowed_commands", ["ls", "git status"], ["ls", "rm"], ["ls"], ["rm"]),
        # ordered values: tighter stands, looser is refused
        ("tools.shell.sandbox", "auto", "off", "auto", "off"),
        ("tools.shell.sandbox", "auto", "bwrap", "bwrap", None),
        ("gates.quota.max_tool_calls_per_session", 100, 0, 100, 0),  # 0 is no quota
        ("gates.quota.max_tool_calls_per_session", 100, 10, 10, None),
        ("gates.approval.shell_confirm", True, False, True, False),
        # anything else is pinned
        ("llm.model", "claude-sonnet-5", "mine", "claude-sonnet-5", "mine"),
        ("tools.execution.backend", "local", "tmux", "local", "tmux"),
    ],
)
def test_how_a_managed_key_meets_a_users_value(key: str, managed: object, user: object, used: object,
                                               refused: object) -> None:  # fmt: skip
    assert combine(key, managed, user) == (used, refused)


def test_rule_lists_put_the_managed_rules_first_and_a_policy_allow_cannot_widen(
    isolated_env: Path, managed_file: ManagedFile, tmp_path: Path
) -> None:
    path = managed_file(
        '[gates.policy]\nenabled = true\ndefault_effect = "deny"\n'
        'rules = [{effect = "allow", tool = "read"}]\n'
        '[gates.authorization]\nenabled = true\nrules = [{effect = "ask", tool = "write"}]\n'
    )
    user = tmp_path / "zeph.toml"
    user.write_text('[gates.policy]\nenabled = false\nrules = [{effect = "allow", tool = "bash"}, '
                    '{effect = "deny", tool = "grep"}]\n'
                    '[gates.authorization]\nrules = [{effect = "allow", tool = "write"}]\n')  # fmt: skip
    settings, said = load(user)
    policy = settings.gates.policy
    assert policy.enabled and [(r.effect, r.tool) for r in policy.rules] == [("allow", "read"), ("deny", "grep")]
    assert [(r.effect, r.tool) for r in settings.gates.authorization.rules] == [("ask", "write"), ("allow", "write")]
    assert f"zeph-nb: gates.policy.enabled is set to true by {path} (managed); {user}'s false is ignored" in said
    assert any(line.startswith("zeph-nb: gates.policy.rules is set to") and '"tool": "bash"' in line for line in said)
    assert settings.managed is not None and settings.managed.leading["gates.policy.rules"] == 1


def test_a_managed_policy_file_is_read_beside_the_managed_file(
    isolated_env: Path, managed_file: ManagedFile, tmp_path: Path
) -> None:
    path = managed_file('[gates.policy]\nenabled = true\ndefault_effect = "allow"\npolicy_file = "org-policy.toml"\n')
    (path.parent / "org-policy.toml").write_text('[[rules]]\neffect = "deny"\ntool = "web_search"\n')
    user = tmp_path / "zeph.toml"
    (tmp_path / "mine.toml").write_text('[[rules]]\neffect = "deny"\ntool = "grep"\n')
    user.write_text('[gates.policy]\npolicy_file = "mine.toml"\n')
    settings, _ = load(user)
    assert [(r.effect, r.tool) for r in settings.gates.policy.rules] == [("deny", "web_search"), ("deny", "grep")]
    assert settings.gates.policy.policy_file == "org-policy.toml"


def test_settings_a_program_builds_run_under_the_managed_file_too(
    isolated_env: Path, managed_file: ManagedFile
) -> None:
    managed_file(MANAGED)
    built = Settings.from_toml('[tools.shell]\nsandbox = "off"\n')
    assert built.managed is None  # from_toml alone reads no file
    with pytest.warns(UserWarning, match=r'<string>\'s "off" is ignored'):
        applied = built.with_managed()
    assert applied.tools.shell.sandbox == "bwrap" and applied.managed is not None
    assert applied.with_managed() is applied
    from zeph_nb.agent.loop import Agent

    agent = Agent(built, workdir=isolated_env)  # the same refusal again: said once already, above
    assert agent.settings.tools.shell.sandbox == "bwrap"


def test_no_managed_file_means_no_managed_layer(isolated_env: Path, managed_file: ManagedFile) -> None:
    assert Settings.load().managed is None
    assert Settings().with_managed().managed is None


def test_a_named_managed_file_that_is_missing_stops_the_load(
    isolated_env: Path, managed_file: ManagedFile, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    managed_file(MANAGED)
    monkeypatch.setenv("ZEPH_MANAGED_SETTINGS", str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=r"gone\.toml: no such managed settings file \(\$ZEPH_MANAGED_SETTINGS\)"):
        Settings.load()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[tools.shell\nsandbox = 1", r"managed\.toml: malformed TOML"),
        ('[tools.shell]\nsandbox = "always"', r"managed\.toml: tools\.shell\.sandbox: Input should be"),
        ("[tools]\nnetwork_host = []", r"managed\.toml: unknown key 'tools\.network_host' \(did you mean"),
    ],
)
def test_a_bad_managed_file_is_an_error_naming_it(
    isolated_env: Path, managed_file: ManagedFile, text: str, said: str
) -> None:
    managed_file(text)
    with pytest.raises(ConfigError, match=said):
        Settings.load()


def test_a_managed_file_the_user_could_change_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    os.chmod(folder, 0o755)  # noqa: S103 - the modes under test
    path = folder / "managed.toml"
    path.write_text("")
    os.chmod(path, 0o666)  # noqa: S103 - the modes under test
    assert reach_problem(path) is not None  # writable by others (and, run as its owner, the user's own)
    os.chmod(path, 0o644)
    os.chmod(folder, 0o777)  # noqa: S103 - the modes under test
    assert reach_problem(path) is not None  # anyone may replace it in its folder
    if os.geteuid() == 0:  # root-owned, written by root alone: out of every other user's reach
        os.chmod(folder, 0o755)  # noqa: S103 - the modes under test
        assert reach_problem(path) is None
    else:  # the test user's own file: they could change it
        os.chmod(folder, 0o755)  # noqa: S103 - the modes under test
        assert reach_problem(path) == f"{path} belongs to you"


def test_the_load_refuses_a_managed_file_in_reach_and_says_what_to_do(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.config import managed

    monkeypatch.setattr(managed, "DEFAULT_PATH", tmp_path / "none" / "managed.toml")
    path = tmp_path / "managed.toml"
    path.write_text(MANAGED)
    os.chmod(path, 0o666)  # noqa: S103 - the modes under test
    monkeypatch.setenv("ZEPH_MANAGED_SETTINGS", str(path))
    with pytest.raises(ConfigError, match=rf"{path}: managed settings must be out of every user's reach.*chown root"):
        Settings.load()


def test_a_front_end_is_refused_a_looser_value_by_name(isolated_env: Path, managed_file: ManagedFile) -> None:
    path = managed_file('[tools.execution]\nbackend = "local"\n[agent]\nmax_tool_iterations = 10\n')
    managed = Settings.load().managed
    assert managed is not None
    with pytest.raises(ConfigError) as refused:
        managed.refuse("tools.execution.backend", "ssh", by="%%zeph --ssh alice@gpu")
    assert str(refused.value) == (f'tools.execution.backend is set to "local" by {path} (managed); %%zeph --ssh '
                                  'alice@gpu would make it "ssh" and is refused')  # fmt: skip
    managed.refuse("agent.max_tool_iterations", 3, by="%%zeph --max-iterations")  # tighter: fine
    managed.refuse("llm.model", "anything", by="%%zeph --model")  # not managed: fine
    with pytest.raises(ConfigError, match=r"agent\.max_tool_iterations is set to 10"):
        managed.refuse("agent.max_tool_iterations", 30, by="%%zeph --max-iterations")


def test_managed_llm_endpoints_refuse_any_other(isolated_env: Path, managed_file: ManagedFile, tmp_path: Path) -> None:
    path = managed_file('[llm]\nallowed_base_urls = ["https://llm.corp.example/v1"]\n')
    user = tmp_path / "zeph.toml"
    user.write_text('[llm]\nprovider = "openai"\nmodel = "m"\nbase_url = "https://elsewhere.example/v1"\n')
    with pytest.raises(ConfigError) as refused:
        provider_from_settings(Settings.load(user))
    assert str(refused.value) == (
        "[llm] provider openai would use the model endpoint https://elsewhere.example/v1, which is not allowed: "
        f'llm.allowed_base_urls is capped at ["https://llm.corp.example/v1"] by {path} (managed)'
    )
    user.write_text('[llm]\nprovider = "anthropic"\n')  # Claude's own endpoint is not in the list either
    with pytest.raises(ConfigError, match=r"endpoint https://api\.anthropic\.com, which is not allowed"):
        provider_from_settings(Settings.load(user))
    user.write_text('[llm]\nprovider = "openai"\nmodel = "m"\nbase_url = "https://llm.corp.example/v1/"\n')
    assert type(provider_from_settings(Settings.load(user))).__name__ == "OpenAICompatibleProvider"
    # A user cannot widen the list itself.
    user.write_text('[llm]\nallowed_base_urls = ["https://llm.corp.example/v1", "https://elsewhere.example"]\n')
    settings, said = load(user)
    assert settings.llm.allowed_base_urls == ["https://llm.corp.example/v1"]
    assert said[0].endswith(f'{user}\'s ["https://elsewhere.example"] is ignored')


def test_managed_providers_are_a_ceiling_and_a_provider_they_leave_out_falls_back_to_auto(
    isolated_env: Path, managed_file: ManagedFile, tmp_path: Path
) -> None:
    path = managed_file('[[llm.providers]]\nname = "corp"\nkind = "openai"\nbase_url = "https://llm.corp/v1"\n'
                        'model = "m"\n')  # fmt: skip
    user = tmp_path / "zeph.toml"
    user.write_text('[llm]\nprovider = "mine"\n[[llm.providers]]\nname = "mine"\nkind = "scripted"\n')
    settings, said = load(user)  # the kernel still starts
    assert [entry.name for entry in settings.llm.providers] == ["corp"] and settings.llm.provider == "auto"
    assert said == [
        f'zeph-nb: llm.providers is capped at ["corp"] by {path} (managed); {user}\'s ["mine"] is ignored',
        f'zeph-nb: llm.providers is set by {path} (managed); {user}\'s provider "mine" is not among them, and "auto" '
        "is used",
    ]


USER_SERVERS = """
[[mcp.servers]]
name = "remote"
url = "https://mcp.example.org/mcp"

[[mcp.servers]]
name = "docs"
url = "https://pypi.org/mcp"

[[mcp.servers]]
name = "loose"
command = "python"
sandbox = false

[[mcp.servers]]
name = "net"
command = "python"
network = true

[[mcp.servers]]
name = "boxed"
command = "python"
"""


def test_any_managed_file_leaves_a_users_url_server_loadable(isolated_env: Path, managed_file: ManagedFile) -> None:
    # The managed layer re-checks the user's entries; a url server's unset sandbox must not read as written.
    managed_file("[agent]\nmax_tool_iterations = 5\n")
    (isolated_env / "config.toml").write_text(USER_SERVERS)
    settings, said = load()
    assert [s.name for s in settings.mcp.servers] == ["remote", "docs", "loose", "net", "boxed"]
    assert said == []


def test_a_users_mcp_servers_are_held_to_the_managed_sandbox_and_hosts(
    isolated_env: Path, managed_file: ManagedFile
) -> None:
    managed_file('[tools]\nnetwork_hosts = ["pypi.org"]\n[tools.shell]\nsandbox = "bwrap"\n')
    (isolated_env / "config.toml").write_text(USER_SERVERS)
    settings, said = load()
    assert [s.name for s in settings.mcp.servers] == ["docs", "boxed"]
    assert [line.split("MCP server ")[1].split(" ")[0] for line in said] == ["'remote'", "'loose'", "'net'"]
    assert all("it is not started" in line and "(managed)" in line for line in said)


def test_servers_the_managed_file_lists_are_the_organisations(isolated_env: Path, managed_file: ManagedFile) -> None:
    managed_file('[tools]\nnetwork_hosts = ["pypi.org"]\n[tools.shell]\nsandbox = "bwrap"\n'
                 '[[mcp.servers]]\nname = "net"\ncommand = "python"\nnetwork = true\n')  # fmt: skip
    (isolated_env / "config.toml").write_text(USER_SERVERS)
    settings, _ = load()
    assert [(s.name, s.network) for s in settings.mcp.servers] == [("net", True)]


def test_a_refusal_is_said_once_per_process_not_on_every_load(isolated_env: Path, managed_file: ManagedFile) -> None:
    managed_file("[agent]\nmax_tool_iterations = 5\n")
    (isolated_env / "config.toml").write_text("[agent]\nmax_tool_iterations = 50\n")
    first, said = load()
    again, said_again = load()  # a kernel loads settings for each agent and each %%zeph cell
    assert first.agent.max_tool_iterations == again.agent.max_tool_iterations == 5
    assert len(said) == 1 and said_again == []
