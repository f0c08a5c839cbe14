"""Keys the seeds name under an older place: read where they were (with a deprecation warning saying where they
live now), and ``zeph-nb migrate-config FILE`` to rewrite a file, comments and layout kept (tomlkit).

``[agent] max_tool_retries`` became ``[tools.retry] max_attempts`` and ``[agent] max_retry_duration_secs``
became ``[tools.retry] budget_secs``. A file that sets both the old and the new key keeps the new one's value.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["MOVED", "main", "migrate_data", "migrate_text"]

# (old table, old key) -> (new table, new key)
MOVED: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], str]] = {
    (("agent",), "max_tool_retries"): (("tools", "retry"), "max_attempts"),
    (("agent",), "max_retry_duration_secs"): (("tools", "retry"), "budget_secs"),
}


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


def migrate_data(data: dict[str, Any], source: str) -> list[str]:
    """Move the old keys of parsed TOML ``data`` to their new places, in place; a DeprecationWarning for each.
    Returns the dotted new keys that were filled in (their origin is the file, under the new name)."""
    moved = []
    for (old_path, old_key), (new_path, new_key) in MOVED.items():
        old = _table(data, old_path, create=False)
        if old is None or old_key not in old:
            continue
        value = old.pop(old_key)
        new = _table(data, new_path, create=True)
        old_name, new_name = ".".join((*old_path, old_key)), ".".join((*new_path, new_key))
        if new is None:
            continue
        if new_key in new:
            note = f"{new_name} is set too, and wins"
        else:
            new[new_key] = value
            moved.append(new_name)
            note = f"read as {new_name} = {value!r}"
        warnings.warn(
            f"{source}: {old_name} is deprecated ({note}); write {new_name} instead, or run "
            f"`zeph-nb migrate-config {source}` to rewrite the file",
            DeprecationWarning,
            stacklevel=4,
        )
    return moved


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
                new[name] = tomlkit.table(is_super_table=name != new_path[-1])
            new = new[name]
        old_name, new_name = ".".join((*old_path, old_key)), ".".join((*new_path, new_key))
        if new_key in new:
            done.append(f"removed {old_name} ({new_name} was already set, and wins)")
        else:
            new[new_key] = value
            done.append(f"{old_name} -> {new_name} = {value}")
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
