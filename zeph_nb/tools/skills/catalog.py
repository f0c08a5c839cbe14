"""Skills on disk: folders holding a ``SKILL.md`` (YAML front matter ``name`` and ``description``, then
instructions in Markdown) and any scripts beside it — the Agent Skills layout coding agents use.

Where they are found, first found wins for a name: the zeph home's ``skills/`` (the person's own: a project cannot
take over a name they defined), ``[skills] paths``, then the project's ``.zeph/skills/``.

Everything in a skill is untrusted text: a project someone cloned, or a file the agent itself wrote during this
session, can hold one. So a skill is *held* — not offered to the model, and ``load_skill`` refuses it — when any of
its files is

* recorded in the provenance journal as written by an agent's tool call (in this kernel or an earlier one), or
* changed after this kernel started (its inode's ctime, which no command can set back, unlike the mtime),

until the person says it is theirs (``%zeph skills trust <name>`` / ``trust_skill``): that trusts the skill as it
is now (a hash over all its files), for this kernel, and tells the journal the person accepted its files. A skill
changed after that is held again. What the model reads of a skill is framed with where it came from and its hash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from zeph_nb.config import Settings
from zeph_nb.config.skills import SKILL_NAME
from zeph_nb.security.provenance import journal_for

__all__ = ["MAX_SKILL_BYTES", "Skill", "SkillCatalog", "is_trusted", "trust_digest"]

Source = Literal["home", "paths", "project"]
SKILL_FILE = "SKILL.md"
MAX_SKILL_BYTES = 256 * 1024  # a SKILL.md is instructions, not data; a bigger one is refused, not cut
MAX_FILES = 200  # files listed beside a SKILL.md (a skill with a vendored tree lists the first ones)
MAX_DEPTH = 4
MAX_WALK = 2000  # entries looked at in one skill folder: past that its files cannot all be checked, so it is refused
MAX_DESCRIPTION = 1024  # the Agent Skills limit

# The hashes of skills the person trusted in this process: whoever builds a catalog (the agent's tool, the magic)
# sees the same say.
_TRUSTED: set[tuple[str, str]] = set()  # (folder, digest): that folder as it was
_TRUSTED_LOCK = threading.Lock()
_HASHES: dict[tuple[str, int, int, int, int], bytes] = {}


def trust_digest(folder: Path, digest: str) -> None:
    with _TRUSTED_LOCK:
        _TRUSTED.add((str(folder), digest))


def is_trusted(folder: Path, digest: str) -> bool:
    with _TRUSTED_LOCK:
        return (str(folder), digest) in _TRUSTED


@dataclass(frozen=True)
class Skill:
    """One skill folder as it is now. ``problem`` says why it cannot be used (no or bad front matter); ``held``
    why it waits for the person's say; neither: the model may load it."""

    name: str
    description: str
    folder: Path  # canonical
    source: Source
    body: str = ""
    files: tuple[str, ...] = ()  # paths relative to the folder, SKILL.md left out
    digest: str = ""  # sha256 over every file's relative path and content
    changed_ns: int = 0  # the newest ctime of the folder and its files
    problem: str | None = None
    held: str | None = None
    # x-requires-secrets, as variable names; those the person has not set yet: it is not offered until they are.
    requires: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    written: tuple[str, ...] = field(default=(), compare=False)  # files the journal says an agent wrote

    @property
    def usable(self) -> bool:
        return self.problem is None and self.held is None and not self.missing

    @property
    def where(self) -> str:
        """Where it came from, in the words the model and the person read."""
        return {"home": "the zeph home", "paths": "[skills] paths", "project": "the project folder"}[self.source]


@dataclass(frozen=True)
class _Parsed:
    name: str
    description: str
    body: str
    problem: str | None
    requires: tuple[str, ...] = ()


class SkillCatalog:
    """The skills ``settings`` name for ``workdir``. ``started``: when this kernel started (seconds since the
    epoch); a skill changed after it is held. Parsing is cached while a SKILL.md is unchanged (size, mtime, ctime,
    inode); the folders are listed afresh at every ``skills()``."""

    def __init__(self, settings: Settings, workdir: str | os.PathLike[str] | None = None, *, started: float) -> None:
        self.settings = settings
        self.workdir = Path(os.path.realpath(workdir if workdir is not None else os.getcwd()))
        self.started_ns = int(started * 1e9)
        self._parsed: dict[tuple[str, int, int, int, int], _Parsed] = {}
        self._home_root: Path | None = None

    def roots(self) -> list[tuple[Path, Source]]:
        """The folders searched, in order (they need not exist)."""
        config = self.settings.skills
        found: list[tuple[Path, Source]] = [(self.home_root(), "home")]
        found += [(self.workdir / os.path.expanduser(p), "paths") for p in config.paths]
        if config.project:
            found.append((self.workdir / ".zeph" / "skills", "project"))
        return found

    def home_root(self) -> Path:
        return self.settings.home / "skills"

    def fingerprint(self) -> tuple[int, ...]:
        """What changes when a skill is added, removed or renamed, or a SKILL.md or a skill folder's own entries
        change (three lstat calls a skill, no walk), and when the person trusts one or sets a skill's variables."""
        from zeph_nb.tools.skills.env import env_changes

        marks: list[int] = [len(_TRUSTED), env_changes()]
        for root, _ in self.roots():
            marks += _stamp(root)
            for folder in _folders(root):
                marks += _stamp(folder) + _stamp(Path(os.path.realpath(folder)) / SKILL_FILE)
        return tuple(marks)

    def skills(self) -> list[Skill]:
        """Every skill found, the first of each name (the others are dropped: ``shadowed`` lists them)."""
        return [skill for skill, first in self._all() if first]

    def shadowed(self) -> list[Skill]:
        """Skills whose name an earlier folder took."""
        return [skill for skill, first in self._all() if not first]

    def get(self, name: str) -> Skill | None:
        return next((skill for skill in self.skills() if skill.name == name), None)

    def trust(self, name: str) -> Skill:
        """The person's say: ``name`` as it is now may be loaded in this kernel; the files an agent wrote in it are
        recorded in the journal as accepted. KeyError for an unknown name, ValueError for a broken skill."""
        skill = self.get(name)
        if skill is None:
            raise KeyError(name)
        if skill.problem is not None:
            raise ValueError(f"skill {name!r} cannot be used: {skill.problem}")
        journal = journal_for(self.settings.home)
        for relative in skill.written:
            journal.trust(skill.folder / relative)
        trust_digest(skill.folder, skill.digest)
        return self.get(name) or skill

    # -- finding and reading ------------------------------------------------------------------------------------

    def _all(self) -> Iterator[tuple[Skill, bool]]:
        seen: set[str] = set()
        for root, source in self.roots():
            for folder in _folders(root):
                skill = self._read(folder, source)
                if skill is None:
                    continue
                yield skill, skill.name not in seen
                seen.add(skill.name)

    def _read(self, entry: Path, source: Source) -> Skill | None:
        try:
            link = os.lstat(entry)
            real = Path(os.path.realpath(entry))
            skill_file = real / SKILL_FILE
            info = os.lstat(skill_file)
        except OSError:
            return None  # a folder without a SKILL.md is no skill (and says nothing about one)
        name = entry.name
        if not stat.S_ISREG(info.st_mode):
            return Skill(name, "", real, source, problem=f"{SKILL_FILE} is not a regular file (a link is refused)")
        if info.st_size > MAX_SKILL_BYTES:
            return Skill(name, "", real, source, problem=f"{SKILL_FILE} is {info.st_size} bytes; at most "
                                                         f"{MAX_SKILL_BYTES} are read")  # fmt: skip
        if self._hidden(real, source):
            return Skill(name, "", real, source, problem="its folder is a protected path (zeph's state, credentials)")
        parsed = self._parse(skill_file, info)
        files, every, changed, digest = _inventory(real, max(link.st_ctime_ns, info.st_ctime_ns))
        problem = parsed.problem
        if problem is None and not digest:
            problem = (f"its folder holds more than {MAX_WALK} entries or folders more than {MAX_DEPTH} deep, too many "
                       "to check for changes")  # fmt: skip
        if problem is None and parsed.name != name:
            problem = f"its front matter names {parsed.name!r}, but the folder is {name!r} (they must match)"
        from zeph_nb.tools.skills.env import skill_env

        given = skill_env(name, self.settings) if parsed.requires else {}
        skill = Skill(parsed.name if problem is None else name, parsed.description, real, source, parsed.body,
                      tuple(files), digest, changed, problem, requires=parsed.requires,
                      missing=tuple(v for v in parsed.requires if v not in given))  # fmt: skip
        if problem is not None:
            return skill
        journal = journal_for(self.settings.home)
        # Every file, dot-files too: one an agent wrote in an earlier kernel is older than this one's start.
        written = tuple(rel for rel in every if journal.agent_written(real / rel) is not None)
        return _with_hold(skill, written, self.started_ns)

    def _hidden(self, real: Path, source: Source) -> bool:
        from zeph_nb.security.protected import inside
        from zeph_nb.tools.containment import protected_paths

        if self._home_root is None:
            self._home_root = Path(os.path.realpath(self.home_root()))
        if source == "home" and inside(real, self._home_root):
            return False  # the zeph home is hidden from tools, but its skills/ folder is the person's to share
        return protected_paths(self.settings, self.workdir).hidden_by(real) is not None

    def _parse(self, path: Path, info: os.stat_result) -> _Parsed:
        key = (str(path), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        if key not in self._parsed:
            if len(self._parsed) > 1000:
                self._parsed.clear()
            self._parsed[key] = _parse_skill(_read_text(path))
        return self._parsed[key]


def _with_hold(skill: Skill, written: tuple[str, ...], started_ns: int) -> Skill:
    if is_trusted(skill.folder, skill.digest):
        return dataclasses.replace(skill, written=written)
    held = None
    if written:
        held = f"{', '.join(written)} written by the agent, as the provenance journal records"
    elif skill.changed_ns > started_ns:
        held = "changed after this kernel started"
    return dataclasses.replace(skill, held=held, written=written)


def _stamp(path: Path) -> list[int]:
    try:
        info = os.lstat(path)
    except OSError:
        return [0]
    return [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _folders(root: Path) -> list[Path]:
    try:
        with os.scandir(root) as entries:
            names = sorted(e.name for e in entries if not e.name.startswith(".") and SKILL_NAME.match(e.name))
    except OSError:
        return []
    return [root / name for name in names]


def _read_text(path: Path) -> str:
    # O_NOFOLLOW: a SKILL.md swapped for a link after it was looked at is not followed (to a key, a token file).
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        data = os.read(fd, MAX_SKILL_BYTES + 1)
    finally:
        os.close(fd)
    return data[:MAX_SKILL_BYTES].decode("utf-8", errors="replace")


def _parse_skill(text: str) -> _Parsed:
    """The front matter (YAML between ``---`` lines at the top) and the Markdown body after it."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return _Parsed("", "", "", f"{SKILL_FILE} does not start with YAML front matter (a line '---')")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), None)
    if end is None:
        return _Parsed("", "", "", "its front matter has no closing '---' line")
    import yaml  # on the first SKILL.md read: PyYAML costs every new Agent ~10 ms at import, and few have skills

    try:
        meta = yaml.safe_load("".join(lines[1:end]))
    except yaml.YAMLError as e:
        return _Parsed("", "", "", f"its front matter is not valid YAML: {str(e).splitlines()[0]}")
    if not isinstance(meta, dict):
        return _Parsed("", "", "", "its front matter is not a mapping of keys (name, description)")
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not SKILL_NAME.match(name):
        return _Parsed("", "", "", "its front matter needs a name: lower-case letters, digits and hyphens")
    if not isinstance(description, str) or not description.strip():
        return _Parsed(name, "", "", "its front matter needs a description (what it does and when to use it)")
    # One line of printable text: it is shown in the tool's description, where a newline could pose as our own text.
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in description).split())
    if len(flat) > MAX_DESCRIPTION:
        return _Parsed(name, "", "", f"its description is {len(flat)} characters; at most {MAX_DESCRIPTION}")
    requires, problem = _secrets(meta.get("x-requires-secrets"))
    return _Parsed(name, flat, "".join(lines[end + 1 :]).strip("\n"), problem, requires)


def _secrets(value: object) -> tuple[tuple[str, ...], str | None]:
    """``x-requires-secrets`` (the reference agent's key: ``github-token, github-org`` or a YAML list) as the
    variables the scripts get: ``GITHUB_TOKEN``, ``GITHUB_ORG``."""
    if value is None:
        return (), None
    names = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else None
    if names is None or not all(isinstance(n, str) and SKILL_NAME.match(n.strip()) for n in names):
        return (), "x-requires-secrets lists secret names: lower-case letters, digits and hyphens, comma-separated"
    return tuple(dict.fromkeys(n.strip().upper().replace("-", "_") for n in names)), None


def _inventory(folder: Path, changed_ns: int) -> tuple[list[str], list[str], int, str]:
    """The files beside SKILL.md to list (relative, sorted, no links followed, no dot-files), every file (SKILL.md
    and dot-files too), the newest ctime of the folder, its sub-folders and files, and a sha256 over every file's
    relative path and content ("" when the folder holds more than MAX_WALK entries)."""
    digest = hashlib.sha256()
    files: list[str] = []
    every: list[str] = []
    newest = changed_ns
    seen = 0

    def walk(current: Path, depth: int) -> None:
        nonlocal newest, seen
        try:
            newest = max(newest, os.lstat(current).st_ctime_ns)
            with os.scandir(current) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:  # dot-files too: a new .x.sh in a trusted skill must hold it like any file
            seen += 1
            if seen > MAX_WALK:
                return
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            newest = max(newest, info.st_ctime_ns)
            relative = os.path.relpath(entry.path, folder)
            if stat.S_ISDIR(info.st_mode):
                if depth >= MAX_DEPTH:  # what is below goes unchecked: the skill is refused, not half-checked
                    seen = MAX_WALK + 1
                    return
                walk(Path(entry.path), depth + 1)
            elif stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
                every.append(relative)
                digest.update(relative.encode() + b"\0")
                digest.update(_content(Path(entry.path), info))
                listed = relative != SKILL_FILE and not any(part.startswith(".") for part in Path(relative).parts)
                if listed and len(files) < MAX_FILES:
                    files.append(relative)

    walk(folder, 0)
    return files, every, newest, digest.hexdigest() if seen <= MAX_WALK else ""


def _content(path: Path, info: os.stat_result) -> bytes:
    """What identifies a file: a link by its target's text, a small file by its bytes, a large one by size and
    mtime (a vendored data file is no one's instructions)."""
    if stat.S_ISLNK(info.st_mode):
        return b"link:" + os.fsencode(os.readlink(path))
    if info.st_size > 8 * 1024 * 1024:
        return f"size:{info.st_size}:{info.st_mtime_ns}".encode()
    # A file whose size, times and inode stand is not read again (the ctime moves with any write, even one that
    # sets the mtime back).
    key = (str(path), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    with _TRUSTED_LOCK:
        known = _HASHES.get(key)
    if known is not None:
        return known
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b"unreadable"
    try:
        digest = hashlib.sha256(b"".join(iter(lambda: os.read(fd, 1 << 20), b""))).digest()
    finally:
        os.close(fd)
    with _TRUSTED_LOCK:
        if len(_HASHES) > 10_000:
            _HASHES.clear()
        _HASHES[key] = digest
    return digest
