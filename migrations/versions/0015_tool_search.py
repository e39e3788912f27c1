"""Tool search: a bot's ``tool_loading`` and the tools each session found

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("tool_loading", sa.String(16), nullable=True))
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("loaded_tools", json, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("loaded_tools")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("tool_loading")
