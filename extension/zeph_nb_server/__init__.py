"""zeph-nb's jupyter-server extension: the dashboard at ``<base_url>/zeph/`` and the REST API under
``<base_url>/zeph/api/`` (the audit log, overflow, and the approval inbox headless runs wait on).

Enabled on install (``jupyter_server_config.d/zeph_nb_server.json``); ``jupyter server extension list`` shows it.
``app.py`` is the extension (``ZephExtension``, configured with traitlets), ``handlers.py`` the endpoints,
``templates/`` and ``static/`` the page. Every endpoint is behind Jupyter's own authentication. Reads go through
``zeph_nb.audit`` in a worker thread, so the server's event loop never waits on the database, and readers never
block the kernels that write.
"""

from __future__ import annotations

from typing import Any

__all__ = ["_jupyter_server_extension_points"]


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    from zeph_nb_server.app import ZephExtension

    return [{"module": "zeph_nb_server", "app": ZephExtension}]
