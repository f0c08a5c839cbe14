"""The package's imports point one way: every module imports only its own layer and the layers below it, as the
docs page "Architecture and layout" (docs/reference/architecture.md) lists them, and no runtime import goes in a circle.

Every ``import`` counts, at module level, inside a function (a lazy import is still a dependency) or under
``if TYPE_CHECKING:`` (a name a signature uses is a dependency of the design, though it never runs): a module that
needs a type from above its floor, or from a module that needs it back, is in the wrong place. Third-party
front-end libraries (IPython, ipywidgets, jupyter_server) are imported only by the notebook layer, at run time.

No line cap: a module above ``REVIEW_LINES`` is listed in the test's output for a reviewer to ask whether it holds
more than one concept, and nothing fails for it.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "zeph_nb"
FRONT_END = ("IPython", "ipywidgets", "jupyter_server", "ipykernel")
REVIEW_LINES = 600


def layers() -> list[list[str]]:
    """The architecture page's numbered list under "Imports point one way", bottom first."""
    text = (ROOT / "docs" / "reference" / "architecture.md").read_text()
    block = text[text.index("Imports point one way") :].split("\n\n", 2)[1]
    found = [re.match(r"\d+\. (.+)", line.strip()) for line in block.splitlines()]
    return [[name.strip().strip("`") for name in m.group(1).split(",")] for m in found if m]


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def imports(path: Path, known: dict[str, Path], *, typing: bool = True) -> Iterator[tuple[str, int]]:
    """(module imported, line) for every import, resolved to a module of the package or a top name; ``typing``
    False leaves out those under ``if TYPE_CHECKING:`` (what runs)."""
    tree = ast.parse(path.read_text())
    guards = [node for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)]
    typing_only = {id(n) for guard in guards for n in ast.walk(guard)} if not typing else set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield (full if full in known else node.module), node.lineno


def layer_of(module: str, table: list[list[str]]) -> int:
    """The index of the layer a module of the package belongs to (its first name under zeph_nb)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "zeph_nb"
    for index, names in enumerate(table):
        if top in names or (top == "zeph_nb" and "zeph_nb" in names):
            return index
    raise AssertionError(
        f"{module}: its layer '{top}' is not in the list of docs/reference/architecture.md; add it there"
    )


def test_the_readme_lists_the_layers() -> None:
    table = layers()
    assert table[0] == ["errors", "aio"] and table[-1][0] == "zeph_nb", table
    tops = {p.name.removesuffix(".py") for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    listed = {name for names in table for name in names}
    assert tops - {"__init__"} <= listed, (
        f"not in the layer list of docs/reference/architecture.md: {sorted(tops - listed - {'__init__'})}"
    )


def test_nothing_imports_upward() -> None:
    table, known = layers(), modules()
    upward = []
    for name, path in known.items():
        mine = layer_of(name, table)
        for target, line in imports(path, known):
            if target.startswith("zeph_nb") and layer_of(target, table) > mine:
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
        for target, line in imports(path, known, typing=False):
            if target.split(".")[0] in FRONT_END and not name.startswith("zeph_nb.notebook"):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target} (only notebook/ may)")
    assert upward == []


def test_no_import_goes_in_a_circle() -> None:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = {t for t, _ in imports(path, known) if t in known}
        # Importing zeph_nb.tools.shell.x runs zeph_nb/tools/shell/__init__.py first: a package's __init__ is in
        # the circle too (not the root's, whose imports all wait inside functions).
        parents = {".".join(t.split(".")[:i]) for t in targets for i in range(2, t.count(".") + 1)}
        graph[name] = {t for t in targets | parents if t in known and t != name and not name.startswith(t + ".")}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import circle: " + " -> ".join([*trail[trail.index(name) :], name]))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_modules_over_the_review_size_are_named() -> None:
    """Not a cap: a long module that holds one concept reads better than two halves. It is named for review."""
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > REVIEW_LINES}  # fmt: skip
    for name, lines in sorted(long.items()):
        warnings.warn(f"{name} has {lines} lines (review above {REVIEW_LINES}): one concept, or two?", stacklevel=1)
