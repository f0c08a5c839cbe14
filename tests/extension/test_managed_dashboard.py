"""The dashboard shows the organisation's managed settings: api/dashboard says which keys the managed file sets
(and what it set aside), and the page has the marker that shows them."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest


def fetch(url: str, token: str) -> bytes:
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})  # noqa: S310 - loopback
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
        body: bytes = response.read()
        return body


@pytest.mark.skipif(os.geteuid() != 0, reason="a managed file out of the test user's reach must be root's")
def test_the_dashboard_says_which_settings_are_managed(tmp_path: Path, running_jupyter: Any) -> None:
    folder = tmp_path / "etc-zeph-nb"
    folder.mkdir()
    os.chmod(folder, 0o755)  # noqa: S103 - as an administrator leaves /etc/zeph-nb
    managed = folder / "managed.toml"
    managed.write_text('[tools.shell]\nsandbox = "bwrap"\n[tools]\nnetwork_hosts = ["pypi.org"]\n')
    os.chmod(managed, 0o644)
    (tmp_path / "zeph.toml").write_text('[tools.shell]\nsandbox = "off"\n')
    home = tmp_path / "zeph-home"
    args = [f"--ServerApp.root_dir={tmp_path}"]
    env = {"ZEPH_MANAGED_SETTINGS": str(managed)}
    with running_jupyter("server", base=tmp_path, zeph_home=home, cwd=tmp_path, args=args, env=env) as jp:
        data = json.loads(fetch(f"{jp.url}/zeph/api/dashboard", jp.token))
        page = fetch(f"{jp.url}/zeph/", jp.token).decode()
    assert data["managed"]["path"] == str(managed)
    assert data["managed"]["values"] == {"tools.shell.sandbox": "bwrap", "tools.network_hosts": ["pypi.org"]}
    assert data["managed"]["refused"] == [
        f'zeph-nb: tools.shell.sandbox is set to "bwrap" by {managed} (managed); {tmp_path / "zeph.toml"}\'s "off" '
        "is ignored"
    ]
    assert 'id="managed"' in page


def test_without_a_managed_file_the_dashboard_says_none(tmp_path: Path) -> None:
    from zeph_nb_server.handlers import _managed

    from zeph_nb.config import Settings

    assert _managed(Settings()) is None
