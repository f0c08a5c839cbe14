"""The paths no tool may touch, whatever the permission rules say: the person's credentials and zeph's own state.

Two kinds:

* **hidden** — neither read nor written: credential stores (``~/.ssh``, ``~/.aws``, …), the zeph home (store,
  spool, grants, the MAC key), Jupyter's runtime directory (server tokens) and config directory, and whatever the
  configuration adds (``[tools.shell] hidden_paths``, existing ``[tools.file] deny_read`` paths). Inside the OS
  sandbox they are empty; the file tools refuse them.
* **read-only** — read but never written: the policy files the kernel and the server read (``zeph.toml``,
  ``filters.toml``, the config file in use), git's hooks and config (a hook runs the next time the person
  commits), and the dot-files and dot-folders directly in the home directory (``~/.bashrc``, ``~/.profile``,
  ``~/.config``, ``~/.ipython``, ``~/.local`` …: what the person's next shell, kernel or login runs).

A tool that tries gets ``policy_blocked`` naming the protected path, so the model learns it is a wall and not a
typo. Pure values: the caller (``tools/containment.py``) computes the lists from the settings.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from zeph_nb.errors import SandboxViolation

__all__ = ["CREDENTIAL_PATHS", "SYSTEM_SECRETS", "ProtectedPaths", "inside", "system_secrets"]

# Relative to the home directory: where programs keep the person's credentials.
CREDENTIAL_PATHS: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".gnupg",
    ".netrc",
    ".git-credentials",
    ".pypirc",
    ".npmrc",
    ".yarnrc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".config/gh",
    ".config/hub",
    ".config/rclone",
    ".terraform.d",
    ".vault-token",
    ".password-store",
    ".local/share/keyrings",
    ".m2/settings.xml",
    ".gem/credentials",
    ".huggingface",
    ".cache/huggingface/token",
    ".config/huggingface",
    ".config/git/credentials",
    ".config/containers/auth.json",
    ".config/pip",
    ".pip",
    ".pgpass",
    # libpq's service file and client certificates: how a kernel reaches the team's audit database as its person.
    ".pg_service.conf",
    ".postgresql",
    ".my.cnf",
    ".kaggle",
    ".s3cfg",
    ".boto",
    ".databrickscfg",
    ".config/op",
    ".cache/huggingface/stored_tokens",
    ".ipython/profile_default/security",  # kernel connection files: their keys let anyone run code in the kernel
    # Browsers and editors keep cookies, sessions and tokens.
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    ".config/Code/User/globalStorage",
    "snap/firefox",
    "snap/chromium",
    ".var/app",
    # Histories hold whatever was typed, passwords and tokens included.
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".psql_history",
    ".mysql_history",
    ".node_repl_history",
    ".sqlite_history",
    ".lesshst",
    ".local/share/fish/fish_history",
    ".ipython/profile_default/history.sqlite",
)
# Outside the home: what only root can read, which a command running as root could otherwise read.
SYSTEM_SECRETS: tuple[str, ...] = ("/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers.d")


def system_secrets() -> list[str]:
    """``SYSTEM_SECRETS`` plus the SSH host keys of this machine: the private ones (a ``.pub`` is what the server
    hands every client that connects; hiding it in the sandbox cost a mount each, three on a Debian machine)."""
    found = list(SYSTEM_SECRETS)
    with contextlib.suppress(OSError):
        found += sorted(
            f"/etc/ssh/{name}"
            for name in os.listdir("/etc/ssh")
            if name.startswith("ssh_host_") and not name.endswith(".pub")
        )
    return found


def _first_in(path: Path | str, paths: frozenset[str]) -> Path | None:
    """The first of ``path`` and its ancestors that is in ``paths``: a walk up the path, not down the list (every
    read checks ~70 hidden paths twice)."""
    text = str(path)
    while text:
        if text in paths:
            return Path(text)
        cut = text.rfind("/")
        text = "/" if cut == 0 and text != "/" else text[:cut] if cut > 0 else ""
    return None


def inside(path: Path, root: Path) -> bool:
    """Whether ``path`` is ``root`` or below it (both absolute and canonical)."""
    # On the strings: ``root in path.parents`` builds and compares Path objects (about 40 us a call).
    inner, outer = str(path), str(root)
    return inner == outer or inner.startswith(outer if outer.endswith("/") else outer + "/")


@dataclass(frozen=True)
class ProtectedPaths:
    """Canonical absolute paths (links expanded) and the home whose dot-entries are read-only."""

    hidden: tuple[Path, ...] = ()
    readonly: tuple[Path, ...] = ()
    home: Path | None = None
    # Why each path is protected, for the message the model reads (default: "protected").
    why: dict[Path, str] = field(default_factory=dict, compare=False)
    # Folders inside a hidden one that tools may read but never change: the zeph home's skills/, whose scripts
    # commands run (a hidden path inside one of them stays hidden).
    readable: tuple[Path, ...] = ()

    @classmethod
    def build(
        cls,
        *,
        home: Path | None,
        hidden: Iterable[tuple[str | os.PathLike[str], str]] = (),
        readonly: Iterable[tuple[str | os.PathLike[str], str]] = (),
        readable: Iterable[tuple[str | os.PathLike[str], str]] = (),
    ) -> ProtectedPaths:
        """From (path, why) pairs; each path is made absolute and canonical (a hidden link hides its target too)."""
        why: dict[Path, str] = {}
        hidden_paths: list[Path] = []
        readonly_paths: list[Path] = []
        for target, pairs in ((hidden_paths, hidden), (readonly_paths, readonly)):
            for raw, reason in pairs:
                path = Path(os.path.abspath(os.path.expanduser(os.fspath(raw))))
                for form in dict.fromkeys((path, Path(os.path.realpath(path)))):
                    if form not in target:
                        target.append(form)
                        why.setdefault(form, reason)
        home_path = Path(os.path.realpath(home)) if home is not None else None
        # Only a folder that is no link (its target could be anything, a credential store too), taken as it is.
        shown = []
        for raw, reason in readable:
            path = Path(os.path.abspath(os.fspath(raw)))
            if Path(os.path.realpath(path)) == path:
                shown.append(path)
                why.setdefault(path, reason)
        return cls(tuple(hidden_paths), tuple(readonly_paths), home_path, why, tuple(shown))

    # -- questions ------------------------------------------------------------------------------------------

    @functools.cached_property
    def _hidden_set(self) -> frozenset[str]:
        return frozenset(str(h) for h in self.hidden)

    @functools.cached_property
    def _readonly_set(self) -> frozenset[str]:
        return frozenset(str(r) for r in self.readonly)

    @functools.cached_property
    def _readable_set(self) -> frozenset[str]:
        return frozenset(str(r) for r in self.readable)

    def hidden_by(self, path: Path | str) -> Path | None:
        """The hidden path that ``path`` (canonical; as text too, as the policy holds it) is, or is inside; None when
        it is not hidden (or inside a ``readable`` folder with no hidden path between)."""
        found = _first_in(path, self._hidden_set)
        if found is not None and self.readable:
            shown = _first_in(path, self._readable_set)
            if shown is not None and inside(shown, found):
                return None
        return found

    def readonly_by(self, path: Path) -> Path | None:
        """The protected path that forbids writing ``path`` (canonical), or None."""
        hidden = self.hidden_by(path)
        if hidden is not None:
            return hidden
        found = _first_in(path, self._readonly_set) or (_first_in(path, self._readable_set) if self.readable else None)
        if found is not None:
            return found
        dot = self.home_dot_entry(path)
        if dot is not None:
            return dot
        # Anything of a git repository's own (.git, a directory or a pointer file): git on the host obeys it.
        if ".git" in path.parts:
            return Path(*path.parts[: path.parts.index(".git") + 1])
        return None

    def home_dot_entry(self, path: Path) -> Path | None:
        """``~/.name`` when ``path`` is that entry or inside it."""
        if self.home is None or path == self.home or not inside(path, self.home):
            return None
        entry = self.home / path.relative_to(self.home).parts[0]
        return entry if entry.name.startswith(".") else None

    def reason(self, path: Path) -> str:
        if path in self.why:
            return self.why[path]
        if self.home is not None and path.parent == self.home and path.name.startswith("."):
            return "a dot-file in your home directory, which your shell, git or Jupyter read"
        if path.name == ".git":
            return "git runs its hooks and obeys its config outside the sandbox"
        return "protected"

    # -- checks for the file tools ------------------------------------------------------------------------

    def check_read(self, path: Path, shown: str) -> None:
        hidden = self.hidden_by(path)
        if hidden is not None:
            raise SandboxViolation(
                f"{shown!r} is inside {hidden.as_posix()}, which no tool may read ({self.reason(hidden)}); "
                "this is not something to work around"
            )

    def check_write(self, path: Path, shown: str) -> None:
        protected = self.readonly_by(path)
        if protected is not None:
            raise SandboxViolation(
                f"{shown!r} is protected: {protected.as_posix()} may not be changed by a tool "
                f"({self.reason(protected)}); ask the person to change it themselves"
            )
