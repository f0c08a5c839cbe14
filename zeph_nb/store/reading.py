"""Reading the store: the database file opened read-only for one query, with the rows still in spools added, so
a reader sees every acknowledged row (see store.py for the writing side)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.store.schema import COLUMNS
from zeph_nb.store.spool import read_records, spool_files

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["frame_of", "open_for_reading", "read_with_spools"]


def read_with_spools(
    path: Path,
    connect: Callable[[], duckdb.DuckDBPyConnection],
    spool_dir: Path,
    statements: Sequence[tuple[str, list[Any] | None]],
) -> list[pd.DataFrame]:
    """Run ``statements`` over each table's file rows plus its spooled ones; ``connect`` opens the file
    read-only (taking turns with writers)."""
    con, database, in_file = open_for_reading(path, connect)
    try:
        progress: dict[str, int] = {}
        if database is not None:
            progress = dict(con.execute("SELECT spool, offset_bytes FROM spool_progress").fetchall())
        pending: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for path in spool_files(spool_dir):
            records, _ = read_records(path, progress.get(path.name, 0))
            for record in records:
                pending[record.table].append(record.row)
        for table, columns in COLUMNS.items():
            # A file written by an older version may lack a table or columns (its next writer migrates it).
            missing = [name for name in columns if name not in in_file.get(table, columns)]
            if table in in_file and not pending[table] and not missing:
                continue  # the file's own table answers; no view needed
            typed = ", ".join(f"CAST({name} AS {kind}) AS {name}" for name, kind in columns.items())
            added = "".join(f", CAST(NULL AS {columns[name]}) AS {name}" for name in missing)
            parts = [f'SELECT *{added} FROM "{database}".main.{table}'] if table in in_file else []
            if pending[table]:
                con.register(f"pending_{table}", frame_of(table, pending[table]))
                parts.append(f"SELECT {typed} FROM pending_{table}")
            else:
                nulls = ", ".join(f"NULL AS {name}" for name in columns)
                parts.append(f"SELECT {typed} FROM (SELECT {nulls}) WHERE false")
            # A temp view shadows the file's table of the same name; the file's is reached fully qualified.
            con.execute(f"CREATE TEMP VIEW {table} AS {' UNION ALL BY NAME '.join(parts)}")
        return [con.execute(sql, params or []).df() for sql, params in statements]
    finally:
        con.close()


def open_for_reading(
    path: Path, connect: Callable[[], duckdb.DuckDBPyConnection]
) -> tuple[duckdb.DuckDBPyConnection, str | None, dict[str, set[str]]]:
    """A read-only connection to the file, its database name and its tables with their columns; in memory
    when there is no usable file yet."""
    import duckdb

    if path.exists():
        con = connect()
        tables: dict[str, set[str]] = defaultdict(set)
        for table, column in con.execute("SELECT table_name, column_name FROM duckdb_columns()").fetchall():
            tables[table].add(column)
        if "tool_calls" in tables:  # created and migrated
            return con, str(con.execute("SELECT current_database()").fetchall()[0][0]), dict(tables)
        con.close()
    return duckdb.connect(), None, {}


def frame_of(table: str, rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame.from_records(rows, columns=list(COLUMNS[table]))
