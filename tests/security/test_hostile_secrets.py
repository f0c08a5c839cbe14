"""Secrets in outputs crafted to slip past the scan on their way to the model or the overflow copy: each test
failed before its fix (a search's place before a password, a colour code inside a token, a short value listed in a
fold's note)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.output.test_hostile_outputs import overflow_of, run
from zeph_nb.config import Settings
from zeph_nb.security.secrets import scan_secrets
from zeph_nb.store import Store

TOKEN = "ghp_" + "Zx8Qm2Lr7Tn4Vb9Kc1Hd6Jf3Wg5Ys0Pa1Ue2"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(Settings().model_copy(update={"home": tmp_path}), flusher=False)


def test_a_password_after_a_search_place_is_a_password(store: Store) -> None:
    for line in (".env:DB_PASSWORD=Tr0ub4dor-x9Qv7mKz", ".env:3:DB_PASSWORD=Tr0ub4dor-x9Qv7mKz",
                 "src/settings.py:41:7:SECRET_KEY = 'k8Jd02nQv7ZxP4mL9wRt'",
                 "C:\\src\\app.py:3:API_TOKEN=Zq9xK7pw3LmN8bV2", "  .env:3:API_TOKEN=Zq9xK7pw3LmN8bV2",
                 "INFO:root:api_token=Zq9xK7pw3LmN8bV2"):  # fmt: skip
        assert [f.kind for f in scan_secrets(line)] == ["assigned_secret"], line
    # An ARN's colons are not a place: what follows `secret:` there is a name, not a value.
    assert scan_secrets("arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-Ab12Cd") == []
    raw = "".join(f"src/m{i}.py:{i}:# read the DB password from the environment\n" for i in range(10))
    out = run(store, "grep -rn PASSWORD .", raw + ".env:3:DB_PASSWORD=Tr0ub4dor-x9Qv7mKz\n")
    assert "Tr0ub4dor" not in out.text and ".env:3:DB_PASSWORD=[REDACTED:assigned_secret]" in out.text


def test_a_colour_code_inside_a_token_does_not_keep_it_in_overflow(store: Store) -> None:
    split = TOKEN[:12] + "\x1b[0m" + TOKEN[12:]
    raw = "".join(f"INFO worker {i} heartbeat ok\n" for i in range(60)) + f"using token {split}\ndone\n"
    out = run(store, "python app.py", raw)
    assert TOKEN not in out.text and "secret-looking" in out.text
    stored = overflow_of(store, out.text)
    assert TOKEN not in stored and TOKEN[12:] not in stored and "using token [REDACTED:github_token]" in stored


def test_a_short_secret_in_a_fold_note_is_redacted(store: Store) -> None:
    # The note lists a key's values after the key's first: `"password": "Zq9!x" (20), "K7#pw" (10)`. The second
    # follows no name, and five characters were too short to be looked for again.
    items = [{"id": i, "user": f"u{i}", "password": "Zq9!x" if i % 3 else "K7#pw"} for i in range(40)]
    out = run(store, "curl -s https://api.example/users", json.dumps(items, indent=2) + "\n")
    assert out.filtered is not None and out.filtered.rule == "json-lists"
    assert "K7#pw" not in out.text and "Zq9!x" not in out.text
    assert '[30 items not shown: "password": 2 different values]' in out.text  # a secret's values are not listed
    # Nor in a table's note; and a short value found elsewhere is still redacted where it stands whole in quotes.
    rows = [f"{i:<6}user{i:<5} {'K7#pw' if i % 9 == 0 else 'p@ss1'}   active" for i in range(1, 120)]
    header = "id    name      secret  state\n"
    table = run(store, "sqlite3 -column app.db 'select * from users'", header + "\n".join(rows))
    assert "[109 rows not shown: secret 2 different values]" in table.text
    assert scan_secrets('see "K7#pw" here', known={"K7#pw": "assigned_secret"})[0].kind == "assigned_secret"
    # A short value without a letter is a count or a version: `"1234"` elsewhere is not redacted for it.
    assert scan_secrets('"retries": "1234"', known={"1234": "assigned_secret"}) == []
