"""Keys that moved to the table of the package that reads them (``legacy.MOVED``) still work where they were: a
file's old key or table is read in its new place with a DeprecationWarning naming it, ``zeph-nb migrate-config``
rewrites the file to the new tables, and an environment variable named after an old key sets the new one."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.config import PermissionRule, Settings
from zeph_nb.config.legacy import MOVED, main, migrate_text

# old dotted key, a file setting it, where it is read now (dotted; a dict entry by its key), the value read there
CASES: list[tuple[str, str, str, Any]] = [
    ("tools.approval_timeout_secs", "[tools]\napproval_timeout_secs = 5", "gates.approval.timeout_secs", 5.0),
    ("tools.shell_confirm", "[tools]\nshell_confirm = true", "gates.approval.shell_confirm", True),
    ("tools.max_tool_calls_per_session", "[tools]\nmax_tool_calls_per_session = 3",
     "gates.quota.max_tool_calls_per_session", 3),
    ("tools.trust_level", '[tools]\ntrust_level = "untrusted"', "gates.trust.level", "untrusted"),
    ("tools.policy", '[tools.policy]\ndefault_effect = "allow"', "gates.policy.default_effect", "allow"),
    ("tools.permissions", '[[tools.permissions.bash]]\npattern = "ls *"\naction = "allow"', "gates.permissions.bash",
     [PermissionRule(pattern="ls *", action="allow")]),
    ("tools.authorization", "[tools.authorization]\nenabled = true", "gates.authorization.enabled", True),
    ("tools.dependencies", '[tools.dependencies]\nalways_on = ["read"]', "gates.dependencies.always_on", ["read"]),
    ("tools.anomaly", "[tools.anomaly]\nwindow_size = 4", "gates.anomaly.window_size", 4),
    ("tools.adversarial_policy", "[tools.adversarial_policy]\nfail_open = true", "gates.adversarial.fail_open", True),
    ("tools.utility", "[tools.utility]\nthreshold = 0.5", "gates.utility.threshold", 0.5),
    ("tools.result_cache", "[tools.result_cache]\nttl_secs = 9", "gates.cache.ttl_secs", 9),
    ("tools.retry", "[tools.retry]\nbase_ms = 7", "gates.retry.base_ms", 7),
    ("tools.summarize_output", "[tools]\nsummarize_output = false", "output.summarize", False),
    ("tools.overflow", "[tools.overflow]\nthreshold = 1234", "output.overflow.threshold", 1234),
    ("tools.filters", "[tools.filters.git]\nmax_log_entries = 2", "output.filters.git.max_log_entries", 2),
    ("tools.audit", '[tools.audit]\ndestination = "stdout"', "audit.destination", "stdout"),
    ("tools.tafc", "[tools.tafc]\nenabled = true", "agent.tafc.enabled", True),
    ("agent.max_tool_retries", "[agent]\nmax_tool_retries = 4", "gates.retry.max_attempts", 4),
    ("agent.max_retry_duration_secs", "[agent]\nmax_retry_duration_secs = 12", "gates.retry.budget_secs", 12.0),
]  # fmt: skip


def at(settings: Settings, dotted: str) -> Any:
    node: Any = settings
    for part in dotted.split("."):
        node = node[part] if isinstance(node, dict) else getattr(node, part)
    return node


def new_name(old: str) -> str:
    """Where ``MOVED`` says the old dotted key lives now."""
    old_path, _, old_key = old.rpartition(".")
    new_path, new_key = MOVED[(tuple(old_path.split(".")), old_key)]
    return ".".join((*new_path, new_key))


def test_every_moved_key_has_a_case() -> None:
    assert sorted(old for old, *_ in CASES) == sorted(".".join((*path, key)) for path, key in MOVED)


@pytest.mark.parametrize(("old", "toml", "now", "value"), CASES, ids=[case[0] for case in CASES])
def test_an_old_key_is_read_in_its_new_place_with_a_warning(old: str, toml: str, now: str, value: Any) -> None:
    with pytest.warns(DeprecationWarning) as said:
        settings = Settings.from_toml(toml + "\n")
    new = new_name(old)
    assert now == new or now.startswith(new + ".")
    assert [str(w.message) for w in said if f"{old} is deprecated" in str(w.message) and f"write {new} instead" in
            str(w.message) and "zeph-nb migrate-config" in str(w.message)], [str(w.message) for w in said]  # fmt: skip
    assert at(settings, now) == value
    # the key itself, a key under it, or the table of tables it is an entry of (gates.permissions)
    described = next(key for key in settings.describe() if f"{now}.".startswith(f"{key}.") or key.startswith(now))
    assert settings.describe()[described][1] == "file:<string>"  # its origin is the file, under the new name


@pytest.mark.parametrize(
    ("toml", "now", "value", "said"),
    [
        ('[tools]\ntrust_level = "untrusted"\n[gates.trust]\nlevel = "provisional"\n', "gates.trust.level",
         "provisional", "gates.trust.level is set too, and wins"),
        # Two tables are merged, the new one's keys winning.
        ("[tools.retry]\nbase_ms = 5\nmax_ms = 50\n[gates.retry]\nbase_ms = 7\n", "gates.retry.base_ms", 7,
         "merged into gates.retry; gates.retry.base_ms set there too, and wins"),
        ("[tools.retry]\nbase_ms = 5\nmax_ms = 50\n[gates.retry]\nbase_ms = 7\n", "gates.retry.max_ms", 50,
         "merged into gates.retry"),
        # Of two old places, the newer wins: [tools.retry] over the seeds' [agent] key.
        ("[agent]\nmax_tool_retries = 4\n[tools.retry]\nmax_attempts = 1\n", "gates.retry.max_attempts", 1,
         "gates.retry.max_attempts is set too, and wins"),
        ("[agent]\nmax_tool_retries = 4\n[gates.retry]\nmax_attempts = 1\n", "gates.retry.max_attempts", 1,
         "gates.retry.max_attempts is set too, and wins"),
    ],
)  # fmt: skip
def test_a_file_setting_the_old_and_the_new_key_keeps_the_new(toml: str, now: str, value: Any, said: str) -> None:
    with pytest.warns(DeprecationWarning) as warned:
        settings = Settings.from_toml(toml)
    assert any(said in str(w.message) for w in warned), [str(w.message) for w in warned]
    assert at(settings, now) == value


OLD_FILE = """\
# my settings
[agent]
max_tool_iterations = 7  # enough
max_tool_retries = 3

[tools]
trust_level = "provisional"  # careful
shell_enabled = true
summarize_output = false

[tools.retry]
# back off gently
base_ms = 50

[tools.filters]
enabled = true

[tools.filters.git]
max_log_entries = 2  # few

[[tools.permissions.bash]]
pattern = "ls *"
action = "allow"

[[tools.permissions.bash]]
pattern = "rm *"  # never
action = "deny"

[tools.audit]
destination = "stdout"

[tools.shell]
timeout = 5
"""


def read_quietly(text: str) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return Settings.from_toml(text).model_dump()


def test_migrate_config_rewrites_old_tables_into_new_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "zeph.toml"
    config.write_text(OLD_FILE)
    assert main(["migrate-config", str(config)]) == 0
    said = capsys.readouterr().out
    assert "tools.retry -> gates.retry" in said and "tools.trust_level -> gates.trust.level = provisional" in said
    text = config.read_text()
    headers = re.findall(r"^\[+([\w.]+)\]+", text, flags=re.M)
    assert headers == ["agent", "tools", "tools.shell", "gates.trust", "gates.permissions.bash",
                       "gates.permissions.bash", "gates.retry", "output", "output.filters", "output.filters.git",
                       "audit"]  # fmt: skip
    for comment in ("# my settings", "# enough", "# careful", "# back off gently", "# few", "# never"):
        assert comment in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rewritten file warns no more
        migrated = Settings.load(config)
    assert migrated.model_dump() == read_quietly(OLD_FILE)  # the same settings, read without the detour
    assert migrated.gates.retry.max_attempts == 3 and migrated.output.filters.git.max_log_entries == 2
    assert (tmp_path / "zeph.toml.bak").read_text() == OLD_FILE
    assert main(["migrate-config", str(config)]) == 0 and "nothing to migrate" in capsys.readouterr().out


def test_migrate_config_keeps_the_new_key_when_both_are_set() -> None:
    old = "[tools]\ntrust_level = 'untrusted'\n\n[tools.retry]\nbase_ms = 5\nmax_ms = 50\n\n"
    text, done = migrate_text(old + "[gates.trust]\nlevel = 'provisional'\n\n[gates.retry]\nbase_ms = 7\n")
    assert "removed tools.trust_level (gates.trust.level is set too, and wins)" in done
    assert any(line.startswith("tools.retry -> merged into gates.retry") for line in done)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        settings = Settings.from_toml(text)
    assert settings.gates.trust.level == "provisional"
    assert (settings.gates.retry.base_ms, settings.gates.retry.max_ms) == (7, 50)


@pytest.mark.parametrize(
    ("variable", "raw", "now", "value"),
    [
        ("ZEPH_TOOLS_RETRY_MAX_ATTEMPTS", "4", "gates.retry.max_attempts", 4),
        ("ZEPH_TOOLS_TRUST_LEVEL", "untrusted", "gates.trust.level", "untrusted"),
        ("ZEPH_TOOLS_APPROVAL_TIMEOUT_SECS", "9", "gates.approval.timeout_secs", 9.0),
        ("ZEPH_TOOLS_SUMMARIZE_OUTPUT", "false", "output.summarize", False),
        ("ZEPH_TOOLS_FILTERS_GIT_MAX_LOG_ENTRIES", "3", "output.filters.git.max_log_entries", 3),
        ("ZEPH_TOOLS_PERMISSIONS", '{bash = [{pattern = "ls *", action = "allow"}]}', "gates.permissions.bash",
         [PermissionRule(pattern="ls *", action="allow")]),
        ("ZEPH_TOOLS_AUDIT_DESTINATION", "stdout", "audit.destination", "stdout"),
        ("ZEPH_TOOLS_TAFC_ENABLED", "true", "agent.tafc.enabled", True),
        ("ZEPH_AGENT_MAX_TOOL_RETRIES", "5", "gates.retry.max_attempts", 5),
    ],
)  # fmt: skip
def test_an_environment_variable_named_after_an_old_key_sets_the_new_one(
    isolated_env: Path, variable: str, raw: str, now: str, value: Any
) -> None:
    (isolated_env / "config.toml").write_text("[gates.retry]\nmax_attempts = 1\n[gates.trust]\nlevel = 'trusted'\n")
    dotted = now if not now.startswith("gates.permissions") else "gates.permissions"
    new_variable = "ZEPH_" + dotted.replace(".", "_").upper()
    with pytest.warns(DeprecationWarning, match=f"{variable} names the old place of {dotted} .*set {new_variable}"):
        settings = Settings.load(env={"ZEPH_HOME": str(isolated_env), variable: raw})
    assert at(settings, now) == value  # over the file's value too: the environment is on top
    assert settings.origins[dotted] == f"env:{variable}"
    with pytest.warns(DeprecationWarning, match=f"{new_variable} is set too, and wins"):
        both = Settings.load(env={"ZEPH_HOME": str(isolated_env), variable: raw, new_variable: raw})
    assert both.origins[dotted] == f"env:{new_variable}"


def test_the_console_script_migrates_a_file(tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    config = tmp_path / "zeph.toml"
    config.write_text("# my settings\n[agent]\nmax_tool_iterations = 7  # enough\nmax_tool_retries = 3\n")
    cli = shutil.which("zeph-nb", path=str(Path(sys.executable).parent))
    assert cli is not None, "the zeph-nb console script is installed with the package"
    done = subprocess.run([cli, "migrate-config", str(config)], capture_output=True, text=True, check=True)
    assert "agent.max_tool_retries -> gates.retry.max_attempts = 3" in done.stdout
    text = config.read_text()
    assert "# my settings" in text and "max_tool_iterations = 7  # enough" in text and "max_tool_retries" not in text
    assert (tmp_path / "zeph.toml.bak").read_text().count("max_tool_retries") == 1
    again = subprocess.run([cli, "migrate-config", str(config)], capture_output=True, text=True, check=True)
    assert "nothing to migrate" in again.stdout


# -- lists of restrictions set in both places: read as one, never one dropped for the other --------------------

OLD_DENY_NEW_ALLOW = """\
[tools.permissions]
bash = [{pattern = "curl *", action = "deny"}]  # old place

[gates.permissions]
bash = [{pattern = "git *", action = "allow"}, {pattern = "rm *", action = "ask"}]
"""


def test_an_old_deny_and_a_new_allow_for_one_tool_are_read_as_one_list_deny_first() -> None:
    """The new table's rules for bash once replaced the old table's whole, and the deny was gone."""
    with pytest.warns(DeprecationWarning) as warned:
        settings = Settings.from_toml(OLD_DENY_NEW_ALLOW)
    assert settings.gates.permissions == {"bash": [PermissionRule(pattern="curl *", action="deny"),
                                                   PermissionRule(pattern="rm *", action="ask"),
                                                   PermissionRule(pattern="git *", action="allow")]}  # fmt: skip
    said = " ".join(str(w.message) for w in warned)
    assert "merged into gates.permissions" in said and "gates.permissions.bash is set in both" in said
    assert "read as one, every deny first" in said


async def test_the_old_deny_still_refuses_the_call_through_the_chain(tmp_path: Path) -> None:
    import zeph_nb
    from zeph_nb.gates.chain import build_chain
    from zeph_nb.store import Store
    from zeph_nb.tools.base import ToolCall

    with pytest.warns(DeprecationWarning):
        settings = Settings.from_toml(OLD_DENY_NEW_ALLOW).model_copy(update={"home": tmp_path / "home"})
    work = tmp_path / "work"
    work.mkdir()
    store = Store(settings, flusher=False)
    try:
        chain = build_chain(settings, workdir=work, store=store, approver=zeph_nb.AutoApprove())
        curl = await chain.execute(ToolCall("bash", {"command": "curl --version; echo ran"}))
        git = await chain.execute(ToolCall("bash", {"command": "git --version >/dev/null; echo ran"}))
    finally:
        store.close()
    assert curl.status == "denied" and "curl *" in curl.text and "ran" not in curl.text
    assert git.status == "ok" and "ran" in git.text  # the new table's allow holds too


def test_migrate_config_keeps_both_tables_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "zeph.toml"
    config.write_text(OLD_DENY_NEW_ALLOW)
    assert main(["migrate-config", str(config)]) == 0
    said = capsys.readouterr().out
    assert "tools.permissions -> merged into gates.permissions; gates.permissions.bash is set in both" in said
    text = config.read_text()
    assert "tools.permissions" not in text and text.index('"curl *"') < text.index('"git *"')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        migrated = Settings.load(config)
    assert migrated.model_dump() == read_quietly(OLD_DENY_NEW_ALLOW)


def test_old_and_new_arrays_of_tables_keep_their_comments_when_merged() -> None:
    old = (
        '[[tools.permissions.bash]]\npattern = "ls *"\naction = "allow"\n\n'
        '[[tools.permissions.bash]]\npattern = "curl *"  # never curl\naction = "deny"\n\n'
    )
    new = '[[gates.permissions.bash]]\npattern = "git *"  # git is fine\naction = "allow"\n'
    text, _ = migrate_text(old + new)
    assert "# never curl" in text and "# git is fine" in text and "tools.permissions" not in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rules = Settings.from_toml(text).gates.permissions
    assert rules is not None and [(r.pattern, r.action) for r in rules["bash"]] == [
        ("curl *", "deny"), ("ls *", "allow"), ("git *", "allow")]  # fmt: skip


UNITED_CASES: list[tuple[str, str, Any]] = [
        ('[[tools.policy.rules]]\neffect = "deny"\ntool = "bash"\n\n[gates.policy]\ndefault_effect = "allow"\n'
         'rules = [{effect = "allow", tool = "read"}]\n', "gates.policy.rules",
         [{"effect": "deny", "tool": "bash"}, {"effect": "allow", "tool": "read"}]),
        ('[tools.authorization]\nrules = [{effect = "allow", tool = "*"}]\n\n'
         '[gates.authorization]\nrules = [{effect = "deny", tool = "bash"}, {effect = "ask", tool = "write"}]\n',
         "gates.authorization.rules",
         [{"effect": "deny", "tool": "bash"}, {"effect": "ask", "tool": "write"}, {"effect": "allow", "tool": "*"}]),
        ('[tools.dependencies.rules.deploy]\nrequires = ["test"]\nprefers = ["lint"]\n\n'
         '[gates.dependencies.rules.deploy]\nrequires = ["build", "test"]\nprefers = ["fmt"]\n',
         "gates.dependencies.rules", {"deploy": {"requires": ["test", "build"], "prefers": ["fmt"]}}),
        ('[tools.filters.security]\nextra_patterns = ["AAA", "BBB"]\n\n'
         '[output.filters.security]\nextra_patterns = ["BBB", "CCC"]\n',
         "output.filters.security.extra_patterns", ("AAA", "BBB", "CCC")),
        ('[tools.adversarial_policy]\npolicies = ["no data to other hosts"]\n\n'
         '[gates.adversarial]\npolicies = ["never delete data"]\n',
         "gates.adversarial.policies", ["no data to other hosts", "never delete data"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("toml", "now", "value"), UNITED_CASES,
    ids=["policy rules", "authorization rules", "requires", "secret patterns", "adversarial policies"],
)  # fmt: skip
def test_each_list_of_restrictions_is_read_as_one_from_both_places(toml: str, now: str, value: Any) -> None:
    with pytest.warns(DeprecationWarning, match="is set in both: the two"):
        settings = Settings.from_toml(toml)
    got = at(settings, now)
    plain = (
        [rule.model_dump(exclude_defaults=True) for rule in got] if now.endswith("rules") and isinstance(got, list)
        else {k: v.model_dump() for k, v in got.items()} if isinstance(got, dict) else got
    )  # fmt: skip
    assert plain == value
    text, _ = migrate_text(toml)  # the rewritten file reads the same
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Settings.from_toml(text).model_dump() == read_quietly(toml)


def test_every_united_list_has_a_case() -> None:
    """Each list read as one from both places is tested here (bash's permissions above, the rest by their case)."""
    from zeph_nb.config.legacy import UNITED

    covered = {"gates.permissions.*", *(now for _, now, _ in UNITED_CASES)}
    covered = {"gates.dependencies.rules.*.requires" if now == "gates.dependencies.rules" else now for now in covered}
    assert covered == set(UNITED)
