"""Tool schema filtering: what ``[agent.tool_filter]`` saves in every request with fifty MCP tools registered.

Real parts: the fifty-tool MCP server (``bench/mcp_many_tools_server.py``, official SDK, stdio) connected through
``[[mcp.servers]]``, zeph's built-in tools beside it, the agent loop with the scripted model recording each
request, and the OpenAI-compatible embeddings server on loopback (``bench/embedding_server.py``). Baseline in the
same run: the same requests with the filter off. Tokens are real BPE (o200k_base) of what a request carries for
its tools (names, descriptions and schemas as JSON).

The embeddings here are lexical (feature hashing: no neural model can be downloaded), so "needed tool offered"
is a floor: a real embedding model also ranks "Why did the build break?" near ``ci_get_run_logs``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

import zeph_nb
from bench.corpus import bpe_tokens
from bench.embedding_server import serve_embeddings
from zeph_nb.config import Settings

SERVER = Path(__file__).with_name("mcp_many_tools_server.py")

# A request a person might type, and the tool it needs.
PROMPTS = [
    ("Why did the last CI run of acme/api fail? Show me the job logs.", "ci_get_run_logs"),
    ("Open a pull request from branch fix-login into acme/web titled 'Fix login'.", "repo_create_pull_request"),
    ("Search the code of acme/api for the function parse_invoice.", "repo_search_code"),
    ("What are the latest commits on the main branch of acme/web?", "repo_list_commits"),
    ("Create a high priority ticket in project OPS about the disk filling up.", "issue_create"),
    ("Move ticket OPS-142 to done.", "issue_transition"),
    ("Post a message in the #release chat channel that 2.3 is out.", "chat_send_message"),
    ("What did people say in the #incidents channel today? Read the latest messages.", "chat_read_channel"),
    ("How many orders were placed last week? Query the analytics database.", "db_query"),
    ("Describe the columns of the table sales.orders.", "db_describe_table"),
    ("Take a screenshot of https://example.com.", "browser_screenshot"),
    ("Which meetings are on my calendar next Monday?", "calendar_list_events"),
    ("Find a free time slot for Ana and Ben for a 30 minute meeting.", "calendar_find_free_time"),
    ("Send an email to ops@example.com with the subject 'Backup done'.", "mail_send"),
    ("List the objects in the reports bucket under 2026/.", "storage_list_objects"),
    ("Show the logs of the worker container, last 200 lines.", "container_logs"),
    ("Which Kubernetes pods in the payments namespace are restarting?", "k8s_get_pods"),
    ("Which monitoring alerts are firing right now?", "alerts_list"),
    ("Search the wiki for the on-call handbook page.", "wiki_search"),
    ("Extract the text of the tables in invoice.pdf, pages 1-2.", "pdf_extract_text"),
    # Said in other words than the tool's description: what lexical embeddings miss and a neural model would not.
    ("Why did the build break on acme/api?", "ci_get_run_logs"),
    ("Tell the team in #general that lunch is at noon.", "chat_send_message"),
    ("Is anyone free for an hour with Ana tomorrow afternoon?", "calendar_find_free_time"),
    ("How much memory does the api service use this hour?", "metrics_query"),
    ("Put report.csv into the archive bucket.", "storage_upload"),
]

SETTINGS = """
[[mcp.servers]]
name = "work"
command = "{python}"
args = ["{server}"]
trusted = true
sandbox = false  # the benchmark measures tokens, not containment (the MCP tests cover the sandbox)

[[llm.providers]]
name = "embed"
kind = "openai"
base_url = "{url}"
embedding_model = "hashing-512"
"""


def tool_tokens(request: object) -> int:
    return bpe_tokens(json.dumps(request.tool_schemas))  # type: ignore[attr-defined]


PARAPHRASED = 5  # the last ones


def measure(url: str, home: Path, top_k: int | None) -> tuple[int, int, int, int]:
    """Tool tokens summed over the prompts' requests, tools offered in all, prompts whose tool was offered, and of
    them the paraphrased ones."""
    toml = SETTINGS.format(python=sys.executable, server=SERVER, url=url)
    if top_k is not None:
        toml += f'\n[agent.tool_filter]\nenabled = true\nprovider = "embed"\ntop_k = {top_k}\n'
    settings = Settings.from_toml(toml).model_copy(update={"home": home})
    model = zeph_nb.ScriptedProvider(["ok"] * len(PROMPTS))

    async def ask_each() -> None:  # one event loop: the MCP server starts once
        with tempfile.TemporaryDirectory() as workdir:
            agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), workdir)
            for prompt, _ in PROMPTS:
                agent.clear()  # each prompt a conversation of its own: no tool stays for having been used
                await agent.run(prompt)

    asyncio.run(ask_each())
    requests = model.requests
    found = [
        f"mcp_work_{needed}" in {t.name for t in r.tools} for r, (_, needed) in zip(requests, PROMPTS, strict=True)
    ]
    return sum(map(tool_tokens, requests)), sum(len(r.tools) for r in requests), sum(found), sum(found[-PARAPHRASED:])


def main() -> None:
    with serve_embeddings() as server, tempfile.TemporaryDirectory() as home:
        base_tokens, base_tools, base_hits, _ = measure(server.url, Path(home), None)
        total = base_tools // len(PROMPTS)
        n = len(PROMPTS)
        print(f"tool filter: {total} tools offered without it (50 MCP + built-in), {n} prompts; "
              f"{base_tokens / n:,.0f} tool tokens per request (BPE)")  # fmt: skip
        for top_k in (5, 10, 20):
            tokens, tools, hits, paraphrased = measure(server.url, Path(home), top_k)
            print(f"  top_k={top_k:<3} {tools / n:5.1f} tools, {tokens / n:7,.0f} tool tokens per request: "
                  f"{tokens / base_tokens:.2f}x the unfiltered request ({1 - tokens / base_tokens:.0%} saved); "
                  f"needed tool offered {hits}/{n}, of them {paraphrased}/{PARAPHRASED} said in other words "
                  f"(unfiltered {base_hits}/{n})")  # fmt: skip


if __name__ == "__main__":
    main()
