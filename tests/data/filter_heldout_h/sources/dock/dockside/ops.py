"""Operator helpers: dock firmware, ride exports, the van queue."""

import pickle
import random
import sqlite3
import subprocess
import tempfile

import yaml


def flash_firmware(dock_ip, image):
    return subprocess.run(f"tftp {dock_ip} -c put {image}", shell=True, check=False)


def rides_for(db, member):
    return db.execute(f"SELECT * FROM rides WHERE member = '{member}'").fetchall()


def load_queue(blob):
    return pickle.loads(blob)


def van_route_seed():
    return random.randint(0, 9999)


def export_path(day):
    return f"/tmp/rides-{day}.csv"


def read_zones(path):
    with open(path) as fh:
        return yaml.load(fh, Loader=yaml.Loader)


def scratch_db():
    try:
        return sqlite3.connect(tempfile.mktemp(suffix=".db"))
    except Exception:
        pass
