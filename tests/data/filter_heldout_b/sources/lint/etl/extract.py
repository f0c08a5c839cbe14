import os, sys
import json
from typing import List, Dict, Optional
import re


def read_rows(path: str) -> List[Dict]:
    rows = []
    f = open(path)
    for line in f.readlines():
        if line.strip() == "":
            continue
        rows.append(json.loads(line))
    return rows


def pick(rows: List[Dict], key: Optional[str] = None):
    if key == None:
        return rows
    return [r for r in rows if r.get(key) != None]


def env_flag(name):
    value = os.environ.get(name)
    if value == "1":
        return True
    else:
        return False
