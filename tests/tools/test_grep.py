"""grep through both engines (the ripgrep wheel's binary and the Python fallback): same answers."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.files import grep as grep_engines
from zeph_nb.tools.files import ops as files_ops
from zeph_nb.tools.files import tree as files_module
from zeph_nb.tools.files.executor import FileExecutor
from zeph_nb.tools.files.grep import GrepMatch, find_ripgrep

ENGINES = ["ripgrep", "python"]


def executor(work: Path, engine: str, extra: str = "") -> FileExecutor:
    return FileExecutor(Settings.from_toml(f'[tools.file]\ngrep_engine = "{engine}"\n{extra}'), workdir=work)


@pytest.fixture
def corpus(tree: dict[str, Path]) -> Path:
    work = tree["work"]
    (work / "src/pkg/app.py").write_text("import os\n\ndef main():\n    print('Hello')\n    return os.getcwd()\n")
    (work / "src/a.txt").write_text("hello: colon: inside\n")
    (work / "src/a b.txt").write_text("hello with a space in the name\n")
    (work / ".hidden").write_text("hello hidden\n")
    (work / ".git").mkdir()
    (work / ".git/config").write_text("hello from git\n")
    (work / "blob.bin").write_bytes(b"hello\x00binary")
    (work / "crlf.txt").write_bytes(b"hello\r\nworld\r\n")
    os.symlink(tree["outside"], work / "out")
    os.symlink(tree["outside"] / "secret.txt", work / "secret-link.txt")
    (tree["outside"] / "secret.txt").write_text("hello TOP SECRET\n")
    return work


def test_the_ripgrep_wheel_is_installed() -> None:
    # `make test` installs the ripgrep wheel; without it the ripgrep half of every test below would be vacuous.
    assert find_ripgrep() is not None


@pytest.mark.parametrize("engine", ENGINES)
def test_matches_in_path_order(corpus: Path, engine: str) -> None:
    out = executor(corpus, engine).run("grep", pattern="hello")
    assert out.summary.splitlines() == [
        ".hidden:1: hello hidden",
        "README.md:2: hello world",
        "crlf.txt:1: hello",
        "src/a b.txt:1: hello with a space in the name",
        "src/a.txt:1: hello: colon: inside",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_case_insensitive_and_path(corpus: Path, engine: str) -> None:
    files = executor(corpus, engine)
    assert files.run("grep", pattern="HELLO", path="src/pkg").summary == "No matches for 'HELLO'"
    out = files.run("grep", pattern="HELLO", path="src/pkg", case_sensitive=False)
    assert out.summary == "src/pkg/app.py:4:     print('Hello')"
    assert out.raw["matches"] == [{"path": "src/pkg/app.py", "line": 4, "text": "    print('Hello')"}]
    single = files.run("grep", pattern=r"def \w+", path="src/pkg/app.py")
    assert single.summary == "src/pkg/app.py:3: def main():"


@pytest.mark.parametrize("engine", ENGINES)
def test_never_reports_outside_or_denied(corpus: Path, engine: str) -> None:
    files = executor(corpus, engine, 'deny_read = ["src/a.txt"]\n')
    out = files.run("grep", pattern="hello|SECRET")
    assert "SECRET" not in out.summary and "src/a.txt" not in out.summary
    with pytest.raises(ToolError) as info:
        files.run("grep", pattern="SECRET", path="out")
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED
    with pytest.raises(ToolError) as info:
        files.run("grep", pattern="x", path="src/a.txt")
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED


@pytest.mark.parametrize("engine", ENGINES)
def test_invalid_regex_is_invalid_parameters(corpus: Path, engine: str) -> None:
    with pytest.raises(ToolError) as info:
        executor(corpus, engine).run("grep", pattern="(unclosed")
    assert info.value.category is ToolErrorCategory.INVALID_PARAMETERS
    assert "invalid regex" in info.value.message


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_path(corpus: Path, engine: str) -> None:
    with pytest.raises(ToolError) as info:
        executor(corpus, engine).run("grep", pattern="x", path="ghost")
    assert info.value.category is ToolErrorCategory.PERMANENT_FAILURE


@pytest.mark.parametrize("engine", ENGINES)
def test_output_is_capped(corpus: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_module, "MAX_GREP_MATCHES", 5)
    (corpus / "many.txt").write_text("".join(f"needle {i}\n" for i in range(50)))
    out = executor(corpus, engine).run("grep", pattern="needle")
    assert out.truncated
    assert out.summary.splitlines()[:5] == [f"many.txt:{i + 1}: needle {i}" for i in range(5)]
    assert out.summary.endswith("[first 5 matches shown; narrow the pattern or the path]")


@pytest.mark.parametrize("engine", ENGINES)
def test_long_lines_are_clipped(corpus: Path, engine: str) -> None:
    (corpus / "min.js").write_text("var x=1;" * 1000 + "needle\n")
    out = executor(corpus, engine).run("grep", pattern="var", path="min.js")
    assert len(out.summary) < 600 and out.summary.endswith("[…]")


def test_engines_agree_on_a_generated_tree(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "error", "Error", "TODO", "fixme"]
    for i in range(40):
        folder = tmp_path / f"d{i % 7}" / f"s{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(30)]
        (folder / f"f{i}.txt").write_text("\n".join(lines) + "\n")
    for pattern in ["error", r"^TODO\b", r"gamma\s+delta", "fix(me)?", "^$", r"\Aalpha", "beta$", "a$"]:
        rg = executor(tmp_path, "ripgrep").run("grep", pattern=pattern).summary
        py = executor(tmp_path, "python").run("grep", pattern=pattern).summary
        assert rg == py, pattern


@pytest.mark.parametrize("engine", ENGINES)
def test_large_files_are_streamed_with_the_same_answer(
    corpus: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("zeph_nb.tools.files.grep._WHOLE_FILE_LIMIT", 10)
    out = executor(corpus, engine).run("grep", pattern="hello", path="crlf.txt")
    assert out.summary == "crlf.txt:1: hello"


def test_ripgrep_insisted_on_but_missing(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("zeph_nb.tools.files.grep.find_ripgrep", lambda: None)
    with pytest.raises(ToolError, match="no rg binary"):
        executor(corpus, "ripgrep").run("grep", pattern="x")
    assert executor(corpus, "auto").run("grep", pattern="hidden").summary == ".hidden:1: hello hidden"


# -- a file's matches are confirmed once per file (issue 45): refusals must be what they were -------------------------


def _refusal_tree(tree: dict[str, Path]) -> tuple[Path, Settings]:
    """Many matches in: an allowed file, a deny_read file, zeph's own home (hidden), links to files outside and to
    the denied one, a link to an allowed file and a folder reached through a link."""
    work, outside = tree["work"], tree["outside"]
    many = "".join(f"needle {i}\n" for i in range(300))
    (work / "ok.txt").write_text(many)
    (work / "private").mkdir()
    (work / "private" / "denied.txt").write_text(many)
    (work / "zeph-home").mkdir()
    (work / "zeph-home" / "state.txt").write_text(many)
    (outside / "loot.txt").write_text(many)
    os.symlink(outside / "loot.txt", work / "to-outside.txt")
    os.symlink(work / "private" / "denied.txt", work / "to-denied.txt")
    os.symlink(work / "ok.txt", work / "to-ok.txt")
    os.symlink(outside, work / "outdir")
    os.symlink(work / "private", work / "privdir")
    settings = Settings.from_toml('[tools.file]\ndeny_read = ["private/**"]\n').model_copy(
        update={"home": work / "zeph-home"}
    )
    return work, settings


@pytest.mark.parametrize("engine", ENGINES)
def test_many_matches_in_refused_and_linked_files_are_never_shown(
    tree: dict[str, Path], engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_module, "MAX_GREP_MATCHES", 5000)
    work, settings = _refusal_tree(tree)
    settings = settings.model_copy(update={"tools": settings.tools.model_copy(
        update={"file": settings.tools.file.model_copy(update={"grep_engine": engine})})})  # fmt: skip
    out = FileExecutor(settings, workdir=work).run("grep", pattern="needle")
    assert {m["path"] for m in out.raw["matches"]} == {"ok.txt"}
    assert [m["line"] for m in out.raw["matches"]] == list(range(1, 301))


def test_confirmation_refuses_what_the_walk_refuses(tree: dict[str, Path]) -> None:
    """Hits as a racing engine could report them (every line's text right): shown only from files the sandbox
    lets us read, whichever way the file is opened; links are followed only to readable files inside, as before."""
    work, settings = _refusal_tree(tree)
    files = FileExecutor(settings, workdir=work)
    names = ["ok.txt", "private/denied.txt", "zeph-home/state.txt", "to-outside.txt", "to-denied.txt", "to-ok.txt",
             "outdir/loot.txt", "privdir/denied.txt", "../outside/loot.txt", "missing.txt"]  # fmt: skip
    hits = [
        GrepMatch(Path(os.path.abspath(work / name)), n, f"needle {n - 1}") for name in names for n in (1, 150, 300)
    ]
    shown = [(name, hit.line) for name, hit in files._confirmed(hits)]
    assert shown == [(name, n) for name in ("ok.txt", "to-ok.txt") for n in (1, 150, 300)]
    # A line whose text is not what the engine said is not shown either.
    wrong = [GrepMatch(work / "ok.txt", 2, "needle 7"), GrepMatch(work / "ok.txt", 301, "")]
    assert list(files._confirmed(wrong)) == []


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"a", b"a\n", b"a\r\nb\r\n", b"\n\nx\n\n", b"one\ntwo", b"x" * 200 + b"\nshort\n" + b"y" * 70],
)
def test_lines_at_reads_what_bounded_lines_reads(tmp_path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    # The old reading (bounded_lines, line by line) against the new one (one read, split), also past the line cap.
    for cap in (files_ops.MAX_READ_BYTES, 64):
        monkeypatch.setattr(files_ops, "MAX_READ_BYTES", cap)
        path = tmp_path / "f"
        path.write_bytes(data)
        wanted = set(range(1, 8))
        with open(path, "rb") as handle:
            expected = {n: raw.rstrip(b"\n") for n, (raw, _) in enumerate(files_ops.bounded_lines(handle, cap), 1)}
        with open(path, "rb") as handle:
            assert files_ops.lines_at(handle.fileno(), wanted) == {n: expected[n] for n in wanted if n in expected}


def test_read_opens_plain_paths_straight_and_refuses_as_the_walk_does(tree: dict[str, Path]) -> None:
    """``read`` takes the same fast way in (``open_exactly``) for a plain path; every other path is walked, and
    what the walk refuses is refused, with its message."""
    work, settings = _refusal_tree(tree)
    files = FileExecutor(settings, workdir=work)
    sandbox = files.sandbox
    fast = files_ops.open_exactly(sandbox, str(work / "ok.txt"))
    assert fast is not None
    os.close(fast)
    for name in ("to-ok.txt", "private/denied.txt", "zeph-home/state.txt", "to-outside.txt", "outdir/loot.txt",
                 "privdir/denied.txt", "../outside/loot.txt", "missing.txt", "."):  # fmt: skip
        assert files_ops.open_exactly(sandbox, os.path.normpath(work / name)) is None, name
    assert files.run("read", path="ok.txt").raw["content"].startswith("needle 0\n")
    assert files.run("read", path="to-ok.txt").raw["path"] == "ok.txt"  # a link inside is followed, as before
    for name in ("private/denied.txt", "zeph-home/state.txt", "to-outside.txt", "to-denied.txt", "outdir/loot.txt",
                 "privdir/denied.txt", "../outside/loot.txt", str(tree["outside"] / "loot.txt")):  # fmt: skip
        with pytest.raises(ToolError) as info:
            files.run("read", path=name)
        assert info.value.category is ToolErrorCategory.POLICY_BLOCKED, name
        assert "needle" not in info.value.message


LINES_DATA = [b"", b"\n", b"a", b"a\n", b"a\r\nb\r\n", b"\n\nx\n\n", b"one\ntwo", b"x" * 200 + b"\nshort\n" + b"y" * 70,
              b"first\n" + b"z" * 9000 + b"\nafter\n", b"\n".join(b"line %d" % n for n in range(2000))]  # fmt: skip


@pytest.mark.parametrize("data", LINES_DATA)
def test_lines_at_with_where_lines_start_reads_what_it_reads_without(
    tmp_path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ripgrep says where each line it reports begins (``--byte-offset``); ``lines_at`` then counts newlines up to
    there and reads no further than needed instead of splitting the whole file. A hint only: right, wrong or
    hostile, the lines are those read without it (a long line past what was read, a cap hit, a start inside a
    line, past the end, or on another line's number)."""
    path = tmp_path / "f"
    path.write_bytes(data)
    offsets = [0, *(i + 1 for i, byte in enumerate(data) if byte == 0x0A)]
    true_starts = {n: start for n, start in enumerate(offsets, start=1) if start < len(data)}
    hints: list[dict[int, int]] = [true_starts, {n: s + 1 for n, s in true_starts.items()}, {1: len(data)},
                                   {1: 10**12}, {2: 0}, {n: 0 for n in true_starts}]  # fmt: skip
    if len(true_starts) > 1:
        hints.append({1: true_starts[2], 2: true_starts[1]})
        hints += [{n: s} for n, s in list(true_starts.items())[-3:]]
    for cap in (files_ops.MAX_READ_BYTES, 64):
        monkeypatch.setattr(files_ops, "MAX_READ_BYTES", cap)
        for starts in hints:
            wanted = set(starts)
            with open(path, "rb") as handle:
                expected = files_ops.lines_at(handle.fileno(), wanted)
            with open(path, "rb") as handle:
                assert files_ops.lines_at(handle.fileno(), wanted, starts) == expected, (cap, starts)


def test_ripgrep_reports_where_lines_start_and_a_wrong_start_changes_nothing(corpus: Path) -> None:
    """The ripgrep engine passes each line's offset on; the confirmation takes it as a hint only: a hit whose start
    is wrong is still shown when its line holds its text, and a right start does not make a wrong text shown."""
    files = executor(corpus, "ripgrep")
    root = files.sandbox.resolve(".")
    hits = list(grep_engines.search("hello", root, case_sensitive=True, max_results=100, engine="ripgrep"))
    assert [(os.path.relpath(hit.path, root), hit.line, hit.start) for hit in hits][:3] == [
        (".hidden", 1, 0),
        ("README.md", 2, 7),
        ("crlf.txt", 1, 0),
    ]
    shown = [(name, hit.line) for name, hit in files._confirmed(hits)]
    assert shown == [(".hidden", 1), ("README.md", 2), ("crlf.txt", 1), ("src/a b.txt", 1), ("src/a.txt", 1)]
    readme = os.fspath(root / "README.md")
    (hit,) = (hit for hit in hits if hit.path == readme)
    for start in (0, 3, 8, 99, 10**12):
        assert [(name, n.line) for name, n in files._confirmed([dataclasses.replace(hit, start=start)])] == [
            ("README.md", 2)
        ]
    wrong = [GrepMatch(readme, 2, "hello there", 7), GrepMatch(readme, 1, "hello world", 7)]
    assert list(files._confirmed(wrong)) == []
