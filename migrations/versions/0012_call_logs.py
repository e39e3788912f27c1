"""Call logs as data: a call's own log lines (``tool_calls.logs``) and the tenant's calls newest
first (``ix_tool_calls_tenant_id``, for ``GET /v1/calls`` and its live tail)

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    with op.batch_alter_table("tool_calls") as batch:
        batch.add_column(sa.Column("logs", json, nullable=True))
    op.create_index("ix_tool_calls_tenant_id", "tool_calls", ["tenant_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_tool_calls_tenant_id", table_name="tool_calls")
    with op.batch_alter_table("tool_calls") as batch:
        batch.drop_column("logs")
