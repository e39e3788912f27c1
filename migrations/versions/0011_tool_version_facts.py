"""What a save learns about a tool is stored with its version: ``tool_versions.on_error`` (the
file declares an on_error handler), so a call never parses the source again to find out

Revision ID: 0011
Revises: 0010

Versions stored before keep NULL: the node finds it out from the source once, as it used to.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tool_versions") as batch:
        batch.add_column(sa.Column("on_error", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tool_versions") as batch:
        batch.drop_column("on_error")
