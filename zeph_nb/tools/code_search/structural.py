"""Structural search with tree-sitter: definitions, calls and imports found in the syntax tree, not the text.

A grammar comes from its own wheel on PyPI (``tree-sitter-python`` …), compiled ahead: nothing is built or
downloaded at run time. A language whose wheel is not installed is simply not searched (``languages()`` says which
are). Each language is one query whose patterns each capture ``@name`` and one of ``@function``, ``@class``,
``@method``, ``@type``, ``@call`` or ``@import``; the scope a hit sits in is read by walking up the tree.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from typing import Any, Literal

__all__ = ["EXTENSIONS", "Hit", "Kind", "grammar", "language_of", "languages", "needle", "search_tree"]

Kind = Literal["definition", "calls", "imports"]
_DEFINITIONS = frozenset({"function", "class", "method", "type"})


@dataclass(frozen=True)
class _Language:
    module: str  # the grammar's wheel, as imported
    function: str  # its function giving the language pointer
    query: str
    # Node types that open a scope, and the field holding their name: a hit's "in class Agent".
    scopes: dict[str, str]


_PY_QUERY = """
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class
(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) @call
(import_statement name: [(dotted_name) @name (aliased_import name: (dotted_name) @name)]) @import
(import_from_statement module_name: [(dotted_name) (relative_import)] @name) @import
"""

_JS_COMMON = """
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @function
(call_expression function: [(identifier) @name (member_expression property: (property_identifier) @name)]) @call
(import_statement source: (string (string_fragment) @name)) @import
"""
_JS_QUERY = _JS_COMMON + "(class_declaration name: (identifier) @name) @class\n"
_TS_QUERY = (
    _JS_COMMON
    + """
(class_declaration name: (type_identifier) @name) @class
(abstract_class_declaration name: (type_identifier) @name) @class
(interface_declaration name: (type_identifier) @name) @type
(type_alias_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name) @type
"""
)
_JS_SCOPES = {"class_declaration": "name", "function_declaration": "name", "method_definition": "name",
              "abstract_class_declaration": "name", "interface_declaration": "name"}  # fmt: skip

_GO_QUERY = """
(function_declaration name: (identifier) @name) @function
(method_declaration name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name) @type
(call_expression function: [(identifier) @name (selector_expression field: (field_identifier) @name)]) @call
(import_spec path: (interpreted_string_literal) @name) @import
"""

_RUST_QUERY = """
(function_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @type
(enum_item name: (type_identifier) @name) @type
(trait_item name: (type_identifier) @name) @type
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name)
                            (scoped_identifier name: (identifier) @name)]) @call
(use_declaration argument: (_) @name) @import
"""

_LANGUAGES: dict[str, _Language] = {
    "python": _Language("tree_sitter_python", "language", _PY_QUERY,
                        {"class_definition": "name", "function_definition": "name"}),
    "javascript": _Language("tree_sitter_javascript", "language", _JS_QUERY, _JS_SCOPES),
    "typescript": _Language("tree_sitter_typescript", "language_typescript", _TS_QUERY, _JS_SCOPES),
    "tsx": _Language("tree_sitter_typescript", "language_tsx", _TS_QUERY, _JS_SCOPES),
    "go": _Language("tree_sitter_go", "language", _GO_QUERY,
                    {"function_declaration": "name", "method_declaration": "name", "type_spec": "name"}),
    "rust": _Language("tree_sitter_rust", "language", _RUST_QUERY,
                      {"function_item": "name", "impl_item": "type", "trait_item": "name", "mod_item": "name"}),
}  # fmt: skip

EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust",
}  # fmt: skip


@dataclass(frozen=True)
class Hit:
    """One thing found: where, what kind (function, class, method, type, call, import), its name, and the scope
    it sits in ("class Agent", "" at the top of a file)."""

    path: str
    line: int
    kind: str
    name: str
    scope: str = ""
    layer: str = "structural"
    column: int = 0  # of the name, 0-based, in characters: where a language server is asked about it
    score: float = 0.0  # the semantic layer's similarity to the question
    target: str = ""  # a call's definition, as the language server resolved it

    def key(self) -> tuple[str, int, str]:
        """The same place and name, whichever layer found it."""
        return self.path, self.line, self.name

    def shown(self) -> str:
        where = f" (in {self.scope})" if self.scope else ""
        goes = f" -> {self.target}" if self.target else ""
        similar = f" [similarity {self.score:.2f}]" if "semantic" in self.layer else ""
        return f"{self.path}:{self.line}: {self.kind} {self.name}{where}{goes}{similar}"


def language_of(path: str) -> str | None:
    """The language a file's name says, when its grammar is installed."""
    dot = path.rfind(".")
    name = EXTENSIONS.get(path[dot:].lower()) if dot >= 0 else None
    return name if name is not None and _installed(name) else None


def languages() -> list[str]:
    """The languages whose grammar wheel is installed here."""
    return [name for name in _LANGUAGES if _installed(name)]


@cache
def _installed(name: str) -> bool:
    """Whether a language's wheel and the bindings are there, without importing them: the tool list of an agent's
    first run asks, and loading the six grammars and their queries costs ~0.4 s, paid at the first search instead."""
    return all(importlib.util.find_spec(module) is not None for module in ("tree_sitter", _LANGUAGES[name].module))


@cache
def grammar(name: str, kind: Kind = "definition") -> tuple[Any, Any] | None:
    """The (parser, query for ``kind``) of a language, built once; None when its wheel is missing. A query of one
    kind's patterns only: the cursor then never builds the matches of the others (a third of a search's time)."""
    spec = _LANGUAGES.get(name)
    if spec is None:
        return None
    try:
        import tree_sitter

        module = importlib.import_module(spec.module)
    except ImportError:
        return None
    language = tree_sitter.Language(getattr(module, spec.function)())
    role = {"calls": "@call", "imports": "@import"}.get(kind)
    patterns = [
        p for p in _patterns(spec.query) if (p.endswith(role) if role else not p.endswith(("@call", "@import")))
    ]
    return tree_sitter.Parser(language), tree_sitter.Query(language, "\n".join(patterns))


def _patterns(query: str) -> list[str]:
    """A query's patterns: each starts at a line's first column (a continued one is indented)."""
    found: list[str] = []
    for line in query.strip().splitlines():
        if line.startswith("(") or not found:
            found.append(line)
        else:
            found[-1] += "\n" + line
    return [pattern.strip() for pattern in found]


def needle(pattern: str) -> bytes:
    """Text every file holding a match of ``pattern`` contains: its longest run of plain characters (a name is
    spelled out in the source; ``Agent.run`` needs both, either will do). Empty: no such text (``*``)."""
    import re

    pieces = re.split(r"\[[^\]]*\]|[*?.\[\]/:]", pattern)
    return max(pieces, key=len).encode("utf-8") if pieces else b""


def _text(node: Any) -> str:
    return bytes(node.text or b"").decode("utf-8", errors="replace")


def _scope(node: Any, scopes: dict[str, str]) -> list[tuple[str, str]]:
    """The named scopes around ``node``, outermost first: [("class_definition", "Agent"), …]."""
    found: list[tuple[str, str]] = []
    parent = node.parent
    while parent is not None:
        field = scopes.get(parent.type)
        if field is not None:
            named = parent.child_by_field_name(field)
            if named is not None:
                found.append((parent.type, _text(named)))
        parent = parent.parent
    return found[::-1]


def _describe(scope: list[tuple[str, str]]) -> str:
    if not scope:
        return ""

    def is_class(kind: str) -> bool:
        return "class" in kind or kind in ("impl_item", "trait_item", "interface_declaration")

    kind, name = scope[-1]
    if is_class(kind):
        return f"class {'.'.join(n for _, n in scope)}"
    if len(scope) > 1 and is_class(scope[-2][0]):
        return f"method {scope[-2][1]}.{name}"
    return f"function {name}"


def _character_column(source: bytes, node: Any) -> int:
    """The name's column in characters (code points), as jedi-language-server reads a position's ``character``
    (measured: it hands it to jedi as is; tree-sitter counts bytes, and UTF-16 units point past the name too)."""
    start = node.start_byte
    prefix = source[start - node.start_point[1] : start]
    return len(prefix) if prefix.isascii() else len(prefix.decode("utf-8", "replace"))


def _module_matches(module: str, pattern: str) -> bool:
    module = module.strip("\"'`")
    if fnmatchcase(module, pattern):
        return True
    # "os" finds `import os.path` too; "react" finds "react/jsx-runtime"; "std" finds `use std::fmt`.
    return any(module.startswith(pattern + sep) for sep in (".", "/", "::"))


def search_tree(source: bytes, language: str, path: str, kind: Kind, pattern: str) -> Iterator[Hit]:
    """The hits of ``kind`` in one file's ``source`` whose name matches the glob ``pattern`` (a definition also
    by its qualified name, ``Agent.run``)."""
    built = grammar(language, kind)
    if built is None:
        return
    wanted = needle(pattern)
    if wanted and wanted not in source:
        return  # no parse for a file that cannot hold a match: most files, for most names
    parser, query = built
    import tree_sitter

    scopes = _LANGUAGES[language].scopes
    tree = parser.parse(source)
    for _, captures in tree_sitter.QueryCursor(query).matches(tree.root_node):
        names = captures.get("name")
        role = next((r for r in ("function", "class", "method", "type", "call", "import") if r in captures), None)
        if not names or role is None:
            continue
        node, name = names[0], _text(names[0])
        if kind == "definition":
            if role not in _DEFINITIONS:
                continue
            scope = _scope(captures[role][0], scopes)
            if role == "function" and scope and ("class" in scope[-1][0] or scope[-1][0] == "impl_item"):
                role = "method"
            qualified = ".".join([*(n for _, n in scope), name])
            if not (fnmatchcase(name, pattern) or fnmatchcase(qualified, pattern)):
                continue
        elif kind == "calls":
            if role != "call" or not fnmatchcase(name, pattern):
                continue
            scope = _scope(node, scopes)
        else:
            if role != "import" or not _module_matches(name, pattern):
                continue
            scope = _scope(node, scopes)
            name = name.strip("\"'`")
        yield Hit(path, node.start_point[0] + 1, role, name, _describe(scope), column=_character_column(source, node))


def definition_chunks(source: bytes, language: str, path: str, max_chars: int) -> Iterator[tuple[Hit, str]]:
    """Every definition in one file's ``source`` with its text (the first ``max_chars`` characters: the signature,
    the docstring, the start of the body), what the semantic layer embeds. A class's text is its own lines up to
    its first method, so a method is not embedded twice."""
    built = grammar(language, "definition")
    if built is None:
        return
    parser, query = built
    import tree_sitter

    scopes = _LANGUAGES[language].scopes
    for _, captures in tree_sitter.QueryCursor(query).matches(parser.parse(source).root_node):
        names = captures.get("name")
        role = next((r for r in ("function", "class", "method", "type") if r in captures), None)
        if not names or role is None:
            continue
        node = captures[role][0]
        scope = _scope(node, scopes)
        if role == "function" and scope and ("class" in scope[-1][0] or scope[-1][0] == "impl_item"):
            role = "method"
        text = _text(node)[: max_chars * 2]
        name = _text(names[0])
        # What a reader sees of it: its name in words (verifyPassword: verify password), the comments above it
        # (JavaScript's, Go's and Rust's docs are there), then its own text.
        text = f"{role} {_words(name)}\n{_comments_above(node)}{text}"
        if role == "class":  # up to its first nested definition: the methods are chunks of their own
            inner = [line for line in text.splitlines()[1:] if line.lstrip().startswith(("def ", "async def "))]
            if inner:
                text = text[: text.index(inner[0])]
        hit = Hit(path, names[0].start_point[0] + 1, role, name, _describe(scope),
                  column=_character_column(source, names[0]))  # fmt: skip
        yield hit, text[:max_chars]


def _words(name: str) -> str:
    import re

    return " ".join(re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)).lower() or name


def _comments_above(node: Any) -> str:
    """The comment lines right above a definition (or above the export or decorators around it)."""
    while node.parent is not None and node.parent.type in ("export_statement", "decorated_definition"):
        node = node.parent
    lines: list[str] = []
    sibling = node.prev_named_sibling
    while sibling is not None and "comment" in sibling.type and len(lines) < 20:
        lines.append(_text(sibling))
        sibling = sibling.prev_named_sibling
    return "".join(line + "\n" for line in reversed(lines))
