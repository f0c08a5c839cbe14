"""ZephExtension: the jupyter-server extension as an ExtensionApp, configured by traitlets and set up once.

The zeph settings (which store, which user names approvals, whether the sandbox works) are read when the server
starts, not on every request: from ``config_file`` if set, else the way a kernel finds them (``zeph.toml`` in the
server's working directory, else ``config.toml`` in the zeph home), with ``zeph_home`` and ``store_path`` on top.

    jupyter lab --ZephExtension.zeph_home=/srv/zeph --ZephExtension.store_path=/srv/zeph/audit.duckdb
"""

from __future__ import annotations

from pathlib import Path

from jupyter_server.extension.application import ExtensionApp, ExtensionAppJinjaMixin
from traitlets import List, Unicode

from zeph_nb_server.handlers import routes

__all__ = ["ZephExtension"]

HERE = Path(__file__).parent


class ZephExtension(ExtensionAppJinjaMixin, ExtensionApp):
    """The dashboard at ``<base_url>/zeph/`` and the REST API under ``<base_url>/zeph/api/``."""

    name = "zeph_nb_server"
    extension_url = "/zeph/"
    load_other_extensions = True
    static_paths = List(Unicode(), [str(HERE / "static")])  # served at <base_url>/static/zeph_nb_server/
    template_paths = List(Unicode(), [str(HERE / "templates")])

    zeph_home = Unicode(
        "", config=True, help="The zeph home whose audit log and inbox to serve (default: $ZEPH_HOME, else ~/.zeph)."
    )
    store_path = Unicode("", config=True, help="The audit database file (default: [store] path, else in zeph_home).")
    config_file = Unicode(
        "", config=True, help="A zeph config file (default: zeph.toml here, else config.toml in the zeph home)."
    )

    def initialize_settings(self) -> None:
        from zeph_nb.config import Settings

        settings = Settings.load(self.config_file or None)
        if self.zeph_home:
            settings = settings.model_copy(update={"home": Path(self.zeph_home).expanduser()})
        if self.store_path:
            store = settings.store.model_copy(update={"path": str(Path(self.store_path).expanduser())})
            settings = settings.model_copy(update={"store": store})
        self.settings["zeph_settings"] = settings

    def initialize_handlers(self) -> None:
        self.handlers.extend(routes())
        base = self.serverapp.web_app.settings["base_url"] if self.serverapp is not None else "/"
        self.log.info("zeph-nb: dashboard and approval inbox at %szeph/, API at %szeph/api/", base, base)
