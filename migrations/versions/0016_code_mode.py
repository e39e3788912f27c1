"""Code mode: a bot's ``code_mode`` and, in the call log, the program a call was made by

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("code_mode", sa.String(16), nullable=True))
    with op.batch_alter_table("tool_calls") as batch:
        batch.add_column(sa.Column("parent_call_id", sa.String(36), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tool_calls") as batch:
        batch.drop_column("parent_call_id")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("code_mode")
