"""The sandbox hides with fewer mounts (``security/hiding.py``) and hides exactly as much as the mount-per-path list
did: a home with the secrets the layout hides, probed from inside the real bwrap sandbox under both lists — every
hidden path, and the other ways to it (``/proc/self/root``, ``..``, a link or hard link the command makes), reveals
nothing under either; every other path reads and writes as it did."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.security import hiding, os_sandbox
from zeph_nb.security.os_sandbox import bwrap_argv, private_tmp, probe, wrap
from zeph_nb.security.protected import inside
from zeph_nb.tools.containment import sandbox_spec

SANDBOX = probe("auto")
pytestmark = pytest.mark.skipif(
    not SANDBOX.active and os.environ.get("CI") != "true", reason=f"no OS sandbox here: {SANDBOX.reason}"
)

_NEW = os_sandbox._hiding  # the list under test (the comparison swaps in the old one)
SECRET = "HIDDENVALUE-7f3a"
NOTHING = hashlib.sha256(b"").hexdigest()[:12]  # what a /dev/null stand-in reads as

PROBE = r"""
import errno, hashlib, json, os, sys
work, reads, links, writes = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
def look(path):
    try:
        if os.path.isdir(path):
            return "dir:" + ",".join(sorted(os.listdir(path)))
        with open(path, "rb") as handle:
            data = handle.read()
        return "file:" + hashlib.sha256(data).hexdigest()[:12] + (":SECRET" if b"HIDDENVALUE" in data else "")
    except OSError as e:
        return "err:" + errno.errorcode.get(e.errno, str(e.errno))
out = {path: look(path) for path in reads}
for i, target in enumerate(links):
    soft, hard = os.path.join(work, f"soft-{i}"), os.path.join(work, f"hard-{i}")
    os.symlink(target, soft)
    out["symlink to " + target] = look(soft)
    try:
        os.link(target, hard)
        out["hard link to " + target] = look(hard)
        os.unlink(hard)
    except OSError as e:
        out["hard link to " + target] = "err:" + errno.errorcode.get(e.errno, str(e.errno))
    os.unlink(soft)
for folder in writes:
    path = os.path.join(folder, "written-by-probe")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(path)
        out["write in " + folder] = "ok"
    except OSError as e:
        out["write in " + folder] = "err:" + errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps(out))
"""


def _old_hiding(
    hidden: Sequence[Path], writable: Sequence[Path], bound: Sequence[Path], replaced: Sequence[Path]
) -> list[tuple[Path, bool]]:
    """The list before fewer mounts: one mount per hidden path that exists and is not a link, in list order."""
    found = []
    for path in hidden:
        if any(inside(root, path) and root != path for root in writable) or not os.path.lexists(path):
            continue
        if path.is_symlink():
            continue
        found.append((path, path.is_dir()))
    return found


class Home:
    """A person's home with what the layout hides: credential folders and files, a history, a link to a secret, a
    folder holding nothing but hidden files, a folder holding hidden and ordinary files, secrets under the real /tmp
    (one in a folder commands may write, one not)."""

    def __init__(self, base: Path, under_tmp: Path) -> None:
        self.base, self.under_tmp = base, under_tmp
        self.home = base / "home"
        self.work = self.home / "project"
        self.zeph = self.home / ".zeph"
        self.vault = base / "vault"  # every entry hidden: one tmpfs over it
        self.mixed = base / "mixed"  # hidden and ordinary entries side by side
        self.shared = under_tmp / "shared"  # under /tmp, writable by commands (allowed_paths)
        self.elsewhere = under_tmp / "elsewhere"  # under /tmp, out of sight of the private /tmp
        for folder in (self.work, self.zeph, self.home / ".ssh", self.home / ".aws", self.home / ".cargo" / "bin",
                       self.vault, self.mixed, self.shared, self.elsewhere):  # fmt: skip
            folder.mkdir(parents=True, exist_ok=True)
        secrets = [self.home / ".ssh" / "id_rsa", self.home / ".aws" / "credentials", self.home / ".bash_history",
                   self.home / ".cargo" / "credentials.toml", self.home / ".cargo" / "credentials",
                   self.zeph / "grants.json", self.vault / "a.key", self.vault / "b.key", self.mixed / "c.key",
                   self.shared / "token.txt", self.elsewhere / "secret.txt", base / "netrc-real"]  # fmt: skip
        for path in secrets:
            path.write_text(f"{SECRET} {path.name}\n")
        (self.home / ".netrc").symlink_to(base / "netrc-real")  # a hidden link: its target is hidden too
        (self.home / ".bashrc").write_text("# bashrc\n")
        (self.home / ".cargo" / "bin" / "tool").write_text("#!/bin/sh\n")
        (self.mixed / "readme.txt").write_text("ordinary\n")
        (self.work / "data.csv").write_text("a,b\n")
        (base / "public.txt").write_text("public\n")
        # A hard link the person made to a secret, outside every hidden path: hiding is by path, so it reads
        # alike under both lists (what this test guards is that the new list shows nothing the old one hid).
        os.link(self.home / ".ssh" / "id_rsa", base / "person-hardlink")
        self.secrets = secrets

    def settings(self) -> Settings:
        hidden = [
            str(self.vault / "a.key"),
            str(self.vault / "b.key"),
            str(self.mixed / "c.key"),
            str(self.shared / "token.txt"),
            str(self.elsewhere / "secret.txt"),
            str(self.base / "netrc-real"),
        ]
        allowed = json.dumps([str(self.shared)])
        toml = f"[tools.shell]\nhidden_paths = {json.dumps(hidden)}\nallowed_paths = {allowed}\n"
        return Settings.from_toml(toml).model_copy(update={"home": self.zeph, "user_home": self.home})


@pytest.fixture
def home() -> Iterator[Home]:
    # Outside /tmp (the sandbox has its own), and a second folder inside the real /tmp.
    base = Path(tempfile.mkdtemp(prefix="zeph-hiding-", dir="/var/tmp"))
    under_tmp = Path(tempfile.mkdtemp(prefix="zeph-hiding-", dir="/tmp"))
    try:
        yield Home(base, under_tmp)
    finally:
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(under_tmp, ignore_errors=True)


def _routes(path: Path, work: Path) -> list[str]:
    """Other ways to name ``path`` from inside the sandbox."""
    routes = [str(path), f"/proc/self/root{path}", f"/proc/1/root{path}",
              f"{path.parent}/../{path.parent.name}/{path.name}", f"{path.parent}/./{path.name}"]  # fmt: skip
    if inside(path, work.parent):
        routes.append(os.path.join(work, "..", os.path.relpath(path, work.parent)))
    return routes


def _probe(h: Home, monkeypatch: pytest.MonkeyPatch, hiding: object) -> tuple[dict[str, str], list[str]]:
    monkeypatch.setattr(os_sandbox, "_hiding", hiding)
    settings = h.settings()
    status = probe("auto")
    assert status.bwrap is not None
    secret_folders = sorted({p.parent for p in h.secrets} | {h.home / ".ssh", h.home / ".aws", h.zeph})
    reads = [r for p in [*h.secrets, h.home / ".netrc", *secret_folders] for r in _routes(p, h.work)]
    visible = [h.home / ".bashrc", h.home / ".cargo" / "bin" / "tool", h.mixed / "readme.txt", h.work / "data.csv",
               h.base / "public.txt", h.base / "person-hardlink", h.home]  # fmt: skip
    reads += [str(p) for p in visible]
    writes = [str(h.work), str(h.shared), str(h.vault), str(h.mixed), str(h.home / ".cargo"), str(h.elsewhere),
              str(h.zeph), "/tmp"]  # fmt: skip
    links = [str(p) for p in h.secrets]
    line = " ".join(shlex.quote(a) for a in (sys.executable, "-I", "-c", PROBE, str(h.work), json.dumps(reads),
                                             json.dumps(links), json.dumps(writes)))  # fmt: skip
    with private_tmp(wait=True) as tmp:
        spec = dataclasses.replace(sandbox_spec(settings, h.work), tmp_dir=tmp)
        layout = bwrap_argv(spec, status.bwrap, ["bash"])
        done = subprocess.run(wrap(["bash", "-c", line], spec, status), capture_output=True, text=True, timeout=60,
                              check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), layout


def _reveals_nothing(result: str) -> bool:
    return result.startswith("err:") or result in ("dir:", f"file:{NOTHING}")


def test_fewer_mounts_hide_exactly_what_the_mount_per_path_list_hid(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, old_layout = _probe(home, monkeypatch, _old_hiding)
    new, new_layout = _probe(home, monkeypatch, _NEW)
    assert old.keys() == new.keys()
    # Nothing secret, by any route, under either list (but the person's own hard link, alike under both).
    person = str(home.base / "person-hardlink")
    assert old[person] == new[person]
    assert not [k for k, v in {**old, **new}.items() if v.endswith(":SECRET") and k != person], (old, new)
    hidden_routes = [k for k in new if any(str(p) in k for p in (*home.secrets, home.home / ".netrc"))]
    assert hidden_routes and all(_reveals_nothing(new[k]) for k in hidden_routes), new
    # Everything else as it was. Differences only where the list changed — the vault, hidden whole now; the
    # secret under /tmp out of every bind, no longer given a stand-in in the private /tmp — and there the new list
    # shows less: not even the stand-ins' names.
    changed = {k: (old[k], new[k]) for k in new if old[k] != new[k]}
    where = (f"/{home.vault.name}", f"/{home.elsewhere.name}")  # under any route to it
    assert changed and all(any(w in k for w in where) for k in changed), changed
    assert all(_reveals_nothing(now) for _, now in changed.values()), changed
    # The stand-ins' names; and under /tmp a folder the old list made in the private /tmp, to hold its stand-in,
    # which the command could write in (its own private folder, nothing of the host's).
    stand_ins = {"dir:a.key,b.key", "dir:secret.txt"}
    assert changed.pop("write in " + str(home.elsewhere)) == ("ok", "err:ENOENT")
    assert all(_reveals_nothing(was) or was in stand_ins for was, _ in changed.values()), changed
    assert new["write in " + str(home.work)] == "ok" and new["write in " + str(home.shared)] == "ok"
    assert new["write in /tmp"] == "ok"
    for folder in (home.vault, home.mixed, home.home / ".cargo", home.zeph):
        assert new["write in " + str(folder)].startswith("err:"), folder
    assert new[str(home.mixed / "readme.txt")] == old[str(home.mixed / "readme.txt")] != "err:ENOENT"
    # And it took fewer mounts: the vault is one, the secret under /tmp out of every bind is none.
    assert len(new_layout) < len(old_layout)
    assert str(home.vault) in new_layout and str(home.vault / "a.key") not in new_layout
    assert str(home.elsewhere / "secret.txt") not in new_layout and str(home.shared / "token.txt") in new_layout


def test_a_secret_inside_a_hidden_folder_is_one_mount_and_the_command_still_runs(home: Home) -> None:
    """A hidden path inside a hidden folder (a store or runtime folder inside the zeph or Jupyter folder) made a
    mount point bwrap cannot create in the folder's read-only tmpfs: every command failed. Now the folder hides it."""
    inner = home.vault / "nested"
    inner.mkdir()
    (inner / "deep.key").write_text(SECRET)
    (home.vault / "c.txt").write_text("not listed\n")  # the vault now has an entry that is not hidden
    settings = Settings.from_toml(
        f"[tools.shell]\nhidden_paths = {json.dumps([str(home.vault), str(inner / 'deep.key')])}\n"
    ).model_copy(update={"home": home.zeph, "user_home": home.home})
    status = probe("auto")
    with private_tmp(wait=True) as tmp:
        spec = dataclasses.replace(sandbox_spec(settings, home.work), tmp_dir=tmp)
        argv = wrap(["bash", "-c", f"cat {inner}/deep.key; ls -A {home.vault}; echo done"], spec, status)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "done", (done.stdout, done.stderr)
    assert str(inner / "deep.key") not in argv and argv.count(str(home.vault)) == 2  # --tmpfs and --remount-ro


def _hidden_by(mounts: Sequence[tuple[str | Path, bool]]) -> dict[Path, bool]:
    return {Path(path): is_dir for path, is_dir in mounts}


def test_a_folder_is_hidden_whole_only_when_every_entry_is_hidden_and_nobody_writes_in_it(home: Home) -> None:
    hidden = [home.vault / "a.key", home.vault / "b.key", home.mixed / "c.key"]
    writable = [home.work]
    found = _hidden_by(_NEW(hidden, writable, writable, [Path("/tmp")]))
    assert found == {home.vault: True, home.mixed / "c.key": False}
    # The same folder, writable by commands: creating in it must stay possible, so the files are hidden one by one.
    found = _hidden_by(_NEW(hidden, [home.base], [home.base], [Path("/tmp")]))
    assert home.vault not in found and found[home.vault / "a.key"] is False
    # Something bound inside it (a writable folder, a path shown from /tmp): never covered by the folder's tmpfs.
    found = _hidden_by(_NEW(hidden, writable, [*writable, home.vault / "a.key"], [Path("/tmp")]))
    assert home.vault not in found
    assert stat.S_ISDIR(os.lstat(home.vault).st_mode)


def _worked_out_each_time(
    hidden: Sequence[Path], writable: Sequence[Path], bound: Sequence[Path], replaced: Sequence[Path]
) -> dict[Path, bool]:
    """``_hiding`` as it was before its plan was kept between commands: everything worked out from scratch."""
    roots, binds, folders_replaced = [str(p) for p in writable], [str(p) for p in bound], [str(p) for p in replaced]

    def within(path: str, root: str) -> bool:
        return path == root or path.startswith(root.rstrip("/") + "/")

    found: dict[str, bool] = {}
    for path in dict.fromkeys(map(str, hidden)):
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if stat.S_ISLNK(mode) or any(root != path and within(root, path) for root in roots):
            continue
        if any(path != f and within(path, f) for f in folders_replaced) and not any(
            within(path, o) or within(o, path) for o in binds
        ):
            continue
        found[path] = stat.S_ISDIR(mode)
    names: dict[str, set[str]] = {}
    for folder, name in map(os.path.split, map(str, hidden)):
        names.setdefault(folder, set()).add(name)
    members: dict[str, list[str]] = {}
    for path in found:
        members.setdefault(os.path.dirname(path), []).append(path)
    for folder, inner in members.items():
        if len(inner) < 2 or folder == "/" or folder in folders_replaced:
            continue
        if any(within(folder, r) for r in roots) or any(within(o, folder) for o in binds):
            continue
        if not os.path.isdir(folder) or os.path.islink(folder):
            continue
        if not all(name in names[folder] for name in os.listdir(folder)):
            continue
        for path in inner:
            del found[path]
        found[folder] = True
    dirs = [p for p, d in found.items() if d]
    return {Path(p): d for p, d in found.items() if not any(p != f and within(p, f) for f in dirs)}


def _bump(folder: Path) -> None:
    """A folder's mtime moved on for sure (a change within one tick of the coarse clock may leave it as it was)."""
    info = os.stat(folder)
    os.utime(folder, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def test_the_plan_kept_between_commands_hides_what_a_fresh_look_would_as_the_files_change(home: Home) -> None:
    """The plan kept per list (``_hiding_plan``) and the folders' last listings must never hide less than working
    everything out afresh: after a hidden path appears, a folder becomes all-hidden, gets an ordinary entry again,
    or is swapped for a link, the mounts are the ones a fresh look gives."""
    extra = home.vault / "new.key"
    hidden = [home.vault / "a.key", home.vault / "b.key", extra, home.mixed / "c.key", home.mixed / "d.key"]
    writable, replaced = [home.work], [Path("/tmp")]

    def same() -> None:
        assert _hidden_by(_NEW(hidden, writable, writable, replaced)) == _worked_out_each_time(
            hidden, writable, writable, replaced
        )

    same()
    extra.write_text(SECRET)  # a hidden path that appeared: in a whole folder already, hidden with it
    _bump(home.vault)
    same()
    (home.mixed / "d.key").write_text(SECRET)  # appears beside an ordinary file: hidden on its own
    _bump(home.mixed)
    same()
    assert _hidden_by(_NEW(hidden, writable, writable, replaced))[home.mixed / "d.key"] is False
    (home.mixed / "readme.txt").unlink()  # the mixed folder now holds only hidden entries: one tmpfs
    _bump(home.mixed)
    same()
    assert _hidden_by(_NEW(hidden, writable, writable, replaced)).get(home.mixed) is True
    (home.vault / "notes.txt").write_text("ordinary")  # an ordinary entry again: each hidden file on its own
    _bump(home.vault)
    same()
    assert home.vault not in _hidden_by(_NEW(hidden, writable, writable, replaced))
    # Even without the mtime moving, a folder thought whole hides more, never less.
    (home.mixed / "later.txt").write_text("ordinary")
    info = os.stat(home.mixed)
    os.utime(home.mixed, ns=(info.st_atime_ns, info.st_mtime_ns))
    now = _hidden_by(_NEW(hidden, writable, writable, replaced))
    for path in _worked_out_each_time(hidden, writable, writable, replaced):
        assert any(inside(path, mount) for mount in now), path
    # A folder swapped for a link to another: never hidden through the link, its entries looked at afresh.
    moved = home.base / "vault-moved"
    home.vault.rename(moved)
    home.vault.symlink_to(moved)
    same()


@pytest.mark.parametrize("failure", ["cannot list", "an entry vanishes while listed"])
def test_a_folder_that_cannot_be_listed_has_its_hidden_entries_looked_up_one_by_one(
    home: Home, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """A folder with many hidden names is listed rather than each name looked up. One that cannot be listed (search
    permission without read: a home of mode 0711, as an ordinary user sees another's) or whose listing breaks
    half-way must not make its secrets look absent."""
    folder = home.base / "many"
    folder.mkdir()
    hidden = [folder / f".secret-{i}" for i in range(hiding._LIST_FROM + 2)]
    for path in hidden[:3]:
        path.write_text(SECRET)
    (folder / "ordinary.txt").write_text("ordinary")
    real = os.scandir

    class Broken:
        def __init__(self, entries: Iterator[os.DirEntry[str]]) -> None:
            self.entries = entries

        def __enter__(self) -> Iterator[os.DirEntry[str]]:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def __iter__(self) -> Iterator[os.DirEntry[str]]:
            for entry in self.entries:
                if entry.name == ".secret-0":
                    raise FileNotFoundError(entry.path)  # as its stat would, once it is gone
                yield entry

    def scandir(path: str | int) -> object:
        if path != str(folder):  # the fixture's clean-up lists by descriptor
            return real(path)
        if failure == "cannot list":
            raise PermissionError(13, "Permission denied", path)
        return Broken(real(path))

    monkeypatch.setattr(hiding.os, "scandir", scandir)
    found = _hidden_by(_NEW(hidden, [home.work], [home.work], [Path("/tmp")]))
    assert found == _worked_out_each_time(hidden, [home.work], [home.work], [Path("/tmp")])
    assert all(found.get(path) is False for path in hidden[:3])
