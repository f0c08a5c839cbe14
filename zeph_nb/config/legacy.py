"""Keys under an older place: read where they were (with a deprecation warning saying where they live now), and
``zeph-nb migrate-config FILE`` to rewrite a file, comments and layout kept (tomlkit).

The tables follow the package that reads them: what the gates read moved from ``[tools]`` to ``[gates]``
(``[tools.retry]`` is ``[gates.retry]``, ``[tools] trust_level`` is ``[gates.trust] level``, …), what output/ reads
to ``[output]``, ``[tools.audit]`` to ``[audit]`` and ``[tools.tafc]`` to ``[agent.tafc]``; the seeds'
``[agent] max_tool_retries`` and ``max_retry_duration_secs`` are ``[gates.retry] max_attempts`` and ``budget_secs``.
A whole table moves as one entry. A file that sets both the old and the new key keeps the new one's value (two
tables are merged, the new one's keys winning); an environment variable named after an old key
(``ZEPH_TOOLS_RETRY_MAX_ATTEMPTS``) sets the new one, unless the new one's variable is set too.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["MOVED", "legacy_env", "main", "migrate_data", "migrate_text"]

# (old table, old key) -> (new table, new key). A table moved whole comes before a key that moves into it, so the
# newer of two old places wins.
MOVED: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], str]] = {
    (("tools",), "approval_timeout_secs"): (("gates", "approval"), "timeout_secs"),
    (("tools",), "shell_confirm"): (("gates", "approval"), "shell_confirm"),
    (("tools",), "max_tool_calls_per_session"): (("gates", "quota"), "max_tool_calls_per_session"),
    (("tools",), "trust_level"): (("gates", "trust"), "level"),
    (("tools",), "policy"): (("gates",), "policy"),
    (("tools",), "permissions"): (("gates",), "permissions"),
    (("tools",), "authorization"): (("gates",), "authorization"),
    (("tools",), "dependencies"): (("gates",), "dependencies"),
    (("tools",), "anomaly"): (("gates",), "anomaly"),
    (("tools",), "adversarial_policy"): (("gates",), "adversarial"),
    (("tools",), "utility"): (("gates",), "utility"),
    (("tools",), "result_cache"): (("gates",), "cache"),
    (("tools",), "retry"): (("gates",), "retry"),
    (("tools",), "summarize_output"): (("output",), "summarize"),
    (("tools",), "overflow"): (("output",), "overflow"),
    (("tools",), "filters"): (("output",), "filters"),
    (("tools",), "audit"): ((), "audit"),
    (("tools",), "tafc"): (("agent",), "tafc"),
    (("agent",), "max_tool_retries"): (("gates", "retry"), "max_attempts"),
    (("agent",), "max_retry_duration_secs"): (("gates", "retry"), "budget_secs"),
}


def _dotted(path: tuple[str, ...], key: str) -> str:
    return ".".join((*path, key))


def _table(data: dict[str, Any], path: tuple[str, ...], *, create: bool) -> dict[str, Any] | None:
    node: Any = data
    for name in path:
        if not isinstance(node, dict):
            return None
        if name not in node:
            if not create:
                return None
            node[name] = {}
        node = node[name]
    return node if isinstance(node, dict) else None


def _fill(new: Any, old: Any) -> list[str]:
    """Copy into table ``new`` the keys of table ``old`` it does not set (a table both set: the same, one level
    down); the keys ``new`` already set, which win, are returned dotted."""
    kept = []
    for key, value in old.items():
        if key not in new:
            new[key] = value
        elif hasattr(new[key], "items") and hasattr(value, "items"):
            kept += [f"{key}.{inner}" for inner in _fill(new[key], value)]
        else:
            kept.append(str(key))
    return kept


def _moved(old_name: str, new_name: str, new: Any, value: Any) -> tuple[bool, str]:
    """Put ``value`` (an old key's) at ``new_name`` in table ``new``: whether it went in, and what was done."""
    key = new_name.rpartition(".")[2]
    if key not in new:
        new[key] = value
        return True, f"read as {new_name}"
    if hasattr(new[key], "items") and hasattr(value, "items"):
        kept = [f"{new_name}.{inner}" for inner in _fill(new[key], value)]
        if not kept:
            return True, f"merged into {new_name}"
        return True, f"merged into {new_name}; {', '.join(kept)} set there too, and {'win' if kept[1:] else 'wins'}"
    return False, f"{new_name} is set too, and wins"


def migrate_data(data: dict[str, Any], source: str) -> list[str]:
    """Move the old keys of parsed TOML ``data`` to their new places, in place; a DeprecationWarning for each.
    Returns the dotted new keys that were filled in (their origin is the file, under the new name)."""
    moved = []
    for (old_path, old_key), (new_path, new_key) in MOVED.items():
        old = _table(data, old_path, create=False)
        if old is None or old_key not in old:
            continue
        new = _table(data, new_path, create=True)
        if new is None:
            continue
        old_name, new_name = _dotted(old_path, old_key), _dotted(new_path, new_key)
        went, note = _moved(old_name, new_name, new, old.pop(old_key))
        if went:
            moved.append(new_name)
        warnings.warn(
            f"{source}: {old_name} is deprecated ({note}); write {new_name} instead, or run "
            f"`zeph-nb migrate-config {source}` to rewrite the file",
            DeprecationWarning,
            stacklevel=4,
        )
    return moved


def legacy_env(keys: Iterable[str]) -> dict[str, str]:
    """The environment variables named after an old key (``ZEPH_TOOLS_RETRY_MAX_ATTEMPTS``) -> the dotted new key
    each sets (``gates.retry.max_attempts``), for the dotted ``keys`` an environment variable may set."""
    found = {}
    for dotted in keys:
        for (old_path, old_key), (new_path, new_key) in MOVED.items():
            new_name = _dotted(new_path, new_key)
            if dotted == new_name or dotted.startswith(new_name + "."):
                old_name = _dotted(old_path, old_key) + dotted[len(new_name) :]
                found["ZEPH_" + old_name.replace(".", "_").upper()] = dotted
    return found


def migrate_text(text: str) -> tuple[str, list[str]]:
    """TOML text with the old keys moved to their new places (comments and layout kept), and what was done."""
    import tomlkit

    document = tomlkit.parse(text)
    done = []
    for (old_path, old_key), (new_path, new_key) in MOVED.items():
        old: Any = document
        for name in old_path:
            old = old.get(name) if hasattr(old, "get") else None
        if old is None or old_key not in old:
            continue
        value = old[old_key]
        del old[old_key]
        new: Any = document
        for name in new_path:
            if name not in new:
                new[name] = tomlkit.table(is_super_table=name != new_path[-1] or hasattr(value, "items"))
            new = new[name]
        old_name, new_name = _dotted(old_path, old_key), _dotted(new_path, new_key)
        went, note = _moved(old_name, new_name, new, value)
        if not went:
            done.append(f"removed {old_name} ({note})")
        elif note.startswith("merged"):
            done.append(f"{old_name} -> {note}")
        else:
            done.append(f"{old_name} -> {new_name}" + ("" if hasattr(value, "items") else f" = {value}"))
    return tomlkit.dumps(document), done


def main(argv: Sequence[str] | None = None) -> int:
    """``zeph-nb migrate-config [FILE]``: rewrite a config file's deprecated keys (a copy is kept as FILE.bak)."""
    parser = argparse.ArgumentParser(prog="zeph-nb", description="zeph-nb's command line")
    commands = parser.add_subparsers(dest="command", required=True)
    migrate = commands.add_parser("migrate-config", help="move deprecated keys of a zeph.toml to where they live now")
    migrate.add_argument("file", nargs="?", default="zeph.toml", help="the config file (default: ./zeph.toml)")
    migrate.add_argument("--dry-run", action="store_true", help="print the new file instead of writing it")
    args = parser.parse_args(argv)
    path = Path(args.file).expanduser()
    if not path.is_file():
        print(f"zeph-nb: {path}: no such file; name the config file to migrate", file=sys.stderr)
        return 2
    text, done = migrate_text(path.read_text(encoding="utf-8"))
    if not done:
        print(f"{path}: nothing to migrate")
        return 0
    if args.dry_run:
        print(text, end="")
        return 0
    shutil.copy2(path, path.with_name(path.name + ".bak"))
    temporary = path.with_name(f".{path.name}.migrating")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)  # whole or not at all: never a half-written config
    for line in done:
        print(f"{path}: {line}")
    print(f"{path}: the original is kept as {path.name}.bak")
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m zeph_nb.config.legacy`
    sys.exit(main())
