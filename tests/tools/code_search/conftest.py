"""Fixtures of the search_code tests: the loopback embeddings server and a small project of two languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.embedding_server import EmbeddingServer, serve_embeddings


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    with serve_embeddings() as running:
        yield running


@pytest.fixture
def project(tmp_path: Path) -> Path:
    work = tmp_path / "proj"
    (work / "billing").mkdir(parents=True)
    (work / "billing" / "invoice.py").write_text(
        "def render_invoice_pdf(invoice):\n    '''Render the invoice as a PDF document for the customer.'''\n"
        "    return pdf(invoice)\n\n\n"
        "def parse_csv_rows(text):\n    '''Split comma separated rows of a CSV upload.'''\n    return text.split(',')\n"
    )
    (work / "web").mkdir()
    (work / "web" / "login.ts").write_text(
        "// Check the password of a customer at login.\nexport function verifyPassword(user: string) { return true; }\n"
    )
    return work
