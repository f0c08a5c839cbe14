"""HostGuard: what a command may not leave behind on the host, checked around each command.

The sandbox makes existing policy files and git's hooks and config read-only, but it cannot stop a command from
creating a file where there was none, or replacing a link (its target lives elsewhere). So around every command:
what was absent and appeared, or was a link and changed, is undone; a repository that appeared is neutralized.

A command in a tmux pane outlives its call: its guard is also told, from the pane watcher's thread
(``pane_watch.py``), of each path that appeared where it matters (``undo_at``), and undoes it then. One lock keeps
the watcher's thread and the kernel's (a look at the pane, its end) from undoing at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.security import no_links
from zeph_nb.security.gitguard import neutralize_repository, runs_when_used
from zeph_nb.security.journal import GuardJournal
from zeph_nb.security.os_sandbox import (
    AFTER_SCAN_FOLDERS,
    POLICY_FILE_NAMES,
    SandboxSpec,
    TreeScan,
    git_dir_layout,
    git_sensitive,
    module_git_dirs,
    protected_in_trees,
)
from zeph_nb.security.tree_scan import holding_most

__all__ = ["HostGuard"]

log = logging.getLogger("zeph_nb.tools")
# Paths of what a command planted named one by one, in the note the model reads and in the warnings under the
# person's cell; past them, how many more and the folder holding most. A command can make thousands in a second.
NAMED = 10


class HostGuard:
    """What a command may not leave behind on the host, checked around it: ``with HostGuard(...) as guard:`` then
    ``guard.notes`` says what was undone.

    * policy files (``zeph.toml``, ``filters.toml``) and git's hooks, config and pointers that were absent and now
      exist are removed (a journal in the zeph home covers a kernel that dies mid-command, or a file the guard
      cannot remove); a policy file that was a link is put back as it was;
    * a repository that appeared — or whose ``.git`` is no longer what it was (a link replaced by a folder) — is
      stripped of hooks and of config keys git itself does not write; a new ``.git`` pointer file is removed.
    """

    def __init__(self, settings: Settings, spec: SandboxSpec, *, journal_at_enter: bool = True) -> None:
        self.home = settings.home
        self.writable = list(spec.writable)
        self.protected = spec.protected
        trees = protected_in_trees(self.writable)
        self.trees = trees  # the sandbox's layout reuses this walk: one walk before a command, not two
        repos = list(trees.repositories)
        self.policy_files = set(trees.policy_files)
        self.modules = {module for repo in repos if repo.is_dir() for module in module_git_dirs(repo)}
        candidates = [*spec.protected.readonly]
        candidates += [
            path for repo in repos if repo.is_dir() and not repo.is_symlink() for path in git_sensitive(repo)
        ]
        self.absent = [path for path in dict.fromkeys(candidates) if not os.path.lexists(path)]
        # Links among the policy files: a command may replace the link (its target is elsewhere, so read-only
        # binds do not hold it); they are put back.
        self.links = {path: os.readlink(path) for path in spec.protected.readonly if path.is_symlink()}
        self.repos = {repo: _identity(repo) for repo in repos}
        self.notes: list[str] = []
        # Why the pane watcher stopped the command, kept: every later look at the pane says it, not only the first.
        self.stopped: str | None = None
        self._journal = GuardJournal(self.home, self.absent + list(self.links))
        # Without it the caller writes the journal itself (``write_journal``), before the command can run: the
        # shell writes it while bwrap sets the sandbox up, and the command waits for it (os_sandbox.wrap's gate).
        self._journal_at_enter = journal_at_enter
        self._keep_journal = False
        self._lock = threading.RLock()
        self.closed = False
        # What a command planted that would run or be obeyed later (a hook, a pointer, a policy file, a config key
        # that runs a command): the pane watcher stops a command that keeps planting (pane_watch.py).
        self.plants = 0
        self.on_close: Callable[[], None] | None = None  # the pane watcher's: it lets go of this guard

    def __enter__(self) -> HostGuard:
        if self._journal_at_enter:
            self._journal.__enter__()
        return self

    def write_journal(self) -> None:
        """Write (durably) what was absent, for a guard made with ``journal_at_enter=False``: before its command
        may run."""
        self._journal.__enter__()

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
            try:
                self._undo()
            finally:
                if not self._keep_journal:
                    self._journal.__exit__()
        if self.on_close is not None:  # outside the lock: the watcher's thread may be waiting for it
            self.on_close()

    def sweep(self) -> None:
        """Undo what is there to undo now, the command still running (a background command in a tmux pane is
        checked at each look, by the pane watcher now and then, and for good by ``__exit__``)."""
        with self._lock:
            if not self.closed:
                self._undo()

    def undo_at(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        """Undo what is at ``paths`` (just created, written or renamed into place), without walking the trees:
        the repository a path is in or is (a ``.git``, or a folder laid out as a git directory), a policy file.
        Called by the pane watcher as each appears."""
        repositories: set[Path] = set()
        policy: set[Path] = set()
        for raw in paths:
            path = Path(raw)
            if path.name in POLICY_FILE_NAMES:
                policy.add(path)
            if ".git" in path.parts:
                last = len(path.parts) - 1 - path.parts[::-1].index(".git")
                repositories.add(Path(*path.parts[: last + 1]))
            elif git_dir_layout(path):  # a bare repository: git run in or below it obeys its config
                repositories.add(path)
        with self._lock:
            if not self.closed:
                self._undo(TreeScan(tuple(sorted(repositories)), tuple(sorted(policy)), complete=True))

    def add_note(self, note: str) -> None:
        with self._lock:
            self.notes.append(note)

    def take_notes(self) -> list[str]:
        """What was undone since the last time, once (the watcher's thread adds to them)."""
        with self._lock:
            notes, self.notes = self.notes, []
        return notes

    def _undo(self, found: TreeScan | None = None) -> None:
        """Undo what a command left; ``found``: only these paths (a watcher's event), else a walk of the trees."""
        removed = [path.name for path in self.absent if self._remove(path)]
        self.plants += len(removed)
        for path, target in self.links.items():
            if path.is_symlink() and os.readlink(path) == target:
                continue
            if (not os.path.lexists(path) or self._remove(path)) and _relink(path, target):
                removed.append(f"{path.name} (put back as the link it was)")
                self.plants += 1
        if removed:
            self.notes.append(
                f"zeph-nb undid {', '.join(removed)}: config files and git's hooks, config and pointers are out of "
                "reach of tools; ask the person to change them"
            )
        after = found if found is not None else protected_in_trees(self.writable, AFTER_SCAN_FOLDERS, fresh=True)
        # A zeph.toml in any folder is config for a kernel started there (Jupyter starts one per notebook folder).
        # Set aside rather than deleted: one that was there before, past what the first look saw, is the person's.
        new_policy = [path for path in after.policy_files
                      if path not in self.policy_files and os.path.lexists(path) and _set_aside(path)]  # fmt: skip
        self.plants += len(new_policy)
        if new_policy:
            named = ", ".join(map(str, new_policy[:NAMED]))
            for path in new_policy[:NAMED]:
                log.warning("zeph-nb: a command wrote %s; it was set aside (renamed *.zeph-quarantined-*)", path)
            more = ""
            if len(new_policy) > NAMED:
                rest = new_policy[NAMED:]
                most = holding_most(rest)
                where = "" if most is None else (f" under {most[0]}" if most[1] == len(rest)
                                                 else f", {most[1]:,} of them under {most[0]}")  # fmt: skip
                more = f" and {len(new_policy) - NAMED:,} more{where}"
                log.warning("zeph-nb: the command wrote %s more config files%s; each was set aside",
                            f"{len(new_policy) - NAMED:,}", where)  # fmt: skip
            self.notes.append(
                f"zeph-nb set aside {named}{more} (renamed *.zeph-quarantined-*): config files are out of reach of "
                "tools"
            )
        if not after.complete:
            self._keep_journal = True
            self.notes.append(
                f"zeph-nb could not check all of the working directory for new git repositories and config files "
                f"(over {AFTER_SCAN_FOLDERS} folders); look before running git in folders this command created"
            )
        changed = [repo for repo in after.repositories if self.repos.get(repo) != _identity(repo)]
        for repo in after.repositories:  # submodule git dirs a command cloned into .git/modules
            if repo.is_dir() and not repo.is_symlink() and repo not in changed:
                changed += [m for m in module_git_dirs(repo) if m not in self.modules]
        for repo in changed:
            if repo.is_symlink() or not repo.is_dir():
                # A new pointer ("gitdir: elsewhere") would send the person's git to a config a command wrote.
                if self._remove(repo):
                    self.plants += 1
                    self.notes.append(f"zeph-nb removed {repo}: a .git pointer a command wrote")
                continue
            try:
                stripped = neutralize_repository(repo)
            except OSError:
                _make_writable(repo, recursive=True)  # a command may have taken away our own write permission
                try:
                    stripped = neutralize_repository(repo)
                except OSError as e:
                    if not os.path.lexists(repo):
                        continue  # renamed away meanwhile: where it went is looked at on its own
                    self._keep_journal = True
                    stripped = [f"NOT cleaned ({e}); do not run git in {repo.parent} before looking at it"]
            self.plants += sum(1 for what in stripped if runs_when_used(what))
            if stripped:
                self.notes.append(
                    f"zeph-nb removed from the new repository {repo}: {', '.join(stripped)} "
                    "(nothing a command writes may run later outside the sandbox)"
                )

    def _remove(self, path: Path) -> bool:
        if not os.path.lexists(path):
            return False
        for attempt in (1, 2):
            try:
                no_links.remove(path)  # never through a link a command swapped in on the way
                break
            except OSError as e:
                if attempt == 2:
                    # Kept in the journal: Settings.load() keeps distrusting it, and sets it aside later.
                    self._keep_journal = True
                    log.warning("zeph-nb: a command created %s and it could not be removed: %s", path, e)
                    self.notes.append(f"zeph-nb could NOT remove {path} ({e}); it is not trusted as config")
                    return False
                _make_writable(path.parent)  # a command may have made the folder read-only to keep it
                _make_writable(path, recursive=path.is_dir() and not path.is_symlink())
        log.warning("zeph-nb: a command created %s; it was removed (out of reach of tools)", path)
        return True


def _identity(path: Path) -> tuple[int, int, int] | None:
    """What is at ``path``: its type and inode (a link replaced by a folder is a different thing)."""
    try:
        st = path.lstat()
    except OSError:
        return None
    return (stat.S_IFMT(st.st_mode), st.st_dev, st.st_ino)


def _make_writable(path: Path, *, recursive: bool = False) -> None:
    targets = [path]
    if recursive:
        targets += [Path(root) / name for root, dirs, files in os.walk(path) for name in (*dirs, *files)]
    for target in targets:
        with contextlib.suppress(OSError):
            if not target.is_symlink():
                target.chmod(
                    target.stat().st_mode | stat.S_IWUSR | stat.S_IRUSR | (stat.S_IXUSR if target.is_dir() else 0)
                )


def _relink(path: Path, target: str) -> bool:
    try:
        path.symlink_to(target)
    except OSError as e:
        log.warning("zeph-nb: could not put back the link %s -> %s: %s", path, target, e)
        return False
    return True


def _set_aside(path: Path) -> bool:
    target = path.with_name(f"{path.name}.zeph-quarantined-{int(time.time())}")
    try:
        no_links.rename(path, target.name)
    except OSError as e:
        log.warning("zeph-nb: could not set aside %s: %s", path, e)
        return False
    return True
