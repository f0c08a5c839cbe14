"""members and tools"""
import sqlalchemy as sa
from alembic import op

revision = "a1"
down_revision = None


def upgrade() -> None:
    op.create_table("members", sa.Column("id", sa.Integer, primary_key=True), sa.Column("email", sa.String(120)),
                    sa.Column("joined", sa.String(10)))
    op.create_table("tools", sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String(80)),
                    sa.Column("shelf", sa.Integer))
