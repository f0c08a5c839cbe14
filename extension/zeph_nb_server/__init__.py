"""zeph-nb's jupyter-server extension: the dashboard at ``<base_url>/zeph/`` and the REST API under
``<base_url>/zeph/api/`` (the audit log, overflow, and the approval inbox headless runs wait on).

Enabled on install (``jupyter_server_config.d/zeph_nb_server.json``); ``jupyter server extension list`` shows it.
Every endpoint is behind Jupyter's own authentication. Reads go through ``zeph_nb.audit`` in a worker thread, so
the server's event loop never waits on the database, and readers never block the kernels that write.
"""

from __future__ import annotations

from typing import Any

__all__ = ["_jupyter_server_extension_points", "_load_jupyter_server_extension"]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "zeph_nb_server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    from zeph_nb_server.handlers import handlers

    base_url = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", handlers(base_url))
    serverapp.log.info("zeph-nb: dashboard and approval inbox at %szeph/, API at %szeph/api/", base_url, base_url)
