import sqlite3
from etl.transform import normalize, batch
from etl.extract import read_rows


def load(path, db):
    conn = sqlite3.connect(db)
    rows = read_rows(path)
    for chunk in batch(rows):
        for r in chunk:
            r = normalize(r)
            conn.execute("insert into t values (?)", (str(r),))
    conn.commit()
    l = len(rows)
    return l
