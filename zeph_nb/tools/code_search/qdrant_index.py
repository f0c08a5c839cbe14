"""search_code's ``qdrant`` vector backend: the definitions' vectors kept in a Qdrant collection, so they outlive
the kernel (a new kernel embeds only what changed since the last search of the project).

Where: ``[index] qdrant_url``'s server, or with no URL Qdrant's local mode on disk in the zeph home
(``qdrant/<collection>/``, through the same ``qdrant-client``; no server). One collection per person, project folder
and embedding model: its name is made of the person, the folder's real path and the model's name and dimension, so
switching models never mixes vectors. A point is one definition, its id a UUID of (file, scope, kind, name, text
hash): an unchanged definition keeps its point; a changed one gets a new point and the old one is removed, as is
every point of a deleted file. The payload (path, name, kind, scope, line, language, text hash) is data only: what a
file says is never read back as anything but strings, and the hits shown are built from the files as they are now.

Ranking is the embedded backend's: cosine similarity (Qdrant's), the same ``score_threshold``, over the definitions
the search read, so a stale point or a file the search did not read is never an answer.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import os
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.code_search.semantic import Embedder
from zeph_nb.tools.code_search.structural import Hit

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

    from zeph_nb.config import Settings

__all__ = ["IDLE_SECS", "QdrantIndex", "close_local", "collection_name", "point_id"]

_NAMESPACE = uuid.UUID("6f1d0c38-5a0e-4d4e-9a52-2f4f3c1b7e90")  # zeph-nb's code points; never change it
_PAGE = 1000  # points per scroll page and per upsert batch: well under a server's request size limit
_MAX_PAYLOAD_CHARS = 512  # a name or scope a file made absurdly long is cut in the payload (it is shown from the file)
# A local folder stays open this long after a search: opening it reads every vector (150 ms for 2,600), and a model
# often asks a few questions in a row; closing it then lets another kernel on the same project have its turn (it
# waits up to qdrant_timeout_secs for one).
IDLE_SECS = 2.0


class _Local:
    """One local-mode folder as this kernel holds it: one search at a time, the client kept open while busy."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.client: QdrantClient | None = None
        self.timer: threading.Timer | None = None

    def close_when_idle(self) -> None:
        """Start the idle clock (the lock is held): a search before it runs stops it."""
        timer = threading.Timer(IDLE_SECS, self._idle)
        timer.daemon = True
        self.timer = timer
        timer.start()

    def _idle(self) -> None:
        with self.lock:
            if self.timer is threading.current_thread():  # no search since this clock started
                self.close()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.client is not None:
            client, self.client = self.client, None
            client.close()


_LOCALS: dict[str, _Local] = {}
_LOCALS_LOCK = threading.Lock()


@atexit.register
def close_local() -> None:
    """Close every local-mode folder this kernel holds (at exit; and where a test opens the folder itself)."""
    with _LOCALS_LOCK:
        held = list(_LOCALS.values())
    for local in held:
        with local.lock:
            local.close()


def collection_name(project: Path, model: str, dimension: int, owner: str = "") -> str:
    """The collection of one person's (``owner``) project folder (its real path) and one embedding model and
    dimension; the folder's name leads, for a person browsing the server. The owner is in it because on a team's
    server two people's folders often have the same path (``/home/jovyan/work`` on a hub) and different code: in one
    collection each search would remove the other's changed definitions."""
    real = os.path.realpath(project)
    folder = re.sub(r"[^A-Za-z0-9_-]", "_", os.path.basename(real))[:32] or "root"
    where = hashlib.sha256(f"{owner}\x00{real}".encode()).hexdigest()[:12]
    return f"zeph_code_{folder}_{where}_{hashlib.sha256(model.encode()).hexdigest()[:8]}_{dimension}"


def point_id(hit: Hit, text_hash: str, occurrence: int) -> str:
    """A definition's stable point id: the same file, scope, kind, name and text give the same id in every kernel
    (``occurrence`` tells apart identical definitions in one file). Lines are not part of it: a line added above
    moves a definition without changing what it means, and is not a reason to embed it again."""
    key = "\x00".join((hit.path, hit.scope, hit.kind, hit.name, str(occurrence), text_hash))
    return str(uuid.uuid5(_NAMESPACE, key))


class QdrantIndex:
    """The ``qdrant`` vector backend for one project folder (``project``, the file tools' working directory)."""

    def __init__(self, embedder: Embedder, settings: Settings, project: Path) -> None:
        self.embedder = embedder
        config = settings.index
        self.url = config.qdrant_url
        self.api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key is not None else None
        self.timeout = config.qdrant_timeout_secs
        self.local_root = settings.home / "qdrant"
        self.project = project
        self.model = str(getattr(embedder, "model", None) or repr(embedder))
        self.owner = settings.user
        self.embedded = 0  # definitions sent to the endpoint by this index (tests and the bench read it)

    def where(self) -> str:
        """What the messages name: the server, or the local folder."""
        return self.url if self.url is not None else f"Qdrant's local mode in {self.local_root}"

    async def scored(
        self, question: str, taken: Sequence[tuple[Hit, str]], read: set[str], threshold: float
    ) -> list[tuple[Hit, float]]:
        """Each definition of ``taken`` (from the files ``read``) at or above ``threshold`` with its similarity to
        ``question``. The collection is brought up to date first: new and changed definitions embedded and
        upserted, the points of changed or deleted ones removed."""
        (vector,) = await self.embedder.embed([question])
        name = collection_name(self.project, self.model, len(vector), self.owner)
        points: dict[str, tuple[Hit, str, str]] = {}  # id -> (hit, text, text hash)
        seen: dict[tuple[str, str, str, str, str], int] = {}
        for hit, text in taken:
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            key = (hit.path, hit.scope, hit.kind, hit.name, digest)
            seen[key] = seen.get(key, -1) + 1
            points[point_id(hit, digest, seen[key])] = (hit, text, digest)
        async with self._client(name) as client:
            missing, kept = await asyncio.to_thread(self._prune, client, name, len(vector), set(points), read)
            if missing:
                fresh = [points[key] for key in sorted(missing)]
                vectors = await self.embedder.embed([text for _, text, _ in fresh])
                await asyncio.to_thread(self._upsert, client, name, sorted(missing), fresh, vectors)
                self.embedded += len(fresh)
            found = await asyncio.to_thread(self._query, client, name, vector, kept + len(missing), threshold)
        return [(points[key][0], score) for key, score in found if key in points]

    # -- the client's calls, each in a thread (the local mode and the server's both block) ------------------------

    @asynccontextmanager
    async def _client(self, name: str) -> AsyncIterator[QdrantClient]:
        """A client for this search. A server's is closed after it; a local folder's is kept open for the next
        search (``_Local``), and another search of the same folder waits its turn. Nothing here blocks the kernel's
        event loop: opening a folder reads every vector, and is done in a thread."""
        try:
            from qdrant_client import QdrantClient
        except ImportError:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "search_code: [index] vector_backend = \"qdrant\" needs the qdrant-client package, which "
                            "is not installed (pip install 'zeph-nb[qdrant]'); search by name instead (kind "
                            "'definition' with a glob)") from None  # fmt: skip
        if self.url is not None:
            # The reference's default (port 6334) is Qdrant's gRPC port; 6333 and other ports are spoken to as REST.
            grpc = re.search(r":6334(/|$)", self.url) is not None
            client = QdrantClient(url=self.url, api_key=self.api_key, timeout=max(1, round(self.timeout)),
                                  prefer_grpc=grpc, check_compatibility=False)  # fmt: skip
            try:
                yield client
            finally:
                await asyncio.to_thread(client.close)
            return
        folder = self.local_root / name
        with _LOCALS_LOCK:
            local = _LOCALS.setdefault(str(folder), _Local())
        deadline = time.monotonic() + self.timeout
        # Polled, not waited for in a thread: a cancelled search must not leave a thread that takes the lock later.
        while not local.lock.acquire(blocking=False):
            if time.monotonic() > deadline:
                raise self._failed(TimeoutError(f"another search held {folder} for {self.timeout:g}s"))
            await asyncio.sleep(0.02)
        try:
            if local.timer is not None:
                local.timer.cancel()
                local.timer = None
            if local.client is None:
                await asyncio.to_thread(self._open_local, folder, local)
            assert local.client is not None
            try:
                yield local.client
            except BaseException:
                local.close()  # whatever went wrong, the next search opens the folder anew
                raise
            local.close_when_idle()
        finally:
            local.lock.release()

    def _open_local(self, folder: Path, local: _Local) -> None:
        """Opens the folder into ``local`` (there even if the search that asked was cancelled meanwhile: the next
        search uses it, or the idle clock or the kernel's exit closes it)."""
        from qdrant_client import QdrantClient

        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                local.client = QdrantClient(path=str(folder))
                return
            except RuntimeError as e:  # "already accessed by another instance": another kernel's search
                if "already accessed" not in str(e) or time.monotonic() > deadline:
                    raise self._failed(e) from None
                time.sleep(0.05)

    def _prune(
        self, client: QdrantClient, name: str, dimension: int, wanted: set[str], read: set[str]
    ) -> tuple[set[str], int]:
        """The ids of ``wanted`` the collection lacks, after removing the points of definitions that changed or went
        away (in a file read now, or whose file is gone), and how many points it keeps; creates the collection on
        first use."""
        from qdrant_client import models

        try:
            if not client.collection_exists(name):
                client.create_collection(
                    name, vectors_config=models.VectorParams(size=dimension, distance=models.Distance.COSINE)
                )
                return set(wanted), 0
            have: set[str] = set()
            total = 0
            stale: list[str] = []
            gone: dict[str, bool] = {}
            offset: Any = None
            while True:
                records, offset = client.scroll(name, limit=_PAGE, offset=offset, with_payload=["path"],
                                                with_vectors=False)  # fmt: skip
                total += len(records)
                for record in records:
                    key = str(record.id)
                    path = str((record.payload or {}).get("path", ""))
                    if key in wanted:
                        have.add(key)
                    elif path in read:
                        stale.append(key)  # its file was read, and this definition is not in it any more
                    elif path not in gone:
                        gone[path] = not (self.project / path).exists()
                        if gone[path]:
                            stale.append(key)
                    elif gone[path]:
                        stale.append(key)
                if offset is None:
                    break
            for start in range(0, len(stale), _PAGE):
                client.delete(name, points_selector=models.PointIdsList(points=list(stale[start : start + _PAGE])))
            return wanted - have, total - len(stale)
        except ToolError:
            raise
        except Exception as e:  # the client's errors (httpx, gRPC, local storage) are one: Qdrant failed
            raise self._failed(e) from None

    def _upsert(
        self, client: QdrantClient, name: str, ids: list[str], fresh: list[tuple[Hit, str, str]],
        vectors: list[list[float]],
    ) -> None:  # fmt: skip
        from qdrant_client import models
        from qdrant_client.models import ExtendedPointId

        from zeph_nb.tools.code_search.structural import language_of

        batch: list[models.PointStruct] = []
        for key, (hit, _, digest), vector in zip(ids, fresh, vectors, strict=True):
            payload = {"path": hit.path, "name": hit.name[:_MAX_PAYLOAD_CHARS], "kind": hit.kind,
                       "scope": hit.scope[:_MAX_PAYLOAD_CHARS], "line": hit.line,
                       "language": language_of(hit.path) or "", "text_hash": digest}  # fmt: skip
            point: ExtendedPointId = key
            batch.append(models.PointStruct(id=point, vector=vector, payload=payload))
        try:
            for start in range(0, len(batch), _PAGE):
                client.upsert(name, points=batch[start : start + _PAGE], wait=True)
        except Exception as e:
            raise self._failed(e) from None

    def _query(
        self, client: QdrantClient, name: str, vector: list[float], size: int, threshold: float
    ) -> list[tuple[str, float]]:
        if not size:
            return []
        try:
            # Every point at or above the threshold, not the top few: the answer's order puts a definition named in
            # the question first, as the embedded backend's does, and says how many there were. No filter on the
            # ids read now (in the local mode a filter of thousands of ids costs more than the search): the caller
            # keeps those.
            response = client.query_points(name, query=vector, limit=size, score_threshold=threshold,
                                           with_payload=False)  # fmt: skip
        except Exception as e:
            raise self._failed(e) from None
        return [(str(point.id), float(point.score)) for point in response.points]

    def _failed(self, error: BaseException) -> ToolError:
        """Qdrant's trouble, said to the model with where and what to do; the structural kinds still work."""
        details = getattr(error, "details", None)  # gRPC's errors: their code and details, not a debug dump
        code = getattr(error, "code", None)
        if callable(details) and callable(code):
            text = f"{getattr(code(), 'name', code())}: {details()}"
        else:
            text = f"{type(error).__name__}: {error}"
        text = " ".join(text.split())[:300]
        lowered = text.lower()
        # "already accessed": a local folder another process held for all of the timeout (waited for, in vain).
        slow = isinstance(error, TimeoutError) or any(w in lowered for w in ("timed out", "deadline", "already acc"))
        down = any(word in lowered for word in ("connect", "refused", "unavailable", "resolve"))
        category = (ToolErrorCategory.TIMEOUT if slow
                    else ToolErrorCategory.NETWORK_ERROR if down else ToolErrorCategory.SERVER_ERROR)  # fmt: skip
        if self.url is None and slow:
            what = ("another search of this project held it (this kernel's or another's): try again; kernels that "
                    "search at once are better served by a Qdrant server ([index] qdrant_url)")  # fmt: skip
        elif self.url is None:
            what = "the folder may be damaged: the person can delete it (the vectors are made again)"
        elif slow:
            what = (f"no answer in {self.timeout:g}s: the person can check that server or raise [index] "
                    "qdrant_timeout_secs")  # fmt: skip
        else:
            what = "the person can start that server or fix [index] qdrant_url"
        return ToolError(category, f"search_code: the vector index ({self.where()}, [index] vector_backend = "
                         f"\"qdrant\") failed: {text}; {what}. Meanwhile search by name (kind 'definition' with a "
                         "glob, 'calls', 'references')")  # fmt: skip
