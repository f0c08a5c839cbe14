"""The built-in tools' names, by the setting that turns them off: what ``[tools] <flag> = false`` leaves out
(``toolsets.turned_off``) and the names a person's ``@zeph_nb.tool`` function may not take."""

from __future__ import annotations

__all__ = ["ENABLED_FLAGS", "builtin_names"]

# ``[tools] <flag> = false`` leaves these tools out: they are not offered to the model.
ENABLED_FLAGS: dict[str, tuple[str, ...]] = {
    "shell_enabled": ("bash", "capture-pane", "send-keys"),
    "file_enabled": (
        "read",
        "write",
        "edit",
        "find_path",
        "list_directory",
        "create_directory",
        "delete_path",
        "move_path",
        "copy_path",
        "grep",
    ),
    "fetch_enabled": ("fetch",),
    "web_scrape_enabled": ("web_scrape",),
    "web_search_enabled": ("web_search",),
    "diagnostics_enabled": ("diagnostics",),
    "time_enabled": ("time",),
    "kernel_enabled": ("list_variables", "inspect_variable", "run_python", "propose_cell"),
}


def builtin_names() -> frozenset[str]:
    """Every built-in tool's name (whatever the settings turn off): names a person's function may not take."""
    return frozenset({name for names in ENABLED_FLAGS.values() for name in names} | {"read_overflow"})
