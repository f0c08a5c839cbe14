"""Which tools are offered ([tools] *_enabled, disabled) and shell_confirm, through the whole chain."""

from __future__ import annotations

from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates import AutoApprove, ScriptedApprover, build_chain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.kernel import KernelExecutor
from zeph_nb.tools.toolsets import turned_off

FLAGS = sorted(name for name in type(Settings().tools).model_fields if name.endswith("_enabled"))


def settings_of(toml: str, store: Store) -> Settings:
    return Settings.from_toml(toml).model_copy(update={"home": store.home})


def by_flag(tmp_path: Path, store: Store) -> dict[str, set[str]]:
    """Every built-in tool (tmux's and the kernel's too), by the ``enabled_by`` trait of its spec."""
    settings = settings_of('[tools.execution]\nbackend = "tmux"\n', store)
    kernel = KernelExecutor(object())  # type: ignore[arg-type]  # only its definitions are read
    chain = build_chain(settings, workdir=tmp_path, store=store, tools=[kernel])
    found: dict[str, set[str]] = {}
    for tool in chain.tool_definitions():
        found.setdefault(tool.enabled_by, set()).add(tool.name)
    return found


async def test_a_tool_turned_off_is_not_offered_and_a_call_to_it_names_the_setting(
    tmp_path: Path, store: Store
) -> None:
    settings = settings_of('[tools]\nfetch_enabled = false\nfile_enabled = false\ndisabled = ["time"]\n', store)
    chain = build_chain(settings, workdir=tmp_path, store=store, approver=AutoApprove())
    offered = [tool.name for tool in chain.tool_definitions()]
    assert "fetch" not in offered and "read" not in offered and "grep" not in offered and "time" not in offered
    assert "bash" in offered and "web_scrape" in offered and "read_overflow" in offered
    for call, setting in ((ToolCall("fetch", {"url": "https://example.org"}), "fetch_enabled = false"),
                          (ToolCall("time", {}), 'disabled = [..., "time"]')):  # fmt: skip
        refused = await chain.execute(call)
        assert refused.category is ToolErrorCategory.TOOL_NOT_FOUND
        assert setting in refused.text, refused.text
    assert turned_off(Settings()) == {}


def test_every_enabled_key_of_tools_has_its_tools(tmp_path: Path, store: Store) -> None:
    # A new [tools] *_enabled key must be some tool's enabled_by, and a spec's enabled_by must be a key.
    assert set(by_flag(tmp_path, store)) - {""} == set(FLAGS)


@pytest.mark.parametrize("flag", FLAGS)
async def test_each_enabled_key_set_false_leaves_out_its_tools_and_only_them(
    flag: str, tmp_path: Path, store: Store
) -> None:
    flags = by_flag(tmp_path, store)
    toml = f'[tools]\n{flag} = false\n[tools.execution]\nbackend = "tmux"\n'  # tmux: capture-pane, send-keys
    kernel = KernelExecutor(object())  # type: ignore[arg-type]  # only its definitions are read
    chain = build_chain(settings_of(toml, store), workdir=tmp_path, store=store, approver=AutoApprove(),
                        tools=[kernel])  # fmt: skip
    offered = {tool.name for tool in chain.tool_definitions()}
    others = {name for other, names in flags.items() if other != flag for name in names}
    assert offered.isdisjoint(flags[flag]) and others <= offered
    refused = await chain.execute(ToolCall(sorted(flags[flag])[0], {}))
    assert refused.category is ToolErrorCategory.TOOL_NOT_FOUND
    assert f"[tools] {flag} = false" in refused.text, refused.text


def test_kernel_enabled_false_leaves_the_kernel_tools_out(tmp_path: Path, store: Store) -> None:
    kernel = KernelExecutor(object())  # type: ignore[arg-type]
    chain = build_chain(settings_of("[tools]\nkernel_enabled = false\n", store), workdir=tmp_path, store=store,
                        tools=[kernel])  # fmt: skip
    offered = {tool.name for tool in chain.tool_definitions()}
    assert not offered & {"list_variables", "inspect_variable", "run_python", "propose_cell"} and "bash" in offered


async def test_shell_confirm_asks_for_every_command_even_one_a_rule_allows(tmp_path: Path, store: Store) -> None:
    allowed = '[gates.permissions]\nbash = [{pattern = "echo *", action = "allow"}]\n'
    plain = build_chain(settings_of(allowed, store), workdir=tmp_path, store=store, approver=ScriptedApprover([]))
    assert (await plain.execute(ToolCall("bash", {"command": "echo hi"}))).text.strip() == "hi"

    approver = ScriptedApprover(["always", "deny"])
    confirm = settings_of("[gates.approval]\nshell_confirm = true\n" + allowed, store)
    chain = build_chain(confirm, workdir=tmp_path, store=store, approver=approver)
    assert (await chain.execute(ToolCall("bash", {"command": "echo hi"}))).text.strip() == "hi"
    denied = await chain.execute(ToolCall("bash", {"command": "echo hi"}))  # "Always allow" was not kept
    assert denied.category is ToolErrorCategory.CONFIRMATION_REQUIRED, denied.text
    assert [r.rule for r in approver.requests] == ["shell_confirm", "shell_confirm"]
    assert "every command asks" in approver.requests[0].reason
