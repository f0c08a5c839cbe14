"""Plant credentials where an agent will touch them, run real calls (allowed, denied, asked, failed, overflowed,
granted), then look for them in everything zeph-nb stored: every column of every table, and the spool files.

The store's one choke point (``Store.append``) redacts every row; this test is what says it holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zeph_nb.agent import Agent, ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.gates import ScriptedApprover
from zeph_nb.store import Store
from zeph_nb.store.schema import COLUMNS

# One of each kind the scanner knows (built here, so this file itself holds no real-looking key in one piece).
SECRETS = {
    "github": "ghp_" + "Z9y8X7w6" * 4 + "V5u4",
    "aws_key_id": "AKIA" + "QWERTYUIOPASDFGH",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq9a8b7c6d5e",
    "gitlab": "glpat-" + "aB3dE5fG7hJ9kL1mN3pQ",
    "slack": "xoxb-" + "123456789012-abcdefghijkl",
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "anthropic": "sk-ant-api03-" + "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1Kk0Jj9Ii8",
    "openai": "sk-proj-" + "T3BlbkFJ" + "a1b2c3d4e5f6g7h8i9j0k1l2",
    "google": "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "jwt": "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJtZSIsIm5hbWUiOiJ6ZXBoIn0." + "c2lnbmF0dXJlLXZhbHVlLTEyMzQ1",
    "url_password": "Hunter2Secret",
    "password": "Tr0ub4dor-and-3",
}
URL = f"postgres://admin:{SECRETS['url_password']}@db.internal:5432/app"


def _bash(command: str) -> list[dict[str, Any]]:
    return [{"tool": "bash", "params": {"command": command}}]


async def test_no_planted_credential_is_stored_anywhere(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    planted = "\n".join(f"{name}={value}" for name, value in SECRETS.items()) + f"\nDATABASE_URL={URL}\n"
    (work / "secrets.txt").write_text(planted)
    (work / "big.txt").write_text(("filler line\n" * 3000 + planted) * 3)
    store = Store(Settings().model_copy(update={"home": tmp_path / "zeph"}), flusher=False)
    toml = (
        '[tools.permissions]\nbash = [{pattern = "echo *", action = "allow"}, {pattern = "cat *", action = "allow"}, '
        '{pattern = "curl *", action = "deny"}, {pattern = "*", action = "ask"}]\n'
    )
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    turns = [
        _bash(f"echo {SECRETS['github']} {SECRETS['stripe']}"),  # allowed: in the params and the output
        _bash(f"curl -H 'Authorization: token {SECRETS['gitlab']}' https://x.example"),  # denied by a rule
        _bash(f"rm -rf build --token={SECRETS['slack']}"),  # asked, and denied
        _bash(f"cat secrets.txt; echo password={SECRETS['password']} >&2; exit 3"),  # failed
        _bash("cat big.txt"),  # overflowed: the store keeps the whole output
        [{"tool": "read", "params": {"path": "secrets.txt"}}],  # a file tool's output
        _bash(f"ls {SECRETS['anthropic']}"),  # asked, and "Always allow": a grant that would keep the key
        f"Done with {SECRETS['openai']}.",
    ]
    approver = ScriptedApprover(["deny", "approve", "always"])
    agent = Agent(settings, ScriptedProvider(turns), approver, work, store=store)  # type: ignore[arg-type]
    await agent.run(f"Use the key {SECRETS['google']} and the token {SECRETS['jwt']} with {URL}")
    store.flush()

    found: list[str] = []
    for table in COLUMNS:
        frame = store.query(f"SELECT * FROM {table}")  # noqa: S608 - table names from the schema
        text = frame.astype(str).to_csv(index=False).replace("\\", "")  # a glob-escaped copy counts too
        found += [f"{name} in {table}" for name, value in SECRETS.items() if value in text]
    for spool in store.home.rglob("*"):
        if spool.is_file() and spool.suffix in (".jsonl", ".json", ".log"):
            data = spool.read_text(errors="replace")
            found += [f"{name} in {spool.name}" for name, value in SECRETS.items() if value in data]
    assert not found, found
    rows = store.query("SELECT decision, status, exit_code FROM tool_calls")
    assert {"deny", "ask", "allow"} <= set(rows["decision"]) and 3 in set(rows["exit_code"])
    assert len(approver.requests) == 3
    assert store.query("SELECT count(*) AS n FROM permission_rules")["n"][0] == 0  # the key was never kept
    assert store.query("SELECT count(*) AS n FROM overflow")["n"][0] >= 1
    assert "[REDACTED:" in store.query("SELECT title FROM conversations")["title"][0]
