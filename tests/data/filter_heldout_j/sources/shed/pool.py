"""The lending desk's nightly overdue sweep: eight threads share a SQLAlchemy pool of three connections with
the pool's debug log on; the reminders for three members hold their connections while it waits on the SMTP relay,
so the others time out waiting for the pool."""

import logging
import sys
import threading
import time

import sqlalchemy as sa

logging.basicConfig(stream=sys.stdout, format="%(asctime)s %(threadName)s %(levelname)s [%(name)s] %(message)s")
logging.getLogger("sqlalchemy.pool").setLevel(logging.DEBUG)
logging.getLogger("shed.sweep").setLevel(logging.INFO)
log = logging.getLogger("shed.sweep")

engine = sa.create_engine("sqlite:///sweep.db", pool_size=3, max_overflow=0, pool_timeout=1.5,
                          poolclass=sa.pool.QueuePool)
with engine.begin() as conn:
    conn.execute(sa.text("CREATE TABLE IF NOT EXISTS loans (id INTEGER PRIMARY KEY, member INT, due TEXT)"))
    conn.execute(sa.text("DELETE FROM loans"))
    conn.execute(sa.text("INSERT INTO loans VALUES (:id, :m, :d)"),
                 [{"id": i, "m": i % 264, "d": f"2026-11-{i % 28 + 1:02d}"} for i in range(1, 661)])

failed = []


def sweep(worker: int) -> None:
    for member in range(worker, 264, 8):
        try:
            with engine.connect() as conn:
                rows = conn.execute(sa.text("SELECT count(*) FROM loans WHERE member = :m AND due < '2026-11-20'"),
                                    {"m": member}).scalar()
                if member in (13, 14, 15):
                    time.sleep(4)  # the SMTP relay is slow for these, and the connection is held meanwhile
                log.info("member %d: %d overdue loans, reminder queued", member, rows)
        except sa.exc.TimeoutError as error:
            log.error("member %d: no connection: %s", member, error)
            failed.append(member)


threads = [threading.Thread(target=sweep, args=(w,), name=f"sweep-{w}") for w in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
log.warning("sweep finished: %d members reminded, %d failed: %s", 264 - len(failed), len(failed), sorted(failed))
engine.dispose()
