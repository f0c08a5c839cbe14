"""``memory_save`` and ``memory_search``: notes the model keeps in the store and finds again in a later run.

Per user (``Settings.user``) and per project, the project being the canonical working directory of the run, the
folder the notebook sits in; ``[memory] scope = "user"`` searches every folder of the user. What is saved passes the
store's redaction choke point before anything else sees it: the vector is made of the redacted text, so neither the
embeddings server nor the file gets a secret the model wrote. What a search returns is framed as untrusted data: a
note may have been written by a model that had just read a hostile page, and it must not come back as orders.

Neither tool is cacheable (``ToolDef.cacheable`` is false): a search after a save must see it, and a save always
saves. Neither changes files, so neither asks by default; a permission rule can make them ask.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import Field

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import BuiltinArgs, ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.memory.ranking import rank
from zeph_nb.tools.untrusted import untrusted

if TYPE_CHECKING:
    from zeph_nb.store.memories import MemoryRows
    from zeph_nb.store.store import Store

__all__ = ["MEMORY_SAVE", "MEMORY_SEARCH", "Embedder", "MemoryExecutor"]

MAX_TAGS = 10
# Notes without a vector embedded by one search (one request of at most two of the client's batches).
EMBED_PER_SEARCH = 128


class Embedder(Protocol):
    """What embeds texts (``agent/providers/embeddings.OpenAIEmbeddings``, made by the agent from
    ``[memory] embedding_provider``)."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class MemorySaveArgs(BuiltinArgs):
    text: str = Field(min_length=1, description="the note, complete by itself: it is read in another session")
    tags: list[str] = Field(
        default_factory=list, max_length=MAX_TAGS, description="a few words to find it by (e.g. 'dataset', 'style')"
    )


class MemorySearchArgs(BuiltinArgs):
    query: str = Field(min_length=1, description="words to look for; the best matches come first")
    limit: int = Field(5, ge=1, le=20, description="at most this many notes")
    tags: list[str] = Field(default_factory=list, description="only notes carrying every one of these tags")


MEMORY_SAVE = ToolDef(
    "memory_save",
    "Save a short note that later runs and sessions can find with memory_search (it outlives the kernel): a fact "
    "about this project, the person's preference, what worked or failed. Kept for this user and project folder; "
    "the person sees and deletes notes with %zeph memory. Secrets are redacted before they are kept.",
    MemorySaveArgs,
    subject=("text",),
    utility=0.4,
    enabled_by="memory.enabled",
)
MEMORY_SEARCH = ToolDef(
    "memory_search",
    "Search the notes saved with memory_save in this and earlier sessions (full-text ranking, and by meaning when "
    "embeddings are configured). Returns the best matches with their ids, dates and tags.",
    MemorySearchArgs,
    subject=("query",),
    enabled_by="memory.enabled",
)


class MemoryExecutor:
    """Both memory tools over the store's ``memories`` table. ``store`` defaults to the zeph home's (opened on
    first use); ``run`` says the current run's id (the chain's), for the note's row."""

    def __init__(
        self,
        settings: Settings,
        workdir: str | os.PathLike[str] | None = None,
        *,
        store: Store | None = None,
        run: Callable[[], str | None] | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.settings = settings
        self.config = settings.memory
        self.project = os.path.realpath(workdir if workdir is not None else os.getcwd())
        self._store = store
        self._rows: MemoryRows | None = None
        self.run = run
        self.embedder = embedder
        self.embedding_model = str(getattr(embedder, "model", "") or repr(embedder)) if embedder else None
        self._vectors: dict[str, list[float]] = {}  # note id -> its vector, made at a search, for this executor's life

    # -- the executor protocol ---------------------------------------------------------------------------------

    def tool_definitions(self) -> Sequence[ToolDef]:
        return (MEMORY_SAVE, MEMORY_SEARCH)

    def requires_confirmation(self, call: ToolCall) -> bool:
        return False

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id == MEMORY_SAVE.name:
            save = checked_args(MEMORY_SAVE, call)
            assert isinstance(save, MemorySaveArgs)
            return await self.save(save, call)
        if call.tool_id == MEMORY_SEARCH.name:
            search = checked_args(MEMORY_SEARCH, call)
            assert isinstance(search, MemorySearchArgs)
            return await self.search(search, call)
        return None

    # -- the tools ---------------------------------------------------------------------------------------------

    @property
    def rows(self) -> MemoryRows:
        if self._rows is None:
            from zeph_nb.store.memories import MemoryRows
            from zeph_nb.store.store import Store

            self._rows = MemoryRows(self._store if self._store is not None else Store(self.settings))
        return self._rows

    async def save(self, args: MemorySaveArgs, call: ToolCall) -> ToolOutput:
        if len(args.text) > self.config.max_chars:
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"memory_save: the note is {len(args.text):,} characters; at most "
                            f"{self.config.max_chars:,} are kept ([memory] max_chars). Save the gist")  # fmt: skip
        from zeph_nb.store.memories import MemoryRow, new_memory_id

        tags = _tags(args.tags)
        kept = await asyncio.to_thread(self.rows.redacted, args.text)
        vector, note = await self._embed_one(kept)
        row = MemoryRow(id=new_memory_id(), user_name=self.settings.user, project=self.project, text=kept,
                        tags=tags, conversation_id=call.caller_id, run_id=self.run() if self.run else None,
                        call_id=call.call_id, embedding=json.dumps(vector) if vector else None,
                        embedding_model=self.embedding_model if vector else None)  # fmt: skip
        await asyncio.to_thread(self.rows.save, row)
        said = f"Saved note {row.id}" + (f" (tags: {', '.join(tags)})" if tags else "")
        if kept != args.text:
            said += "; a secret in it was redacted before it was kept"
        return ToolOutput(MEMORY_SAVE.name, said + (f". {note}" if note else "."), call_id=call.call_id,
                          raw={"id": row.id, "project": self.project, "tags": tags, "redacted": kept != args.text,
                               "embedded": vector is not None})  # fmt: skip

    async def search(self, args: MemorySearchArgs, call: ToolCall) -> ToolOutput:
        project = self.project if self.config.scope == "project" else None
        frame = await asyncio.to_thread(self.rows.live, self.settings.user, project)
        notes = [dict(zip(frame.columns, values, strict=True)) for values in frame.itertuples(index=False)]
        wanted = set(_tags(args.tags))
        if wanted:
            notes = [n for n in notes if wanted <= set(json.loads(n["tags"] or "[]"))]
        where = "this project" if project is not None else "any project"
        if not notes:
            text = f"No saved notes{' with those tags' if wanted else ''} in {where} yet."
            return ToolOutput(MEMORY_SEARCH.name, text, raw={"matches": [], "notes": 0}, call_id=call.call_id)
        query_vector, vectors, note = await self._vectors_for(args.query, notes)
        documents = [f"{n['text']} {' '.join(json.loads(n['tags'] or '[]'))}" for n in notes]
        found = rank(args.query, documents, vectors, query_vector, vector_weight=self.config.vector_weight,
                     limit=args.limit)  # fmt: skip
        matches = [_match(notes[r.index], r.score, r.text, r.vector) for r in found]
        if not matches:
            text = f"No note in {where} matches {args.query!r} ({len(notes)} notes searched)."
        else:
            body = "\n\n".join(_render(m) for m in matches)
            text = (f"{len(matches)} of {len(notes)} notes in {where}, best first:\n"
                    + untrusted(body, "notes saved by memory_save"))  # fmt: skip
        if note:
            text += f"\n({note})"
        raw = {"matches": matches, "notes": len(notes), "vector": query_vector is not None}
        return ToolOutput(MEMORY_SEARCH.name, text, raw=raw, call_id=call.call_id)

    # -- embeddings: optional, and never the reason a tool fails ---------------------------------------------------

    async def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        assert self.embedder is not None
        async with asyncio.timeout(self.config.timeout_secs):
            return await self.embedder.embed(texts)

    async def _embed_one(self, text: str) -> tuple[list[float] | None, str]:
        if self.embedder is None:
            return None, ""
        try:
            (vector,) = await self._embed([text])
        except Exception as e:  # the endpoint is down, slow or answers nonsense: the note is kept without a vector
            return None, f"It has no embedding ({_why(e)}); it is found by its words"
        return vector, ""

    async def _vectors_for(
        self, query: str, notes: list[dict[str, Any]]
    ) -> tuple[list[float] | None, list[list[float] | None], str]:
        """The query's vector and each note's (stored, made earlier by this executor, or made now: at most
        ``EMBED_PER_SEARCH`` of the newest, so notes saved before a provider was set are embedded over a few
        searches, never in one request that outlasts the timeout). Without an embedder, or when the query cannot
        be embedded, no vectors and the reason; a note left without one is ranked by its words alone."""
        if self.embedder is None:
            return None, [], ""
        vectors: list[list[float] | None] = []
        missing: list[int] = []
        for i, n in enumerate(notes):
            vector = self._vectors.get(str(n["id"]))
            if vector is None and _present(n["embedding"]) and n["embedding_model"] == self.embedding_model:
                vector = [float(x) for x in json.loads(n["embedding"])]
            if vector is None:
                missing.append(i)
            vectors.append(vector)
        try:
            (query_vector,) = await self._embed([query])
        except Exception as e:
            return None, [], f"ranked by words only: the query could not be embedded ({_why(e)})"
        note = ""
        batch = missing[:EMBED_PER_SEARCH]  # notes come newest first
        if batch:
            try:
                made = await self._embed([str(notes[i]["text"]) for i in batch])
            except Exception as e:
                made, note = [], f"{len(missing)} notes without a vector were ranked by words only ({_why(e)})"
            for i, vector in zip(batch, made, strict=False):
                vectors[i] = self._vectors[str(notes[i]["id"])] = vector
        if len(missing) > len(batch) and not note:
            note = f"{len(missing) - len(batch)} older notes are not embedded yet and were ranked by words only"
        return query_vector, vectors, note


def _tags(tags: Sequence[str]) -> list[str]:
    """Tags as kept: trimmed, lower-case, at most 40 characters each, no duplicates or empties."""
    return list(dict.fromkeys(t.strip().casefold()[:40] for t in tags if t.strip()))


def _present(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _why(error: BaseException) -> str:
    return "no answer in time" if isinstance(error, TimeoutError) else f"{type(error).__name__}: {error}"[:200]


def _match(note: dict[str, Any], score: float, text: float, vector: float | None) -> dict[str, Any]:
    created = note["created_at"]
    return {
        "id": str(note["id"]),
        "created_at": created.isoformat(sep=" ", timespec="seconds") if hasattr(created, "isoformat") else str(created),
        "tags": json.loads(note["tags"] or "[]"),
        "text": str(note["text"]),
        "score": round(score, 4),
        "text_score": round(text, 4),
        "vector_score": None if vector is None or math.isnan(vector) else round(vector, 4),
    }


def _render(match: dict[str, Any]) -> str:
    tags = f" [{', '.join(match['tags'])}]" if match["tags"] else ""
    return f"- {match['id']} ({match['created_at']} UTC{tags}, score {match['score']:.2f}):\n  {match['text']}"
