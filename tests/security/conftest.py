"""Fixtures of the security tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def crowded_tmp() -> Iterator[Path]:
    """A folder for a test that fills it with thousands of what the sandbox protects (``.git`` folders, ``zeph.toml``
    files), under /var/tmp and removed afterwards: pytest keeps its last three ``tmp_path`` trees under /tmp, and a
    test that allows all of /tmp (tests/tools/test_panes.py), in this run or a later one, would find them there and
    be refused for too many mounts."""
    folder = Path(tempfile.mkdtemp(prefix="zeph-crowded-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
