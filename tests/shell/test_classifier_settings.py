"""The classifier takes plain values; the callers translate ``[tools.shell]`` into them, and the defaults agree."""

from __future__ import annotations

from zeph_nb.config import Settings
from zeph_nb.config.sections import ShellSettings
from zeph_nb.safety import classify_shell
from zeph_nb.shell import CONFIRM_PATTERNS, ShellClassifier
from zeph_nb.tools.containment import shell_classifier

CONFIGURED = Settings.from_toml(
    '[tools.shell]\nallow_network = false\nblocked_commands = ["docker"]\n'
    'confirm_patterns = ["deploy*", "$("]\nallowed_commands = ["ls", "cat", "curl", "docker", "deploy"]\n'
)


def test_the_classifiers_defaults_are_the_settings_defaults() -> None:
    shell = ShellSettings()
    assert list(CONFIRM_PATTERNS) == shell.confirm_patterns
    assert ShellClassifier().key == shell_classifier(Settings()).key
    assert (shell.allow_network, shell.blocked_commands, shell.allowed_commands) == (True, [], [])


def test_every_value_of_tools_shell_reaches_the_classifier() -> None:
    classifier = shell_classifier(CONFIGURED)
    for command, verdict in [
        ("ls -la", "allow"),
        ("curl https://example.org", "block"),  # allow_network = false
        ("docker ps", "block"),  # blocked_commands
        ("deploy prod", "confirm"),  # confirm_patterns, a command
        ("ls $(pwd)", "confirm"),  # confirm_patterns, syntax
        ("grep x y", "block"),  # not in allowed_commands
    ]:
        assert classifier.classify(command) == verdict, command
        assert classify_shell(command, CONFIGURED) == verdict, command  # the public face translates alike


def test_the_key_is_what_it_was_for_the_same_settings() -> None:
    # The gates hand their parse to the shell executor when the keys match; the key kept its form.
    assert shell_classifier(CONFIGURED).key == repr(
        (False, ("docker",), ("deploy*", "$("), ("ls", "cat", "curl", "docker", "deploy"))
    )
