"""Keys under an older place: read where they were (with a deprecation warning saying where they live now), and
``zeph-nb migrate-config FILE`` to rewrite a file, comments and layout kept (tomlkit).

The tables follow the package that reads them: what the gates read moved from ``[tools]`` to ``[gates]``
(``[tools.retry]`` is ``[gates.retry]``, ``[tools] trust_level`` is ``[gates.trust] level``, …), what output/ reads
to ``[output]``, ``[tools.audit]`` to ``[audit]`` and ``[tools.tafc]`` to ``[agent.tafc]``; the seeds'
``[agent] max_tool_retries`` and ``max_retry_duration_secs`` are ``[gates.retry] max_attempts`` and ``budget_secs``.
A whole table moves as one entry. A file that sets both the old and the new key keeps the new one's value (two
tables are merged, the new one's keys winning), except for a list of restrictions (``UNITED``: permission and
policy rules, a tool's requirements, the policies a second model checks, secret patterns): the two lists are read
as one, since dropping either would lose a deny the person wrote. An environment variable named after an old key
(``ZEPH_TOOLS_RETRY_MAX_ATTEMPTS``) sets the new one, unless the new one's variable is set too.
"""

from __future__ import annotations

import shutil
import sys
import warnings
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

__all__ = ["MOVED", "UNITED", "legacy_env", "main", "migrate_data", "migrate_text"]

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


# Lists of restrictions under a moved key (dotted new names, ``*`` for one table key): when the old and the new
# place both give one, the two are read as one list rather than the new one's replacing the old. ``strictest``:
# rules of which the first match wins, ordered every deny first, then ask, then allow, so a rule of either list
# that denies a call still denies it (one list's allow never answers before the other's deny); ``both``: the
# entries of both, the old place's first, each once.
UNITED: dict[str, str] = {
    "gates.permissions.*": "strictest",
    "gates.authorization.rules": "strictest",
    "gates.policy.rules": "both",  # any matching deny wins whatever the order
    "gates.dependencies.rules.*.requires": "both",
    "gates.adversarial.policies": "both",
    "output.filters.security.extra_patterns": "both",
}
_STRICTNESS = {"deny": 0, "ask": 1, "allow": 2}


def _united(dotted: str) -> str | None:
    """How the lists at ``dotted`` are read as one when both places give one (None: the new one wins)."""
    parts = dotted.split(".")
    for pattern, how in UNITED.items():
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(fnmatchcase(part, want) for part, want in zip(parts, wanted, strict=True)):
            return how
    return None


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _unite(how: str, new: Any, old: Any) -> Any:
    """The lists ``old`` and ``new`` as one (``UNITED``), in the kind of list ``new`` is (a tomlkit array or array
    of tables keeps its kind; the entries keep their comments where tomlkit can)."""
    items = [*old, *new]
    if how == "strictest":
        items.sort(key=_strictness)  # stable: each list's own order is kept among rules of one effect
    else:
        once: list[Any] = []
        for item in items:
            if all(_plain(item) != _plain(other) for other in once):
                once.append(item)
        items = once
    if not hasattr(new, "unwrap"):  # parsed TOML: plain lists
        return items
    import tomlkit
    from tomlkit.items import AoT, InlineTable, Table

    if isinstance(new, AoT):
        tables = tomlkit.aot()
        for item in items:
            if isinstance(item, Table):
                tables.append(item)
            else:
                table = tomlkit.table()
                table.update(_plain(item))
                tables.append(table)
        return tables
    array = tomlkit.array()
    for item in items:
        if isinstance(item, Table):
            inline = tomlkit.inline_table()
            inline.update(_plain(item))
            array.append(inline)
        else:
            array.append(item if isinstance(item, InlineTable) else _plain(item))
    return array.multiline(len(items) > 1 and any(isinstance(_plain(i), dict) for i in items))


def _strictness(item: Any) -> int:
    """A rule's place in a list read ``strictest`` first: deny, ask, allow, then anything else."""
    plain = _plain(item)
    effect = plain.get("action", plain.get("effect")) if isinstance(plain, dict) else None
    return _STRICTNESS.get(effect, len(_STRICTNESS)) if isinstance(effect, str) else len(_STRICTNESS)


def _described(how: str, dotted: str) -> str:
    if how == "strictest":
        return (f"{dotted} is set in both: the two rule lists are read as one, every deny first, then ask, then "
                "allow, so a rule of either that denies a call still denies it")  # fmt: skip
    return f"{dotted} is set in both: the two lists are read as one, the entries of both"


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


def _fill(new: Any, old: Any, where: str) -> tuple[list[str], list[str]]:
    """Copy into table ``new`` (dotted ``where``) the keys of table ``old`` it does not set (a table both set: the
    same, one level down; a list of restrictions both set: the two read as one, ``UNITED``). Returns the keys
    ``new`` already set, which win, and the lists read as one, with why, dotted."""
    kept: list[str] = []
    united: list[str] = []
    for key, value in old.items():
        dotted = f"{where}.{key}"
        how = _united(dotted)
        if key not in new:
            new[key] = value
        elif hasattr(new[key], "items") and hasattr(value, "items"):
            inner_kept, inner_united = _fill(new[key], value, dotted)
            kept += inner_kept
            united += inner_united
        elif how is not None and _is_list(new[key]) and _is_list(value):
            new[key] = _unite(how, new[key], value)
            united.append(_described(how, dotted))
        else:
            kept.append(dotted)
    return kept, united


def _moved(old_name: str, new_name: str, new: Any, value: Any) -> tuple[bool, str]:
    """Put ``value`` (an old key's) at ``new_name`` in table ``new``: whether it went in, and what was done."""
    key = new_name.rpartition(".")[2]
    if key not in new:
        new[key] = value
        return True, f"read as {new_name}"
    how = _united(new_name)
    if how is not None and _is_list(new[key]) and _is_list(value):
        new[key] = _unite(how, new[key], value)
        return True, f"merged into {new_name}: {_described(how, new_name)}"
    if hasattr(new[key], "items") and hasattr(value, "items"):
        kept, united = _fill(new[key], value, new_name)
        note = f"merged into {new_name}"
        if united:
            note += "; " + "; ".join(united)
        if kept:
            note += f"; {', '.join(kept)} set there too, and {'win' if kept[1:] else 'wins'}"
        return True, note
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
    import argparse  # here, not at the top: every Settings.load() imports this module, and only this command parses

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
