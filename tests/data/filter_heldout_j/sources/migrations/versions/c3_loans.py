"""loans"""
import sqlalchemy as sa
from alembic import op

revision = "c3"
down_revision = "b2"


def upgrade() -> None:
    op.create_table("loans", sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("member_id", sa.Integer, sa.ForeignKey("members.id")),
                    sa.Column("tool_id", sa.Integer, sa.ForeignKey("tools.id")), sa.Column("due", sa.String(10)))
    op.create_index("ix_loans_due", "loans", ["due"])
