"""The secret scanner's one keyword pass (issue 45) finds exactly what the scan before it found: the old scan, a
``str.find`` pass per keyword and a search per kind over the lines holding one, is kept here as the reference and
both run over the labelled corpus and hostile texts (secrets at the start and end, at line-span and automaton-piece
borders, overlapping keywords, one very long line, non-ASCII and lone surrogates)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

import pytest

from bench.secrets_corpus import load
from zeph_nb.security import secrets
from zeph_nb.security.secret_patterns import (
    ANCHORED,
    KEYWORDS,
    LED,
    NAME_AT,
    NAMED_BY_KEYWORD,
    PATTERNS,
    WHOLE_TEXT,
)
from zeph_nb.security.secrets import SecretFinding, ascii_lower, keyword_spans, scan_secrets


def _offsets(lowered: str, keywords: tuple[str, ...]) -> list[int]:
    offsets: set[int] = set()
    for keyword in keywords:
        at = lowered.find(keyword)
        while at >= 0:
            offsets.add(at)
            at = lowered.find(keyword, at + 1)
    return sorted(offsets)


def old_scan(
    text: str, extra: Sequence[re.Pattern[str]] = (), known: Mapping[str, str] | None = None
) -> list[SecretFinding]:
    """scan_secrets as it was before the one-pass scan (commit 4ea1218), line for line."""
    found = secrets._Found()
    lowered = ascii_lower(text)
    named_at: list[int] | None = None
    for kind, pattern, group in PATTERNS:
        keywords = KEYWORDS[kind]
        if not any(keyword in lowered for keyword in keywords):
            continue
        if kind in NAMED_BY_KEYWORD:
            if named_at is None:
                named_at = [m.start() for m in NAME_AT.finditer(lowered)]
            matches = [m for at in named_at if (m := pattern.match(text, at))]
        elif kind in ANCHORED:
            matches = [m for at in _offsets(lowered, keywords) if (m := pattern.match(text, at))]
        elif kind in WHOLE_TEXT or len(text) < 4096:
            matches = list(pattern.finditer(text))
        else:
            matches = [m for start, end in keyword_spans(text, lowered, keywords)
                       for m in pattern.finditer(text, start, end)]  # fmt: skip
        for match in matches:
            which = (match.lastindex or 0) if group < 0 else group
            value = match.group(which)
            if not value or not secrets._is_secret(kind, match, which, value):
                continue
            found.add(SecretFinding(kind, *match.span(which)))
    for pattern in extra:
        for match in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            if match.group(group):
                found.add(SecretFinding("custom", *match.span(group)))
    secrets._add_repeats(text, found, known or {})
    return found.items


SAMPLES = [str(sample["text"]) for split in ("dev", "tune2") for sample in load(split)]
FILLER = "2024-05-01 12:00:00 INFO worker handled request in 12 ms\n"

# Keywords over keywords: one inside another (passkey, tokentoken), one kind's inside another's (sk-ant- in sk-),
# runs that match a keyword at every character, names at the very end of the text.
HOSTILE = [
    "passkey: Zq9xK7wP2mN4vB8c",
    "tokentoken=Zq9xK7wP2mN4vB8cL1",
    "sk-ant-sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0" * 3,
    "--token=--password=Hunter2Hunter2 --token abcdef.0123456789abcdef",
    "-" * 5000,
    "--" * 3000 + "password=Zq9!x7Kw2",
    "eyJ" * 40 + "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "aws aws aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzKEYabcdef12",
    "ghp_" + "a" * 36 + "ghp_" + "B1" * 20,
    "x" * 9000 + "AKIAQWERTYUIOPASDFGH" + "y" * 10,
    "İstanbul password=Zq9!x7Kw2Lp token: İİ ghp_" + "Zx8Q" * 10,
    "lone \ud800 surrogate password=Zq9!x7Kw2Lp \udcff sk-proj-" + "Ab1" * 10,
    'DB_PASSWORD="Zq9!x7Kw2Lp"',
    "machine api.example.com login me password Zq9x7Kw2Lp",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3\n" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\n" * 20,
]


def _same(text: str, **kwargs: object) -> None:
    assert scan_secrets(text, **kwargs) == old_scan(text, **kwargs)  # type: ignore[arg-type]


def test_each_corpus_sample_and_hostile_text_alone() -> None:
    for text in SAMPLES + HOSTILE:
        _same(text)


def test_the_corpus_as_one_long_log_and_as_one_line() -> None:
    # Over 4096 characters the kinds search the lines holding their keywords: here every line-span shape is met
    # (neighbouring lines merged, a secret on the first and the last line, no newline at the end).
    log = "\n".join(SAMPLES + HOSTILE)
    _same(log)
    _same(log.replace("\n", " "))
    _same(FILLER * 100 + log)
    _same(log + FILLER * 100)


def test_secrets_at_the_start_and_end_of_a_long_text() -> None:
    for text in SAMPLES[::3] + HOSTILE:
        _same(text + "\n" + FILLER * 80)
        _same(FILLER * 80 + text)
        _same(FILLER.strip() * 80 + text)  # one very long line ending in the secret


def test_random_mixtures_of_keywords_values_and_separators() -> None:
    rnd = random.Random(45)
    keywords = sorted({k for kind in KEYWORDS.values() for k in kind})
    values = ["Zq9!x7Kw2Lp", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4", "${VAR}", "changeme", "0123456789abcdef0123"]
    seps = ["\n", " ", "=", ": ", '"', "'", "--", ",", "\\n", "İ", "\t"]
    pieces = [*keywords, *(k.upper() for k in keywords), *values, *seps, *(s[:60] for s in SAMPLES[:40])]
    for round_ in range(300):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(5, 400 if round_ % 10 else 2000)))
        _same(text)


def test_extra_patterns_and_known_values() -> None:
    extra = (re.compile(r"corp-[0-9a-f]{12}"), re.compile(r"id=(\w{8})"))
    text = "\n".join(SAMPLES[:30]) + "\ncorp-0123456789ab id=abcdefgh Zq9!x7Kw2Lp"
    _same(text, extra=extra, known={"Zq9!x7Kw2Lp": "assigned_secret"})


def test_a_keyword_across_the_automaton_piece_seam() -> None:
    # The keyword pass reads a long text 4 MB at a time: a token that starts a few characters before a piece's end
    # is found once, whole, like anywhere else.
    chunk = secrets._CHUNK
    token = "ghp_" + "Zx8Q" * 10
    for before in (1, 2, 3, 4, 6):
        text = ("a " * (chunk // 2))[: chunk - before - 1] + " " + token + " end"
        assert text.index(token) == chunk - before
        found = scan_secrets(text)
        assert [(f.kind, f.start) for f in found] == [("github_token", chunk - before)]


@pytest.mark.parametrize("kind", sorted(LED))
def test_led_kinds_match_only_where_one_of_their_keywords_starts(kind: str) -> None:
    # What LED promises (secret_patterns.py): every match of the kind's patterns starts with one of its keywords.
    for pattern in (p for k, p, _ in PATTERNS if k == kind):
        assert not pattern.flags & re.IGNORECASE
        for text in SAMPLES + HOSTILE:
            for match in pattern.finditer(text):
                assert ascii_lower(text).startswith(KEYWORDS[kind], match.start()), (kind, match.group())


def test_a_row_is_redacted_as_column_by_column_but_scanned_only_where_a_keyword_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    row: dict[str, object] = {f"c{i}": text for i, text in enumerate(SAMPLES[:8])}
    row |= {"id": "overflow:123e4567-e89b-12d3-a456-426614174000", "status": "ok", "ts": "2024-05-01T12:00:00",
            "n": 3, "none": None, "tool": "bash", "caller": "main", "decision": "allow"}  # fmt: skip
    expected = {k: secrets._redact_text_or_json(v, ()) if isinstance(v, str) and old_scan(v) else v
                for k, v in row.items()}  # fmt: skip
    scanned: list[str] = []
    real = secrets.scan_secrets

    def counting(text: str, *args: object, **kwargs: object) -> list[SecretFinding]:
        scanned.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(secrets, "scan_secrets", counting)
    assert secrets.redact_row(row) == expected
    # The short columns with no keyword (ids, status, time, tool name) are not scanned one by one.
    assert not {row["id"], row["status"], row["ts"], row["tool"], row["caller"], row["decision"]} & set(scanned)
