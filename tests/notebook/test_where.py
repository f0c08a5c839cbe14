"""--tmux, --ssh and --container: the execution context a cell chooses, and the status line about it."""

from __future__ import annotations

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.notebook.magics import _arguments
from zeph_nb.notebook.where import describe_where, with_execution


def test_a_cell_option_chooses_where_commands_run() -> None:
    options = _arguments().parse_args(["--ssh", "alice@gpu-box:2222"])
    chosen = with_execution(Settings(), tmux=False, ssh=options.ssh, container=None)
    assert (chosen.tools.execution.backend, chosen.tools.execution.ssh) == ("ssh", "alice@gpu-box:2222")
    where = describe_where(chosen)
    assert where is not None and "over ssh on alice@gpu-box:2222" in where and "each asks" in where
    boxed = with_execution(Settings(), tmux=False, ssh=None, container="web")
    assert (
        describe_where(boxed)
        == "commands and read/write/edit run in container web, in its working directory; each asks"
    )
    assert describe_where(Settings()) is None
    assert with_execution(Settings(), tmux=False, ssh=None, container=None) == Settings()


def test_two_places_at_once_is_a_mistake_said_plainly() -> None:
    with pytest.raises(ConfigError, match="--ssh and --container were both given"):
        with_execution(Settings(), tmux=False, ssh="a@b", container="web")


def test_the_transcript_says_first_where_commands_run_when_it_is_elsewhere() -> None:
    from zeph_nb.notebook.where import banner

    remote = with_execution(Settings(), tmux=True, ssh="alice@gpu-box", container=None)
    assert remote.tools.execution.tmux and remote.tools.execution.backend == "ssh"
    said = banner(remote)
    assert said is not None and said.startswith("Commands run elsewhere: commands and read/write/edit run over ssh")
    assert "tmux pane there" in said
