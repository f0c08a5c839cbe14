"""The DuckDB store: schema and migrations, spools and flushing, audit and overflow tables.

Its public face for analysis is ``zeph_nb.audit`` (pandas helpers).
"""

from zeph_nb.store.store import Store, StoreBusy

__all__ = ["Store", "StoreBusy"]
