"""The output pipeline end to end with a real store: filter, redact, overflow, read it back, audit it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolError, ToolErrorCategory
from zeph_nb.output.pipeline import OutputPipeline, ProcessedOutput
from zeph_nb.output.sanitize import without_escapes
from zeph_nb.store import AuditLog, AuditRecord, Store
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.overflow import OverflowExecutor
from zeph_nb.tools.shell.executor import BASH

GH = "ghp_" + "a1B2c3D4" * 4 + "e5F6"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(Settings().model_copy(update={"home": tmp_path}), flusher=False)


def settings(threshold: int = 50_000) -> Settings:
    return Settings.from_toml(f"[output.overflow]\nthreshold = {threshold}\n")


def pytest_run(store: Store, passed: int, extra: str = "") -> ProcessedOutput:
    """``pytest -v`` printing ``passed`` passing tests (and ``extra`` lines), through the pipeline."""
    raw = (
        "\n".join(f"tests/test_x.py::test_{i} PASSED" for i in range(passed))
        + f"\n{extra}{'=' * 30} {passed} passed in 1.00s {'=' * 30}\n"
    )
    call = ToolCall("bash", {"command": "pytest -v"})
    return OutputPipeline(settings(), store, "conv").process(call, ToolOutput("bash", raw, exit_code=0), BASH)


def _word(i: int) -> str:
    """``i`` in four letters: aaaa, baaa, …"""
    return "".join(chr(97 + (i // 26**k) % 26) for k in range(4))


async def test_shell_output_is_filtered_with_stats_and_a_way_back(store: Store) -> None:
    out = pytest_run(store, 200)
    summary, note = out.text.split("\n")
    assert summary.startswith("=") and summary.strip("= ") == "200 passed in 1.00s"  # the line as pytest wrote it
    assert out.stats == ["[shell] 201 lines -> 1 lines, 98.8% filtered (pytest, full)"]
    assert out.tokens_saved > 1000 and out.filtered is not None and out.filtered.rule == "pytest"
    # Never hidden silently: the model is told what went and reads the whole output back by its id.
    assert note.startswith("[200 of 201 lines removed by the pytest filter; the whole output is overflow:")
    raw_id = "overflow:" + note.split("overflow:")[1].split(":")[0]
    page = await OverflowExecutor(store, "conv").execute(ToolCall("read_overflow", {"id": raw_id}))
    assert page is not None and "tests/test_x.py::test_199 PASSED" in page.text_for_model


def test_file_contents_are_never_filtered(store: Store) -> None:
    text = "\n".join(f"tests/test_x.py::test_{i} PASSED" for i in range(50))
    call = ToolCall("read", {"path": "log.txt"})
    assert OutputPipeline(settings(), store, "c").process(call, ToolOutput("read", text)).text == text


def test_secrets_are_redacted_and_the_model_is_told(store: Store) -> None:
    call = ToolCall("bash", {"command": "env"})
    out = OutputPipeline(settings(), store, "c").process(
        call, ToolOutput("bash", f"GITHUB_TOKEN={GH}\nHOME=/root\n"), BASH
    )
    assert GH not in out.text
    assert "GITHUB_TOKEN=[REDACTED:github_token]" in out.text
    assert "1 secret-looking value(s) (github_token) were in this output; they are redacted" in out.text
    assert out.secret_kinds == ("github_token",)


def test_a_value_named_only_on_a_dropped_line_is_redacted_where_a_kept_line_repeats_it(store: Store) -> None:
    # The git-push rule drops the line naming the password; the put-back of dropped warnings brings back the line
    # that repeats it, where nothing names it. It is the same secret, found in the whole output.
    raw = ("To github.com:x/y.git\nremote: DB_PASSWORD=Zq8vLm2Rt7Xw\nremote: warning: login as Zq8vLm2Rt7Xw refused\n"
           " ! [rejected] main -> main\n")  # fmt: skip
    call = ToolCall("bash", {"command": "git push"})
    out = OutputPipeline(settings(), store, "c").process(call, ToolOutput("bash", raw, exit_code=1), BASH)
    assert "remote: warning: login as [REDACTED:assigned_secret] refused" in out.text
    assert "Zq8vLm2Rt7Xw" not in out.text
    assert "2 secret-looking value(s) (assigned_secret) were in this output, 1 of them in lines the filter left" in (
        out.text
    )


def test_a_secret_in_lines_a_filter_drops_still_warns(store: Store) -> None:
    # pytest's filter keeps only the summary line; the token was printed in a passing test's output.
    out = pytest_run(store, 50, extra=f"debug: token={GH}\n")
    assert GH not in out.text and out.secret_kinds == ("github_token",)
    assert "1 secret-looking value(s) (github_token) were in this output, 1 of them in lines the filter left out" in (
        out.text
    )


async def test_overflow_goes_to_the_store_and_reads_back(store: Store) -> None:
    # 20,000 lines that do not repeat one another (numbers alone would: the generic filter reads them as one kind)
    big = "".join(f"line {i:06d} {_word(i)}\n" for i in range(20_000))
    call = ToolCall("bash", {"command": "my-generator"})
    out = OutputPipeline(settings(threshold=10_000), store, "conv-1").process(call, ToolOutput("bash", big), BASH)
    assert out.overflow_id is not None and out.overflow_id in out.text
    assert out.text.startswith("line 000000 aaaa") and out.text.rstrip().endswith("line 019999 fpdb")
    assert len(out.text) < 10_000
    reader = OverflowExecutor(store, "conv-1")
    page = await reader.execute(ToolCall("read_overflow", {"id": out.overflow_id, "offset": 0, "limit": 100_000}))
    assert page is not None and page.text_for_model.startswith(big[:100_000])
    assert f"[characters 0-100000 of {len(big)}; use offset to read more]" in page.summary
    end = len(big)  # 340,000
    rest = await reader.execute(ToolCall("read_overflow", {"id": out.overflow_id, "offset": end - 40_000}))
    assert rest is not None and rest.summary == big[end - 40_000 :] + f"\n[characters {end - 40_000}-{end} of {end}]"
    store.flush()  # and from the database as well as the spool
    again = await reader.execute(ToolCall("read_overflow", {"id": out.overflow_id, "limit": 11}))
    assert again is not None and again.summary.startswith("line 000000")


@pytest.mark.parametrize(
    ("overflow_id", "category"),
    [
        ("overflow:not-a-uuid", ToolErrorCategory.INVALID_PARAMETERS),
        ("../../etc/passwd", ToolErrorCategory.INVALID_PARAMETERS),
        ("overflow:123e4567-e89b-12d3-a456-426614174000' OR '1'='1", ToolErrorCategory.INVALID_PARAMETERS),
        ("overflow:123e4567-e89b-12d3-a456-426614174000", ToolErrorCategory.PERMANENT_FAILURE),
    ],
)
async def test_read_overflow_refusals(store: Store, overflow_id: str, category: ToolErrorCategory) -> None:
    with pytest.raises(ToolError) as info:
        await OverflowExecutor(store, "c").execute(ToolCall("read_overflow", {"id": overflow_id}))
    assert info.value.category is category


async def test_another_conversations_overflow_is_not_found(store: Store) -> None:
    oid = store.put_overflow("conv-a", "private output")
    with pytest.raises(ToolError) as info:
        await OverflowExecutor(store, "conv-b").execute(ToolCall("read_overflow", {"id": oid}))
    assert info.value.category is ToolErrorCategory.PERMANENT_FAILURE
    assert "no stored output" in info.value.message


def test_overflow_without_a_store_still_cuts() -> None:
    out = OutputPipeline(settings(threshold=1_000), None, "c").process(
        ToolCall("read", {"path": "x"}), ToolOutput("read", "x" * 5_000)
    )
    assert out.overflow_id is None and "characters not shown" in out.text and len(out.text) < 1_000


def test_audit_rows_hold_only_redacted_params(store: Store) -> None:
    log = AuditLog(store)
    log.record(AuditRecord(tool="bash", params={"command": f"curl -H 'Authorization: token {GH}' x"}, call_id="c1",
                           decision="ask", approved_by="alice", exit_code=0, duration_ms=12.5, tokens_saved=40))  # fmt: skip
    frame = store.query("SELECT * FROM tool_calls")
    row = frame.iloc[0]
    assert GH not in row["params"] and "[REDACTED:github_token]" in json.loads(row["params"])["command"]
    assert (row["tool"], row["decision"], row["approved_by"], row["exit_code"]) == ("bash", "ask", "alice", 0)
    assert row["duration_ms"] == 12.5 and row["tokens_saved"] == 40


def test_own_credential_formats_are_redacted_for_the_model_and_in_the_store(tmp_path: Path) -> None:
    toml = '[output.filters.security]\nextra_patterns = ["\\\\bACME-([0-9a-f]{24})\\\\b"]\n'
    config = Settings.from_toml(toml).model_copy(update={"home": tmp_path})
    own = "ACME-" + "0123456789abcdef01234567"
    call = ToolCall("bash", {"command": f"deploy --key {own[5:]}"})
    out = OutputPipeline(config, None, "c").process(call, ToolOutput("bash", f"using {own}\n"), BASH)
    assert own[5:] not in out.text and "ACME-[REDACTED:custom]" in out.text
    store = Store(config, flusher=False)
    store.append("conversations", {"id": "c1", "title": f"deploy with {own}"})
    spooled = "".join(p.read_text() for p in store.spool_dir.rglob("*") if p.is_file())
    store.close()
    assert own[5:] not in spooled


def test_turning_the_scanner_off_shows_the_model_but_never_stores(tmp_path: Path) -> None:
    config = Settings.from_toml("[output.filters.security]\nenabled = false\n").model_copy(update={"home": tmp_path})
    call = ToolCall("bash", {"command": "env"})
    assert GH in OutputPipeline(config, None, "c").process(call, ToolOutput("bash", f"T={GH}\n"), BASH).text
    store = Store(config, flusher=False)
    store.append("conversations", {"id": "c1", "title": f"T={GH}"})
    spooled = "".join(p.read_text() for p in store.spool_dir.rglob("*") if p.is_file())
    store.close()
    assert GH not in spooled


@pytest.mark.parametrize(
    ("pattern", "says"), [("([a-z", "not a valid regular expression"), ("x*", "matches the empty string")]
)
def test_a_bad_extra_pattern_is_a_clear_settings_error(pattern: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        Settings.from_toml(f"[output.filters.security]\nextra_patterns = [{json.dumps(pattern)}]\n")


async def test_a_filtered_calls_overflow_id_is_where_its_whole_output_is(store: Store) -> None:
    # The audit row and the card had no overflow id for a filtered call, though the removal note named one.
    out = pytest_run(store, 200)
    assert out.overflow_id is not None and f"the whole output is {out.overflow_id}:" in out.text
    whole = store.get_overflow(out.overflow_id, "conv")
    assert whole is not None and "tests/test_x.py::test_199 PASSED" in whole


async def test_reading_past_the_end_of_an_overflow_says_where_it_ends(store: Store) -> None:
    # It answered `[characters 10000000-205 of 205]` as if that were a page.
    oid = store.put_overflow("conv-a", "x" * 205)
    with pytest.raises(ToolError) as info:
        await OverflowExecutor(store, "conv-a").execute(ToolCall("read_overflow", {"id": oid, "offset": 10_000_000}))
    assert info.value.category is ToolErrorCategory.INVALID_PARAMETERS
    assert "offset 10000000 is past the end" in info.value.message and "205 characters" in info.value.message
    page = await OverflowExecutor(store, "conv-a").execute(ToolCall("read_overflow", {"id": oid, "offset": 204}))
    assert page is not None and page.summary == "x\n[characters 204-205 of 205]"


def test_bytes_that_are_not_text_reach_the_model_as_what_they_are(store: Store) -> None:
    # `cat bytes.bin` gave the model NULs and 516 U+FFFD, with nothing saying the output was binary.
    data = bytes(range(256)) * 4 + b"PK\x03\x04"
    call = ToolCall("bash", {"command": "cat bytes.bin"})
    raw = data.decode("utf-8", errors="replace")
    out = OutputPipeline(settings(), store, "conv").process(call, ToolOutput("bash", raw, exit_code=0), BASH)
    assert "[binary output: " in out.text and "\x00" not in out.text and "\ufffd" not in out.text
    assert out.filtered is not None and out.filtered.rule == "binary" and out.overflow_id is not None
    assert store.get_overflow(out.overflow_id, "conv") == without_escapes(raw)  # the bytes as decoded, to read
    # Text with a stray NUL or a few undecodable bytes is text.
    text = "résumé naïve\n" * 20 + "\x00\ufffd"
    assert (
        OutputPipeline(settings(), store, "conv")
        .process(call, ToolOutput("bash", text), BASH)
        .text.startswith("résumé")
    )


def test_a_binary_blob_does_not_take_the_text_around_it(store: Store) -> None:
    # One captured stdout of control bytes made the whole pytest output "[binary output …]": the failure, a
    # security line and the exit code went with it.
    blob = bytes([*range(9), *range(14, 27)]).decode() * 10  # NULs and controls, none a line break or an escape
    raw = "\n".join(["collected 3 items", "tests/t.py::test_a FAILED", blob, "E   auth bypass: Permission denied",
                     "=== 1 failed, 2 passed in 0.10s ===", "[exit code: 1]"])  # fmt: skip
    out = OutputPipeline(settings(), store, "conv").process(ToolCall("bash", {"command": "python run.py"}),
                                                             ToolOutput("bash", raw, exit_code=1), BASH)  # fmt: skip
    for line in ("tests/t.py::test_a FAILED", "E   auth bypass: Permission denied", "1 failed", "[exit code: 1]"):
        assert line in out.text
    assert "[binary output: 1 line, 220 characters" in out.text and "\x01" not in out.text


def test_the_escapes_stripped_before_the_filter_count_as_saved(store: Store) -> None:
    # The pipeline strips a command's terminal escapes before the filter reads it; the audit's tokens_saved fell
    # from 172 to 29 for a coloured pytest run, as if the model would have read the output without them.
    green = "".join(f"\x1b[32mtests/t.py::test_{i} PASSED\x1b[0m\n" for i in range(40)) + "= 40 passed in 0.1s =\n"
    call = ToolCall("bash", {"command": "pytest -v"})
    out = OutputPipeline(settings(), store, "conv").process(call, ToolOutput("bash", green, exit_code=0), BASH)
    assert out.filtered is not None and out.raw_chars == len(green)
    assert out.tokens_saved == round((len(green) - out.filtered.filtered_chars) / 2.8)
    assert out.tokens_saved > out.filtered.tokens_saved  # the filter alone saw the text without the escapes
