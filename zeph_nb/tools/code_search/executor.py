"""The ``search_code`` tool: definitions, calls, imports and references in the project the notebook sits in.

Two layers, their hits merged: tree-sitter reads every source file the listing gives (``structural.py``), and for
Python a language server resolves what text cannot (``lsp.py``: symbols across the project, the real references
of a definition, where a call goes). A hit both found ranks first, then exact names before glob matches, then
definitions before uses; the same place and name is shown once.

Read-only and cacheable like grep (``walks="reads"``): the result cache drops it whenever a call may have
written, so an edit is seen by the next search.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import os
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from zeph_nb.config import Settings
from zeph_nb.errors import ModelError, ToolError, ToolErrorCategory
from zeph_nb.security.paths import Sandbox
from zeph_nb.tools.base import BuiltinArgs, ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.code_search import sources
from zeph_nb.tools.code_search.semantic import Embedder, VectorIndex, file_chunks, index_for
from zeph_nb.tools.code_search.structural import (
    Hit,
    Kind,
    language_of,
    languages,
    search_tree,
)

__all__ = ["SEARCH_CODE", "CodeSearchExecutor", "SearchCodeArgs"]

_GLOB = frozenset("*?[")


class SearchCodeArgs(BuiltinArgs):
    query: str = Field(
        min_length=1,
        max_length=512,
        description="a name or glob: a function, class or method (`parse_*`, `Agent.run`), a called name, or a "
        "module (`os`, `react`)",
    )
    kind: Literal["definition", "calls", "imports", "references", "semantic"] = Field(
        "definition",
        description="definition: where it is defined; calls: where it is called; imports: where the module is "
        "imported; references: every use of the definition (Python, through a language server); semantic: the "
        "query is a question in words, and the definitions closest in meaning come back (when [index] enabled)",
    )
    path: str | None = Field(None, max_length=4096, description="a folder or file to search; default: the project")
    language: Literal["python", "javascript", "typescript", "tsx", "go", "rust"] | None = Field(
        None, description="only files of this language"
    )
    max_results: int = Field(50, ge=1, le=500, description="the most hits shown")


_DESCRIPTION = (
    "Search the project's source code by structure, not text: definitions of a function, class or method by name "
    "or glob, the calls of a name, the imports of a module, or (Python) every reference to a definition. Prints "
    "path:line: kind name (in its enclosing scope). Files .gitignore names are left out. Prefer it to grep for "
    "code: it skips comments and strings and knows methods from functions."
)
SEARCH_CODE = ToolDef(
    "search_code",
    _DESCRIPTION,
    SearchCodeArgs,
    subject=("path",),
    subject_kind="path",
    cacheable=True,
    enabled_by="file_enabled",
    walks="reads",
    utility=0.7,
)
_ORDER = {"class": 0, "type": 0, "function": 1, "method": 1, "reference": 2, "call": 3, "import": 4}


@dataclasses.dataclass
class _Found:
    hits: list[Hit]
    notes: list[str]
    files: int


class CodeSearchExecutor:
    """``search_code`` over the file tools' sandbox (``file_sandbox``: the same roots, read rules and protected
    paths). ``server_command`` replaces the language server's command line (tests: a server that hangs)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        workdir: str | os.PathLike[str] | None = None,
        server_command: Sequence[str] | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        from zeph_nb.tools.files.executor import file_sandbox

        self.settings = settings or Settings()
        self.sandbox: Sandbox = file_sandbox(self.settings, Path(workdir) if workdir is not None else Path.cwd())
        self.server_command = tuple(server_command) if server_command is not None else None
        self.index: VectorIndex | None = None
        if embedder is not None and self.settings.index.vector_backend == "qdrant":
            from zeph_nb.tools.code_search.qdrant_index import QdrantIndex

            self.index = QdrantIndex(embedder, self.settings, self.sandbox.workdir)
        elif embedder is not None:
            self.index = index_for(embedder)

    def tool_definitions(self) -> Sequence[ToolDef]:
        return (SEARCH_CODE,) if languages() else ()

    def requires_confirmation(self, call: ToolCall) -> bool:
        return False

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id != SEARCH_CODE.name:
            return None
        args: Any = checked_args(SEARCH_CODE, call)
        root = self.sandbox.resolve(args.path if args.path is not None else ".")
        self.sandbox.check_readable(root, args.path)
        if not root.exists():
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{self.sandbox.display(root)} does not exist")
        if args.kind == "semantic":
            return self._output(args, await self._semantic(root, args))
        # Files are read and parsed in a thread: the kernel's event loop (its widgets, the Stop button) stays free.
        structural_kind: Kind = "definition" if args.kind == "references" else args.kind
        found = await asyncio.to_thread(self._structural, root, structural_kind, args.query, args.language)
        if args.kind == "references":
            found.hits = await self._references(found, args, root)
        elif self._wants_server(args):
            await self._resolve(found, args, root)
        return self._output(args, found)

    def run(self, **params: Any) -> ToolOutput:
        """One search from plain Python or a notebook cell; raises ToolError on failure."""
        call = ToolCall(SEARCH_CODE.name, params)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            output = asyncio.run(self.execute(call))
        else:  # a cell, on the kernel's running loop: the search runs to its end on a loop of its own, in a thread
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                output = pool.submit(asyncio.run, self.execute(call)).result()
        assert output is not None
        return output

    # -- layer 1: tree-sitter -------------------------------------------------------------------------------

    def _structural(self, root: Path, kind: Kind, query: str, language: str | None) -> _Found:
        found = _Found([], [], 0)
        for shown, lang, source in self._sources(root, language, found):
            found.hits.extend(search_tree(source, lang, shown, kind, query))
        return found

    def _sources(self, root: Path, language: str | None, found: _Found) -> Iterator[tuple[str, str, bytes]]:
        """(shown path, language, bytes) of each source file under ``root`` the sandbox lets ``read`` read, within
        the bounds; ``found`` counts them and gets the notes."""
        index = self.settings.index
        listed, honoured = sources.list_files(root)
        deadline = time.monotonic() + index.time_budget_secs
        too_big = 0
        for path in listed:
            lang = language_of(path.name)
            if lang is None or (language is not None and lang != language):
                continue
            if found.files >= index.max_files:
                found.notes.append(f"stopped after {index.max_files} files ([index] max_files); narrow the path")
                break
            if time.monotonic() > deadline:
                found.notes.append(f"stopped after {found.files} files: the time budget ({index.time_budget_secs:g} "
                                   "s, [index] time_budget_secs) ran out; narrow the path or the language")  # fmt: skip
                break
            try:
                source = sources.read_source(self.sandbox, path, index.max_file_bytes)
            except (ToolError, OSError):
                continue  # outside, hidden, denied or gone: not ours to read, and not named
            if source is None:
                too_big += 1
                continue
            found.files += 1
            yield self.sandbox.display(Path(os.path.abspath(path))), lang, source
        if too_big:
            found.notes.append(f"{too_big} files larger than {index.max_file_bytes} bytes were skipped ([index] "
                               "max_file_bytes)")  # fmt: skip
        if not honoured:
            found.notes.append("ripgrep is not installed: .gitignore was not read (hidden and build folders were "
                               "skipped)")  # fmt: skip

    # -- layer 3: meaning -------------------------------------------------------------------------------------

    async def _semantic(self, root: Path, args: Any) -> _Found:
        if self.index is None:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "semantic search is off here ([index] enabled = false, the person's setting); search "
                            "by name instead: kind 'definition' with a glob such as '*price*', or 'calls', "
                            "'imports', 'references'")  # fmt: skip

        read: set[str] = set()

        def chunks() -> tuple[_Found, list[tuple[Hit, str]]]:
            found = _Found([], [], 0)
            taken: list[tuple[Hit, str]] = []
            for shown, lang, source in self._sources(root, args.language, found):
                read.add(shown)
                taken.extend(file_chunks(source, lang, shown))
            return found, taken

        found, taken = await asyncio.to_thread(chunks)
        if not taken:
            return found
        try:
            scored = await self.index.scored(args.query, taken, read, self.settings.index.score_threshold)
        except ModelError as e:
            why = f"the embeddings endpoint ([index] embedding_provider) failed: {e.message}"
            raise ToolError(e.category, f"search_code: {why}; search by name instead (kind 'definition' with a "
                            "glob)") from None  # fmt: skip
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", args.query))
        for hit, score in scored:
            if score > 0:  # sharing nothing is never an answer
                layer = "structural+semantic" if hit.name in words else "semantic"
                found.hits.append(dataclasses.replace(hit, layer=layer, score=score))
        return found

    # -- layer 2: the language server -----------------------------------------------------------------------

    def _wants_server(self, args: Any) -> bool:
        return self.settings.index.language_server and args.language in (None, "python")

    def _server(self) -> Any:
        from zeph_nb.tools.code_search.lsp import server_for

        return server_for(self.settings, self.sandbox.workdir, self.server_command)

    async def _resolve(self, found: _Found, args: Any, root: Path) -> None:
        """Definitions: the server's workspace symbols join the structural ones. Calls: each Python call is
        followed to its definition. The server's trouble is a note here: tree-sitter's hits stand alone."""
        from zeph_nb.tools.code_search.lsp import ServerTrouble

        try:
            if args.kind == "definition":
                literal = _literal_prefix(args.query)
                if literal:
                    symbols = await self._server().workspace_symbols(literal)
                    found.hits.extend(hit for hit in self._visible(symbols, under=root)
                                      if _name_matches(hit, args.query))  # fmt: skip
            elif args.kind == "calls":
                calls = [hit for hit in found.hits if hit.path.endswith((".py", ".pyi"))][:20]
                server = self._server()
                for hit in calls:
                    targets = self._visible(await server.definition(self._absolute(hit), hit.line - 1, hit.column))
                    if targets:
                        at = found.hits.index(hit)
                        found.hits[at] = dataclasses.replace(hit, target=f"{targets[0].path}:{targets[0].line}",
                                                             layer="structural+lsp")  # fmt: skip
        except ServerTrouble as trouble:
            found.notes.append(f"the language server gave nothing ({self._masked(str(trouble))}); these are "
                               "tree-sitter's hits alone")  # fmt: skip

    async def _references(self, found: _Found, args: Any, root: Path) -> list[Hit]:
        """Every use of the Python definitions named: the server's ``textDocument/references`` of each."""
        from zeph_nb.tools.code_search.lsp import ServerTrouble

        definitions = [hit for hit in found.hits if hit.path.endswith((".py", ".pyi"))]
        if not definitions:
            found.notes.append(f"no Python definition matches {args.query!r}: references are found from one")
            return []
        if not self.settings.index.language_server:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "references need the language server, which [index] language_server = false turns off; "
                            "use kind='calls' for the calls tree-sitter finds")  # fmt: skip
        if len(definitions) > 5:
            found.notes.append(f"{len(definitions)} definitions match; the references of the first 5 are shown")
        hits: list[Hit] = []
        try:
            server = self._server()
            for definition in definitions[:5]:
                hits.append(definition)
                where = await server.references(self._absolute(definition), definition.line - 1, definition.column)
                hits.extend(dataclasses.replace(hit, kind="reference", name=definition.name)
                            for hit in self._visible(where))  # fmt: skip
        except ServerTrouble as trouble:
            if not trouble.alive:
                raise ToolError(trouble.category, f"search_code: {self._masked(str(trouble))}; kind='calls' finds "
                                "the calls without the server") from None  # fmt: skip
            # It runs, but would not answer this (jedi stops at a file the sandbox hides): tree-sitter's calls.
            calls = await asyncio.to_thread(self._structural, root, "calls", args.query, args.language)
            found.notes.append(f"{trouble}; these are the definitions and the calls tree-sitter finds instead")
            return [*definitions, *calls.hits]
        return hits

    def _masked(self, text: str) -> str:
        """A server's words with every absolute path ``read`` could not read masked: a traceback it printed may
        name a deny_read file, whose name is as private as its text."""

        def mask(match: re.Match[str]) -> str:
            try:
                self.sandbox.check_readable(self.sandbox.resolve(match.group()))
            except (ToolError, OSError, ValueError):
                return "<path not shown>"
            return match.group()

        return re.sub(r"/[^\s'\",:;()]+", mask, text)

    def _absolute(self, hit: Hit) -> Path:
        return self.sandbox.workdir / hit.path

    def _visible(self, hits: Sequence[Hit], *, under: Path | None = None) -> list[Hit]:
        """The server's hits (absolute paths) that ``read`` could read, shown as the file tools show paths. The
        server reads what its sandbox lets it, which is more than the file tools' rules: a deny_read file, a
        protected one or one outside the working directory is dropped, never named; so is one outside ``under``."""
        shown: list[Hit] = []
        for hit in hits:
            try:
                path = self.sandbox.resolve(hit.path)
                self.sandbox.check_readable(path, hit.path)
            except ToolError:
                continue
            if under is not None and path != under and under not in path.parents:
                continue  # a symbol elsewhere in the project, when the call asked about one folder
            shown.append(dataclasses.replace(hit, path=self.sandbox.display(path)))
        return shown

    # -- the answer ---------------------------------------------------------------------------------------------

    def _output(self, args: Any, found: _Found) -> ToolOutput:
        hits = _ranked(found.hits, args.query)
        cap = min(args.max_results, self.settings.index.max_chunks) if args.kind == "semantic" else args.max_results
        more = len(hits) > cap
        shown = hits[:cap]
        lines = [hit.shown() for hit in shown]
        if not lines:
            lines = [f"No {args.kind} of {args.query!r} found in {found.files} source files"]
        if more:
            how = " ([index] max_chunks)" if cap < args.max_results else ", or raise max_results"
            lines.append(f"[first {cap} of {len(hits)} hits shown; narrow the query or the path{how}]")
        lines += [f"[{note}]" for note in found.notes]
        raw = {"hits": [dataclasses.asdict(hit) for hit in shown], "total": len(hits), "files": found.files,
               "notes": found.notes}  # fmt: skip
        return ToolOutput(SEARCH_CODE.name, "\n".join(lines), raw=raw, truncated=more)


def _literal_prefix(pattern: str) -> str:
    """What a workspace symbol query can ask for: the pattern up to its first glob character."""
    for at, char in enumerate(pattern):
        if char in _GLOB:
            return pattern[:at]
    return pattern


def _name_matches(hit: Hit, pattern: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase(hit.name, pattern) or fnmatchcase(hit.scope.split(" ", 1)[-1] + "." + hit.name, pattern)


def _ranked(hits: Sequence[Hit], query: str) -> list[Hit]:
    """Merged (one hit per place and name; both layers: "structural+lsp"), then ranked."""
    merged: dict[tuple[str, int, str], Hit] = {}
    for hit in hits:
        seen = merged.get(hit.key())
        if seen is None:
            merged[hit.key()] = hit
        elif seen.layer != hit.layer and "+" not in seen.layer:
            # The structural hit keeps its kind and scope (a language server says "function" of methods too).
            first, other = (seen, hit) if seen.layer == "structural" else (hit, seen)
            merged[hit.key()] = dataclasses.replace(first, layer="structural+lsp", target=first.target or other.target)
    tail = query.rsplit(".", 1)[-1]

    def rank(hit: Hit) -> tuple[bool, bool, float, int, str, int]:
        # A semantic hit ranks by its similarity; the others by name, then kind.
        return ("+" not in hit.layer, hit.name not in (query, tail), -hit.score, _ORDER.get(hit.kind, 5), hit.path,
                hit.line)  # fmt: skip

    return sorted(merged.values(), key=rank)
