"""Tenants carry an admin's overrides of the request rates and daily quotas

Revision ID: 0007
Revises: 0006

``tenants.limits``: a JSON object of the settings an admin changed for this tenant (request
rates per tenant and per key, calls and sandbox CPU milliseconds per day); what it does not
name follows the server's defaults. Counting happens in Redis (or per node without it), not here.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)


def upgrade() -> None:
    with op.batch_alter_table("tenants") as batch:
        batch.add_column(sa.Column("limits", JSON_TYPE, server_default="{}", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("tenants") as batch:
        batch.drop_column("limits")
