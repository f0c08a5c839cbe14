"""The DuckDB store: schema and migrations, spools and flushing, audit and overflow tables.

Its public face for analysis is ``zeph_nb.audit`` (pandas helpers).
"""

from zeph_nb.store.audit_log import AuditLog, AuditRecord
from zeph_nb.store.store import Store, StoreBusy

__all__ = ["AuditLog", "AuditRecord", "Store", "StoreBusy"]
