"""import last year's members and tools from the paper register, row by row as the old script did"""
import sqlalchemy as sa
from alembic import op

revision = "b2"
down_revision = "a1"


def upgrade() -> None:
    conn = op.get_bind()
    for i in range(1, 421):
        # Two members signed up twice on paper: the same email under two ids (the unique index later trips on it).
        email = f"member{i if i not in (97, 331) else i - 50}@example.org"
        conn.execute(sa.text("INSERT INTO members (id, email, joined) VALUES (:id, :email, :joined)"),
                     {"id": i, "email": email, "joined": f"2025-{i % 12 + 1:02d}-01"})
    for i in range(1, 121):
        conn.execute(sa.text("INSERT INTO tools (id, name, shelf) VALUES (:id, :name, :shelf)"),
                     {"id": i, "name": f"tool-{i}", "shelf": i % 30})
