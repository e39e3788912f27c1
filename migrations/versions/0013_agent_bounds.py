"""The agent loop's bounds per bot: tool calls per round and per turn, a turn's deadline, and
who may approve a call that needs approval

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("max_tool_calls", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("max_turn_tool_calls", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_timeout_s", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("approvers", json, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        for column in ("approvers", "turn_timeout_s", "max_turn_tool_calls", "max_tool_calls"):
            batch.drop_column(column)
