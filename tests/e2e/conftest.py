from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from e2e_support import Lab


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, running_jupyter: Any) -> Iterator[Lab]:
    base = tmp_path_factory.mktemp("lab")
    root, home = base / "notebooks", base / "zeph-home"
    root.mkdir()
    (root / "zeph.toml").write_text('[gates.permissions]\nbash = [{pattern = "*", action = "ask"}]\n')
    # No "get notified about Jupyter news?" toast over the page (it would also try the network).
    settings = base / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    # Start the notebook's kernel without asking which one (the dialog would take the first keystrokes).
    tracker = base / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"autoStartDefaultKernel": true}')
    args = [f"--notebook-dir={root}", "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]  # fmt: skip
    with running_jupyter("lab", base=base, zeph_home=home, cwd=root, args=args) as server:
        yield Lab(server.url, server.token, root, home)
