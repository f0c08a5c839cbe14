"""Which Jupyter server started this kernel, so the transcript can link to the zeph dashboard on it.

A link in cell output is followed by the person's browser, on the page's own origin: only the server's base URL
path (``/``, ``/user/ann/`` under JupyterHub) is needed, never its host, which the kernel cannot know (proxies,
port forwarding). ``None`` when no local server started this kernel (a script, nbval, a remote kernel gateway);
then the transcript names the place in words instead of guessing a link.
"""

from __future__ import annotations

import os
import re

__all__ = ["DASHBOARD", "HUB_SERVICE", "hub_base_url", "jupyter_base_url"]

DASHBOARD = "zeph/"  # the server extension's page, under the base URL (extension/zeph_nb_server)
HUB_SERVICE = "services/zeph_nb_hub/"  # the team's review page, under the hub's base URL (zeph_nb/hub)
# A base URL is a path on the page's own server: "/" or "/user/ann/". Anything else (a scheme like javascript:,
# "//host" leaving the origin, quotes) is no base URL, whoever wrote the runtime file or the environment.
_SAFE_BASE = re.compile(r"/(?!/)[A-Za-z0-9._~%@!$&()*+,;=:/-]*")


def _safe(base: str) -> str | None:
    base = base if base.endswith("/") else base + "/"
    return base if _SAFE_BASE.fullmatch(base) else None


def jupyter_base_url() -> str | None:
    """The base URL path of the Jupyter server whose kernel this is, ending in "/", or None."""
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX")  # a JupyterHub single-user server says it outright
    if prefix:
        return _safe(prefix)
    try:
        from jupyter_server.serverapp import list_running_servers
    except ImportError:  # a kernel in an environment without jupyter_server: no local server to link to
        return None
    parent = os.getppid()  # jupyter_client starts kernels as the server's own children
    try:
        for info in list_running_servers():
            if info.get("pid") == parent:
                return _safe(str(info.get("base_url") or "/"))
    except (OSError, ValueError):  # an unreadable or half-written runtime file: no link, not a failed run
        return None
    return None


def hub_base_url() -> str | None:
    """The JupyterHub's base URL path ("/" or "/jupyter/") when this kernel's server was spawned by one, else None."""
    base = os.environ.get("JUPYTERHUB_BASE_URL")
    return _safe(base) if base else None
