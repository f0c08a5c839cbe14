"""An MCP server (official SDK, stdio) offering fifty tools shaped like the ones people connect: a code host, an
issue tracker, chat, a database, a browser, a calendar, mail, cloud storage, containers and a wiki. For the tool
filter's benchmark (``bench/tool_filter_bench.py``): what fifty real schemas cost in every request.

Each tool answers with one line naming itself and its arguments; the benchmark measures what is offered, not
what the tools do.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

# name: (description, {parameter: (type, description)})
TOOLS: dict[str, tuple[str, dict[str, tuple[type, str]]]] = {
    "repo_search_code": ("Search source code across the organisation's repositories for a string or regex.",
                         {"query": (str, "text or regex to find"), "repo": (str, "owner/name to limit the search")}),
    "repo_get_file": ("Read one file of a repository at a branch, tag or commit.",
                      {"repo": (str, "owner/name"), "path": (str, "file path"), "ref": (str, "branch, tag or sha")}),
    "repo_list_branches": ("List the branches of a repository with their last commit.", {"repo": (str, "owner/name")}),
    "repo_create_pull_request": ("Open a pull request from a branch into the default branch with a title and body.",
                                 {"repo": (str, "owner/name"), "head": (str, "source branch"),
                                  "title": (str, "title"), "body": (str, "description in Markdown")}),
    "repo_merge_pull_request": ("Merge an open pull request after its checks passed.",
                                {"repo": (str, "owner/name"), "number": (int, "pull request number")}),
    "repo_list_commits": ("List recent commits of a branch with author, date and message.",
                          {"repo": (str, "owner/name"), "branch": (str, "branch"), "limit": (int, "how many")}),
    "ci_list_runs": ("List the continuous integration workflow runs of a repository and their status.",
                     {"repo": (str, "owner/name"), "status": (str, "queued, in_progress, failure or success")}),
    "ci_get_run_logs": ("Download the log of a failed CI workflow run's job.",
                        {"repo": (str, "owner/name"), "run_id": (int, "workflow run id")}),
    "issue_search": ("Search the issue tracker for tickets matching words, a status or an assignee.",
                     {"query": (str, "words to match"), "status": (str, "open, in progress or done")}),
    "issue_get": ("Read one ticket of the issue tracker with its comments and history.", {"key": (str, "ticket key")}),
    "issue_create": ("Create a ticket in a project of the issue tracker with a summary, description and priority.",
                     {"project": (str, "project key"), "summary": (str, "one line"),
                      "description": (str, "details"), "priority": (str, "low, medium, high")}),
    "issue_transition": ("Move a ticket to another status of its workflow, such as in progress or done.",
                         {"key": (str, "ticket key"), "status": (str, "target status")}),
    "issue_comment": ("Add a comment to a ticket of the issue tracker.",
                      {"key": (str, "ticket"), "text": (str, "comment")}),
    "sprint_board": ("Show the current sprint board: tickets per column and who works on them.",
                     {"board": (str, "board name")}),
    "chat_send_message": ("Post a message to a chat channel or a person.",
                          {"channel": (str, "channel name or user"), "text": (str, "message")}),
    "chat_read_channel": ("Read the latest messages of a chat channel.",
                          {"channel": (str, "channel name"), "limit": (int, "how many messages")}),
    "chat_search": ("Search chat messages across channels for words.", {"query": (str, "words")}),
    "chat_list_channels": ("List the chat channels the bot can read.", {}),
    "db_query": ("Run a read-only SQL query against the analytics database and return rows.",
                 {"sql": (str, "a SELECT statement"), "limit": (int, "maximum rows")}),
    "db_list_tables": ("List the tables and views of the analytics database schema.", {"schema": (str, "schema")}),
    "db_describe_table": ("Describe a database table: columns, types, indexes and row count.",
                          {"table": (str, "schema.table")}),
    "db_explain": ("Show the query plan the database would use for a SQL statement.", {"sql": (str, "statement")}),
    "browser_open": ("Open a web page in a headless browser and return its text.", {"url": (str, "the page")}),
    "browser_screenshot": ("Take a screenshot of a web page in the headless browser.",
                           {"url": (str, "the page"), "full_page": (bool, "whole page or the viewport")}),
    "browser_click": ("Click an element of the open page, found by a CSS selector.", {"selector": (str, "CSS")}),
    "browser_fill_form": ("Type values into form fields of the open page and submit it.",
                          {"fields": (dict, "selector -> value"), "submit": (bool, "press submit")}),
    "calendar_list_events": ("List calendar events and meetings between two dates.",
                             {"start": (str, "ISO date"), "end": (str, "ISO date")}),
    "calendar_create_event": ("Schedule a meeting with attendees at a date and time.",
                              {"title": (str, "title"), "start": (str, "ISO datetime"),
                               "minutes": (int, "duration"), "attendees": (list, "emails")}),
    "calendar_find_free_time": ("Find free time slots common to several people's calendars.",
                                {"attendees": (list, "emails"), "minutes": (int, "length of the slot")}),
    "mail_search": ("Search the mailbox for emails by sender, subject or words.", {"query": (str, "search")}),
    "mail_read": ("Read one email with its attachments listed.", {"message_id": (str, "id")}),
    "mail_send": ("Send an email to recipients with a subject and body.",
                  {"to": (list, "addresses"), "subject": (str, "subject"), "body": (str, "text")}),
    "mail_draft_reply": ("Draft a reply to an email without sending it.",
                         {"message_id": (str, "id"), "body": (str, "text")}),
    "storage_list_objects": ("List the objects in a cloud storage bucket under a prefix.",
                             {"bucket": (str, "bucket"), "prefix": (str, "key prefix")}),
    "storage_download": ("Download an object from cloud storage into the working directory.",
                         {"bucket": (str, "bucket"), "key": (str, "object key")}),
    "storage_upload": ("Upload a local file to a cloud storage bucket.",
                       {"path": (str, "local file"), "bucket": (str, "bucket"), "key": (str, "object key")}),
    "storage_presign_url": ("Make a temporary download link for a cloud storage object.",
                            {"bucket": (str, "bucket"), "key": (str, "key"), "hours": (int, "validity")}),
    "container_list": ("List running containers with image, status and ports.", {"all": (bool, "stopped ones too")}),
    "container_logs": ("Read the logs of a container.", {"name": (str, "container"), "tail": (int, "last lines")}),
    "container_restart": ("Restart a container.", {"name": (str, "container")}),
    "container_exec": ("Run a command inside a running container.",
                       {"name": (str, "container"), "command": (str, "command line")}),
    "k8s_get_pods": ("List Kubernetes pods of a namespace with their status and restarts.",
                     {"namespace": (str, "namespace")}),
    "k8s_describe_deployment": ("Describe a Kubernetes deployment: replicas, image, events.",
                                {"namespace": (str, "namespace"), "name": (str, "deployment")}),
    "metrics_query": ("Query time series metrics such as CPU, memory or request latency over a time range.",
                      {"expression": (str, "PromQL"), "minutes": (int, "range")}),
    "alerts_list": ("List the monitoring alerts firing now and their severity.", {"severity": (str, "filter")}),
    "wiki_search": ("Search the team wiki pages for words.", {"query": (str, "words")}),
    "wiki_get_page": ("Read a wiki page as Markdown.", {"title": (str, "page title")}),
    "wiki_update_page": ("Replace the content of a wiki page.", {"title": (str, "title"), "markdown": (str, "text")}),
    "translate_text": ("Translate text from one language into another.",
                       {"text": (str, "text"), "target": (str, "language code")}),
    "pdf_extract_text": ("Extract the text and tables of a PDF file.", {"path": (str, "PDF file"),
                                                                        "pages": (str, "range, e.g. 1-3")}),
}  # fmt: skip

app = MCPServer("workplace")


def _make(name: str, params: dict[str, tuple[type, str]]) -> Any:
    def handler(**arguments: Any) -> str:
        return f"{name} called with {sorted(arguments)}"

    # The SDK reads a tool's schema from its function's signature: give the generated function a real one.
    handler.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[kind, Field(description=text)])
            for p, (kind, text) in params.items()
        ]
    )
    handler.__name__ = name
    return handler


for _name, (_description, _params) in TOOLS.items():
    app.add_tool(_make(_name, _params), name=_name, description=_description)

if __name__ == "__main__":
    app.run()
