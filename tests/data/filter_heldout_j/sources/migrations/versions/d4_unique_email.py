"""one account per email"""
from alembic import op

revision = "d4"
down_revision = "c3"


def upgrade() -> None:
    op.create_index("ux_members_email", "members", ["email"], unique=True)
