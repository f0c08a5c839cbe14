"""memory_save and memory_search with real parts: the store's DuckDB file and spools in a temp home, the agent loop
with the scripted model, the whole gate chain, and the embeddings server of bench/ on loopback."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from bench.embedding_server import EmbeddingServer, provider_toml, serve_embeddings
from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.store import Store
from zeph_nb.store.memories import MemoryRow, MemoryRows, new_memory_id
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.memory import MEMORY_SAVE, MEMORY_SEARCH
from zeph_nb.tools.memory.ranking import bm25, cosine, rank

SECRET = "Zq9!x7Kw2Lp"
NOTE = f"The training data lives in data/train.parquet; the warehouse password={SECRET}"


def settings_for(store: Store, toml: str = "[memory]\nenabled = true\n") -> Settings:
    return Settings.from_toml(toml).model_copy(update={"home": store.home, "user": "ada"})


def agent_for(store: Store, workdir: Path, turns: list[Any], toml: str = "[memory]\nenabled = true\n") -> Any:
    settings = settings_for(store, toml)
    return zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(turns), zeph_nb.DenyAll(), workdir, store=store)


def save(text: str, tags: list[str] | None = None) -> list[dict[str, Any]]:
    return [{"tool": "memory_save", "params": {"text": text, "tags": tags or []}}]


def search(query: str, **more: Any) -> list[dict[str, Any]]:
    return [{"tool": "memory_search", "params": {"query": query, **more}}]


# -- ranking (pure) -----------------------------------------------------------------------------------------------


def test_bm25_ranks_the_text_with_the_rarer_words_first_and_leaves_out_what_matches_nothing() -> None:
    docs = ["the dataset is in data/train.parquet", "plots use seaborn", "the dataset is big and the plots slow"]
    scores = bm25("where is the parquet dataset", docs)
    assert scores[0] > scores[2] > scores[1] == 0.0
    assert [r.index for r in rank("parquet dataset", docs)] == [0, 2]
    assert rank("nothing here", docs) == []


def test_case_accents_and_plurals_do_not_matter() -> None:
    assert [r.index for r in rank("CAFE", ["Le café est fermé", "tea"])] == [0]
    assert [r.index for r in rank("where do reports go", ["the final report", "plots", "queries"])] == [0]
    assert [r.index for r in rank("query", ["plots", "queries"])] == [1]


@pytest.mark.parametrize(("weight", "first"), [(0.0, 0), (1.0, 1), (0.9, 1)])
def test_the_vector_share_of_the_score_is_vector_weight(weight: float, first: int) -> None:
    # Entry 0 matches the words; entry 1 matches only in meaning (its vector is the query's).
    found = rank("gpu memory", ["gpu memory ran out", "the accelerator was full"], [[1.0, 0.0], [0.0, 1.0]], [0.0, 1.0],
                 vector_weight=weight)  # fmt: skip
    assert found[0].index == first
    assert cosine([1.0, 0.0], [1.0, 0.0, 0.0]) == 0.0  # another model's vector is not compared


# -- the tools in an agent run ------------------------------------------------------------------------------------


def test_a_run_saves_then_searches_and_the_note_carries_its_run_call_user_and_folder(
    store: Store, tmp_path: Path
) -> None:
    agent = agent_for(store, tmp_path, [save(NOTE, ["Dataset", "dataset "]), search("where is the training data"),
                                        "Noted."])  # fmt: skip
    result = agent.run_sync("Remember where the data is")
    saved, found = result.tool_calls
    assert (saved.status, found.status) == ("ok", "ok")
    assert "redacted" in saved.text and SECRET not in found.text
    assert "data/train.parquet" in found.text and "untrusted content" in found.text  # notes are data, not orders
    frame = store.query("SELECT * FROM memories")
    (row,) = frame.to_dict("records")
    assert SECRET not in row["text"] and row["text"].endswith("password=[REDACTED:assigned_secret]")
    assert (row["user_name"], row["project"], json.loads(row["tags"])) == ("ada", str(tmp_path.resolve()), ["dataset"])
    assert (row["run_id"], row["call_id"], row["conversation_id"]) == (result.run_id, saved.call.call_id,
                                                                      agent.conversation_id)  # fmt: skip
    audit = store.query("SELECT tool, params, cached FROM tool_calls ORDER BY ts")
    assert list(audit["tool"]) == ["memory_save", "memory_search"] and not audit["cached"].any()
    assert SECRET not in "".join(audit["params"])  # the call's own audit row is redacted too


def test_neither_tool_is_cached_a_search_after_a_save_sees_it() -> None:
    assert not MEMORY_SAVE.cacheable and not MEMORY_SEARCH.cacheable


def test_the_same_search_twice_around_a_save_finds_the_new_note(store: Store, tmp_path: Path) -> None:
    turns = [search("seaborn plots"), save("Plots use seaborn with the colorblind palette"), search("seaborn plots"),
             "Done."]  # fmt: skip
    result = agent_for(store, tmp_path, turns).run_sync("go")
    before, _, after = result.tool_calls
    assert "No saved notes" in before.text and "colorblind" in after.text and not after.cached


def test_notes_outlive_the_agent_and_the_project_scope_keeps_folders_apart(store: Store, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    agent_for(store, here, [save("The model checkpoint is ckpt/best.pt"), "ok"]).run_sync("save")
    # A new agent (a new kernel would be the same: the note is in the store) in the same folder finds it…
    assert "ckpt/best.pt" in agent_for(store, here, [search("checkpoint"), "ok"]).run_sync("?").tool_calls[0].text
    # …another folder does not, unless [memory] scope = "user".
    elsewhere = agent_for(store, there, [search("checkpoint"), "ok"]).run_sync("?").tool_calls[0].text
    assert "No saved notes in this project" in elsewhere
    wide = agent_for(store, there, [search("checkpoint"), "ok"], "[memory]\nenabled = true\nscope = 'user'\n")
    assert "ckpt/best.pt" in wide.run_sync("?").tool_calls[0].text


def test_tags_narrow_a_search(store: Store, tmp_path: Path) -> None:
    turns = [save("Use the staging bucket for uploads", ["infra"]), save("Staging results go in the wiki", ["docs"]),
             search("staging", tags=["INFRA"]), "ok"]  # fmt: skip
    found = agent_for(store, tmp_path, turns).run_sync("go").tool_calls[2]
    assert "bucket" in found.text and "wiki" not in found.text


def test_with_memory_off_a_call_names_the_setting(store: Store, tmp_path: Path) -> None:
    agent = agent_for(store, tmp_path, [save("x"), "ok"], toml="")
    assert "memory_save" not in [t.name for t in agent.chain.tool_definitions()]
    (call,) = agent.run_sync("go").tool_calls
    assert call.status != "ok" and "[memory] enabled = false" in call.text


def test_a_note_longer_than_max_chars_is_refused_with_the_setting(store: Store, tmp_path: Path) -> None:
    agent = agent_for(store, tmp_path, [save("x" * 150), "ok"], "[memory]\nenabled = true\nmax_chars = 100\n")
    (call,) = agent.run_sync("go").tool_calls
    assert call.category is ToolErrorCategory.INVALID_PARAMETERS and "[memory] max_chars" in call.text
    assert store.query("SELECT count(*) AS n FROM memories")["n"][0] == 0


# -- deleting -----------------------------------------------------------------------------------------------------


def test_a_deleted_note_leaves_the_file_and_stays_deleted_when_another_kernels_copy_arrives(tmp_path: Path) -> None:
    settings = Settings().model_copy(update={"home": tmp_path})
    writer, deleter = Store(settings, flusher=False), Store(settings, flusher=False)  # two kernels' spools
    try:
        note = MemoryRow(id=new_memory_id(), user_name="ada", project="/p", text="kept in the writer's spool")
        MemoryRows(writer).save(note)
        rows = MemoryRows(deleter)
        assert list(rows.live("ada", "/p")["id"]) == [note.id]  # read from the writer's spool
        assert rows.delete([note.id], user="ada", by="ada") == 1
        writer.flush()  # the note's row reaches the file after the deletion
        assert rows.live("ada", "/p").empty and rows.live("ada", None).empty
        other = MemoryRow(id=new_memory_id(), user_name="ada", project="/p", text="flushed before it was deleted")
        rows.save(other)
        deleter.flush()
        assert rows.delete([other.id], user="ada", by="ada") == 1
        texts = deleter.query("SELECT text FROM memories WHERE text IS NOT NULL")["text"]
        assert "flushed before it was deleted" not in list(texts)  # gone from the file, not only hidden
        assert rows.delete(["nosuchid"], user="ada", by="ada") == 0
    finally:
        writer.close()
        deleter.close()


# -- embeddings ---------------------------------------------------------------------------------------------------

EMBEDDED = """
[memory]
enabled = true
embedding_provider = "embed"
timeout_secs = 2
"""


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    with serve_embeddings() as running:
        yield running


def test_with_an_embedding_provider_the_redacted_note_is_embedded_and_the_search_blends(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    toml = provider_toml(server.url) + EMBEDDED
    agent = agent_for(store, tmp_path, [save(NOTE), "ok"], toml)
    agent.run_sync("save")
    assert server.inputs() and all(SECRET not in text for text in server.inputs())  # the server never saw it
    stored = store.query("SELECT embedding, embedding_model FROM memories").to_dict("records")[0]
    assert stored["embedding_model"] == "hashing-512" and len(json.loads(stored["embedding"])) == 512
    found = agent_for(store, tmp_path, [search("training data location"), "ok"], toml).run_sync("?").tool_calls[0]
    (match,) = found.output.raw["matches"]
    assert found.output.raw["vector"] and match["vector_score"] > 0 and match["text_score"] == 1.0


def test_when_the_embeddings_server_fails_a_save_keeps_the_note_and_a_search_ranks_by_words(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    server.status = 503
    toml = provider_toml(server.url) + EMBEDDED
    saved, found = agent_for(store, tmp_path, [save("Batch size 64 fits on one GPU"), search("batch size"), "ok"],
                             toml).run_sync("go").tool_calls  # fmt: skip
    assert saved.status == "ok" and "no embedding" in saved.text
    assert found.status == "ok" and "64" in found.text and "ranked by words only" in found.text


def test_a_note_saved_without_a_vector_is_embedded_when_searched(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    agent_for(store, tmp_path, [save("Batch size 64 fits on one GPU"), "ok"]).run_sync("no provider yet")
    found = agent_for(store, tmp_path, [search("batch size"), "ok"], provider_toml(server.url) + EMBEDDED).run_sync("?")
    (match,) = found.tool_calls[0].output.raw["matches"]
    assert match["vector_score"] > 0 and "Batch size 64 fits on one GPU" in server.inputs()


def test_an_embedding_provider_that_is_not_configured_is_a_config_error(store: Store, tmp_path: Path) -> None:
    with pytest.raises(zeph_nb.ConfigError, match=r"\[memory\] embedding_provider: no \[\[llm.providers\]\] entry"):
        agent_for(store, tmp_path, ["ok"], "[memory]\nenabled = true\nembedding_provider = 'nope'\n")


def test_the_executor_runs_without_the_gates_on_the_home_store(tmp_path: Path) -> None:
    from zeph_nb.tools.memory import MemoryExecutor

    settings = Settings.from_toml("[memory]\nenabled = true\n").model_copy(update={"home": tmp_path})
    executor = MemoryExecutor(settings, tmp_path)
    out = asyncio.run(executor.execute(ToolCall("memory_save", {"text": "plain note"})))
    assert out is not None and out.summary.startswith("Saved note")
    assert asyncio.run(executor.execute(ToolCall("bash", {}))) is None
    executor.rows.store.close()


def test_the_tools_pass_the_gates_a_rule_can_make_a_save_ask(store: Store, tmp_path: Path) -> None:
    rules = '[{pattern = "*password*", action = "ask"}, {pattern = "*", action = "allow"}]'
    toml = f"[memory]\nenabled = true\n[gates.permissions]\nmemory_save = {rules}\n"
    saved, plain = agent_for(store, tmp_path, [save("the password is in the vault"), save("plots use seaborn"), "ok"],
                             toml).run_sync("go").tool_calls  # fmt: skip
    assert saved.status != "ok" and saved.decision == "ask" and plain.status == "ok"  # DenyAll: nobody approves
    assert list(store.query("SELECT text FROM memories")["text"]) == ["plots use seaborn"]


def test_managed_settings_turn_memory_off_and_a_person_may_only_tighten_it(
    isolated_env: Path, managed_file: Any, tmp_path: Path
) -> None:
    managed_file("[memory]\nenabled = false\n")
    user = tmp_path / "zeph.toml"
    user.write_text("[memory]\nenabled = true\n")
    with pytest.warns(UserWarning, match=r"memory.enabled is set to false by .*zeph.toml's true is ignored"):
        assert Settings.load(user).memory.enabled is False
    managed_file('[memory]\nenabled = true\nscope = "user"\nmax_chars = 2000\n')
    user.write_text('[memory]\nenabled = false\nscope = "project"\nmax_chars = 500\n')
    tighter = Settings.load(user).memory
    assert (tighter.enabled, tighter.scope, tighter.max_chars) == (False, "project", 500)


def test_notes_saved_before_the_provider_are_embedded_a_batch_per_search(
    server: EmbeddingServer, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.tools.memory import executor

    monkeypatch.setattr(executor, "EMBED_PER_SEARCH", 2)
    rows = MemoryRows(store)
    for n in range(3):
        rows.save(MemoryRow(id=new_memory_id(), user_name="ada", project=str(tmp_path.resolve()), text=f"note {n}"))
    turns = [search("note"), search("note"), "ok"]
    first, second = agent_for(store, tmp_path, turns, provider_toml(server.url) + EMBEDDED).run_sync("?").tool_calls
    assert "1 older notes are not embedded yet" in first.text
    embedded = {m["text"]: m["vector_score"] is not None for m in first.output.raw["matches"]}
    assert embedded == {"note 2": True, "note 1": True, "note 0": False}  # the newest first
    assert all(m["vector_score"] is not None for m in second.output.raw["matches"]) and "older" not in second.text
    assert server.inputs().count("note 0") == 1  # embedded once, then kept for the agent's life
