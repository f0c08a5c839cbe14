"""Hostile paths against a real directory tree with real symlinks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zeph_nb.errors import SandboxViolation, ToolError, ToolErrorCategory
from zeph_nb.safety import resolve_sandboxed
from zeph_nb.security.paths import Sandbox, canonicalize


@pytest.fixture
def linked(tree: dict[str, Path]) -> dict[str, Path]:
    work, outside = tree["work"], tree["outside"]
    (outside / "sub").mkdir()
    os.symlink(outside, work / "out")  # absolute link leaving the sandbox
    os.symlink(outside / "sub", work / "out_sub")
    os.symlink(outside / "not-yet.txt", work / "dangling")  # a write through it would land outside
    os.symlink("chain2", work / "chain1")
    os.symlink("chain3", work / "chain2")
    os.symlink(os.path.relpath(outside, work), work / "chain3")  # relative link leaving the sandbox
    os.symlink("../..", work / "src" / "up")  # relative link climbing out
    os.symlink("loop_b", work / "loop_a")
    os.symlink("loop_a", work / "loop_b")
    os.symlink("src", work / "inner")  # a link that stays inside
    os.symlink(work / "src" / "pkg", work / "deep")
    os.symlink(work, work / "self")
    return tree


INSIDE = [
    ("README.md", "README.md"),
    (".", "."),
    ("src/", "src"),
    ("./src/./pkg//mod.py", "src/pkg/mod.py"),
    ("missing/../README.md", "README.md"),
    ("missing/deeper/../../src", "src"),
    ("inner/pkg/mod.py", "src/pkg/mod.py"),
    ("inner/../README.md", "README.md"),  # inner -> src, so inner/.. is the sandbox
    ("deep/../..", "."),
    ("self/self/self/README.md", "README.md"),
    # Encoded and shell-looking forms are literal names here: nothing decodes or expands them.
    ("%2e%2e/%2e%2e/etc/passwd", "%2e%2e/%2e%2e/etc/passwd"),
    ("..%2f..%2fetc%2fpasswd", "..%2f..%2fetc%2fpasswd"),
    ("~/.ssh/id_rsa", "~/.ssh/id_rsa"),
    ("$HOME/x", "$HOME/x"),
    ("..\\..\\etc\\passwd", "..\\..\\etc\\passwd"),
    (" README.md", " README.md"),
    ("new/dir/file.txt", "new/dir/file.txt"),
]


@pytest.mark.parametrize(("given", "expected"), INSIDE)
def test_paths_that_stay_inside(linked: dict[str, Path], given: str, expected: str) -> None:
    work = linked["work"].resolve()
    assert resolve_sandboxed(given, [linked["work"]]) == (work / expected if expected != "." else work)


OUTSIDE = [
    "..",
    "/",
    "/etc/passwd",
    "../outside/secret.txt",
    "src/../../outside/secret.txt",
    "missing/../../outside/secret.txt",  # .. after a directory that does not exist
    "missing/a/b/../../../../outside",
    "../work-evil/loot.txt",  # sibling sharing the sandbox's name as a prefix
    "out",
    "out/secret.txt",
    "out_sub/../secret.txt",  # lexically inside (work/secret.txt), really outside/secret.txt
    "dangling",
    "chain1",
    "chain1/secret.txt",
    "src/up/outside/secret.txt",
    "deep/../../../outside/secret.txt",
    "inner/../../outside",
    "self/../outside/secret.txt",
]


@pytest.mark.parametrize("given", OUTSIDE)
def test_paths_that_escape_are_policy_blocked(linked: dict[str, Path], given: str) -> None:
    with pytest.raises(SandboxViolation) as info:
        resolve_sandboxed(given, [linked["work"]])
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED
    assert "outside the allowed paths" in info.value.message


def test_absolute_escapes(linked: dict[str, Path]) -> None:
    for target in (linked["outside"] / "secret.txt", linked["evil"], linked["root"]):
        with pytest.raises(SandboxViolation):
            resolve_sandboxed(str(target), [linked["work"]])


@pytest.mark.parametrize(
    ("given", "category"),
    [
        ("README.md\x00.png", ToolErrorCategory.INVALID_PARAMETERS),
        ("", ToolErrorCategory.INVALID_PARAMETERS),
        ("   ", ToolErrorCategory.INVALID_PARAMETERS),
        ("loop_a", ToolErrorCategory.INVALID_PARAMETERS),
        ("loop_a/x", ToolErrorCategory.INVALID_PARAMETERS),
    ],
)
def test_malformed_paths_are_clear_errors(linked: dict[str, Path], given: str, category: ToolErrorCategory) -> None:
    with pytest.raises(ToolError) as info:
        resolve_sandboxed(given, [linked["work"]])
    assert info.value.category is category


def test_very_long_names_do_not_crash(linked: dict[str, Path]) -> None:
    long = "a" * 5000
    assert resolve_sandboxed(long, [linked["work"]]).name == long
    with pytest.raises(SandboxViolation):
        resolve_sandboxed("../" * 200 + long, [linked["work"]])


def test_locate_keeps_a_final_link(linked: dict[str, Path]) -> None:
    sandbox = Sandbox([linked["work"]])
    assert sandbox.locate("out") == linked["work"].resolve() / "out"
    with pytest.raises(SandboxViolation):
        sandbox.resolve("out")
    with pytest.raises(SandboxViolation):
        sandbox.locate("out/secret.txt")


def test_several_roots_and_a_workdir_outside_them(tree: dict[str, Path]) -> None:
    sandbox = Sandbox([tree["work"] / "src", tree["outside"]], workdir=tree["work"])
    assert sandbox.workdir == (tree["work"] / "src").resolve()  # relative paths start in the first root
    assert sandbox.resolve(str(tree["outside"] / "secret.txt")).name == "secret.txt"
    with pytest.raises(SandboxViolation):
        sandbox.resolve(str(tree["work"] / "README.md"))


def test_root_given_through_a_link(tree: dict[str, Path]) -> None:
    os.symlink(tree["work"], tree["root"] / "work-link")
    assert resolve_sandboxed("README.md", [tree["root"] / "work-link"]) == (tree["work"] / "README.md").resolve()


@pytest.mark.parametrize(
    ("deny", "allow", "path", "readable"),
    [
        (["**/.env"], [], "app/.env", False),
        (["**/.env"], [], "app/env", True),
        (["secrets/**"], [], "secrets/db.key", False),
        # seed 003: allow_read is an allowlist checked after deny_read; a path in both stays denied
        (["secrets/**"], ["secrets/*.pub"], "secrets/id.pub", False),
        (["secrets/**"], ["secrets/*.pub"], "secrets/id", False),
        (["**/.env"], ["src/**", "*.md"], "README.md", True),
        (["**/.env"], ["src/**", "*.md"], "src/app.py", True),
        (["**/.env"], ["src/**", "*.md"], "data/users.csv", False),
        (["**/.env"], ["src/**", "*.md"], "src/.env", False),
        (["*.pem"], [], "cert.pem", False),
        (["*.pem"], [], "sub/cert.pem", True),  # no ** means the top level only
        (["**/*.pem"], [], "sub/cert.pem", False),
    ],
)
def test_deny_read_then_allow_read(
    tree: dict[str, Path], deny: list[str], allow: list[str], path: str, readable: bool
) -> None:
    sandbox = Sandbox([tree["work"]], deny_read=deny, allow_read=allow)
    assert sandbox.readable(sandbox.resolve(path)) is readable


def test_deny_read_with_an_absolute_pattern(tree: dict[str, Path]) -> None:
    work = tree["work"].resolve()
    sandbox = Sandbox([work], deny_read=[f"{work.as_posix()}/src/**"])
    assert not sandbox.readable(sandbox.resolve("src/pkg/mod.py"))
    assert sandbox.readable(sandbox.resolve("README.md"))


def test_canonicalize_relative_link_targets(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    os.symlink("b/../../c", tmp_path / "a" / "l")
    assert canonicalize("a/l/x", tmp_path.resolve()) == tmp_path.resolve() / "c" / "x"


NAMES = ["", "/", "//", "///", "a", "/a", "//a", "a/", "a//b", "./a", "a/./b", ".", "./", "/./", "..", "/..", "a/..",
         "../a", "...", ".a", "a.", "a/ /b", "/a\\b", "/\x7f/é", "/a/../../b/./../c//"]  # fmt: skip


@pytest.mark.parametrize("text", NAMES)
def test_a_path_is_taken_apart_as_purepath_does(text: str) -> None:
    # canonical_text splits text itself rather than building a PurePosixPath per path and per link target: the
    # names, "." dropped and ".." kept, must be exactly those parts.
    from pathlib import PurePosixPath

    from zeph_nb.security.paths import _reversed_parts

    parts = PurePosixPath(text).parts
    assert _reversed_parts(text) == list(reversed(parts[1:] if text.startswith("/") else parts))


def test_canonical_text_is_canonicalize_as_text(linked: dict[str, Path]) -> None:
    from zeph_nb.security.paths import canonical_text

    work = str(linked["work"].resolve())
    for given, _ in INSIDE:
        assert canonical_text(given, work) == str(canonicalize(given, work))
    for given in ("out/../..", "chain1/x", "src/up/up", "dangling", "/etc/../tmp"):
        assert canonical_text(given, work) == str(canonicalize(given, work))
        assert canonical_text(given, work, follow_final=False) == str(canonicalize(given, work, follow_final=False))


def test_may_read_is_contains_and_readable_on_the_text(tree: dict[str, Path]) -> None:
    """``Sandbox.may_read`` (what ``open_exactly`` asks for every file grep shows) decides on the canonical text exactly
    what ``contains`` and ``readable`` decide on its Path: the roots (a prefix sibling and the filesystem root too),
    the hidden paths and a readable folder inside one, and the deny_read/allow_read globs."""
    from zeph_nb.security.protected import ProtectedPaths

    work = tree["work"].resolve()
    home = work / "home"
    protected = ProtectedPaths.build(
        home=home,
        hidden=[(home / ".ssh", "keys"), (work / "zeph", "zeph's home"), (work / "a.txt", "one file")],
        readable=[(work / "zeph" / "skills", "skills")],
    )
    texts = [str(work), f"{work}-evil/loot.txt", f"{work}-evil", str(work.parent), "/", "/etc/passwd",
             f"{work}/README.md", f"{work}/a.txt", f"{work}/a.txt.bak", f"{work}/a.tx", f"{home}/.ssh",
             f"{home}/.ssh/id_rsa", f"{home}/.sshx", f"{work}/zeph", f"{work}/zeph/state.db", f"{work}/zeph/skills",
             f"{work}/zeph/skills/run.py", f"{work}/zeph/skillsx/run.py", f"{work}/secrets/db.key",
             f"{work}/src/app.py", f"{work}/src/.env", f"{work}/notes.md"]  # fmt: skip
    sandboxes = [
        Sandbox([work], protected=protected),
        Sandbox([work, tree["outside"]], protected=protected),
        Sandbox(["/"], workdir=work, protected=protected),
        Sandbox([work], deny_read=["secrets/**", "**/.env"], protected=protected),
        Sandbox([work], deny_read=["**/.env"], allow_read=["src/**", "*.md"], protected=protected),
    ]
    for sandbox in sandboxes:
        for text in texts:
            assert sandbox.may_read(text) is (sandbox.contains(Path(text)) and sandbox.readable(Path(text))), text
