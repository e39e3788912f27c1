"""A tenant's guardrails: the policy an admin sets, checked around every call of its tools

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
    with op.batch_alter_table("tenants") as batch:
        batch.add_column(sa.Column("guardrails", json, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("tenants") as batch:
        batch.drop_column("guardrails")
