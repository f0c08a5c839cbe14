"""Finding the Jupyter server that started this kernel, from the runtime files jupyter_server writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from zeph_nb.notebook.server import jupyter_base_url


def runtime_file(folder: Path, pid: int, base_url: str) -> None:
    info = {"pid": pid, "base_url": base_url, "url": f"http://127.0.0.1:8888{base_url}", "port": 8888,
            "root_dir": str(folder), "secure": False, "token": "t", "version": "2", "sock": ""}  # fmt: skip
    (folder / f"jpserver-{pid}.json").write_text(json.dumps(info))


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX", raising=False)
    return tmp_path


def test_the_server_that_started_the_kernel_gives_the_base_url(runtime: Path) -> None:
    runtime_file(runtime, 1, "/elsewhere/")  # another server on the machine (pid 1 is alive: init)
    assert jupyter_base_url() is None
    runtime_file(runtime, os.getppid(), "/user/ann/")
    assert jupyter_base_url() == "/user/ann/"


def test_jupyterhub_says_its_prefix_outright(runtime: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/bob")
    assert jupyter_base_url() == "/user/bob/"


def test_no_server_means_no_link(runtime: Path) -> None:
    (runtime / f"jpserver-{os.getppid()}.json").write_text("{half written")
    assert jupyter_base_url() is None


def test_a_base_url_that_is_not_a_path_here_gives_no_link(runtime: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for hostile in ("javascript:alert(1)//", "//evil.example/", '/x"onmouseover="alert(1)', "http://evil.example/"):
        runtime_file(runtime, os.getppid(), hostile)
        assert jupyter_base_url() is None, hostile
        monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", hostile)
        assert jupyter_base_url() is None, hostile
        monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX")
