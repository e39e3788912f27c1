"""Tenants carry an admin's overrides of the request rates and daily quotas; tenant secrets

Revision ID: 0007
Revises: 0006

``tenants.limits``: a JSON object of the settings an admin changed for this tenant (request
rates per tenant and per key, calls and sandbox CPU milliseconds per day); what it does not
name follows the server's defaults. Counting happens in Redis (or per node without it), not here.

``secrets``: values code tools read as ``context.secrets[name]`` (a tool declares the names in
its metadata), encrypted with the server's secret box and bound to their tenant and name; the
API never returns them. Global tools read the global tenant's (``*``).
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
    op.create_table(
        "secrets",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value_ct", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tenant_id", "name"),
    )


def downgrade() -> None:
    op.drop_table("secrets")
    with op.batch_alter_table("tenants") as batch:
        batch.drop_column("limits")
