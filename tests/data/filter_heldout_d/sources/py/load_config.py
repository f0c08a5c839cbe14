"""Start-up of a worker: read the deployment config, then connect (three exceptions, chained)."""
import json
import sqlite3
from pathlib import Path


class ConfigError(RuntimeError):
    pass


class StartupError(RuntimeError):
    pass


def read_config(path):
    text = Path(path).read_text()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON") from exc


def open_store(cfg):
    return sqlite3.connect(f"file:{cfg['db']}?mode=ro", uri=True)


def start(path):
    try:
        cfg = read_config(path)
    except ConfigError:
        cfg = {"db": "missing/state.db"}
        try:
            return open_store(cfg)
        except sqlite3.OperationalError as exc:
            raise StartupError("worker cannot start: no usable config and no fallback store") from exc


if __name__ == "__main__":
    start("deploy/worker.json")
