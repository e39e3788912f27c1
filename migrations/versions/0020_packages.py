"""Reviewed packages

Revision ID: 0020
Revises: 0019

``packages``: the pure-Python wheels and npm tarballs an admin uploaded, pinned by name, version
and SHA-256, their code kept as text. ``tenants.packages``: the ones granted to each tenant.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)


def upgrade() -> None:
    op.create_table(
        "packages",
        sa.Column("name", sa.String(length=100), primary_key=True),
        sa.Column("version", sa.String(length=64), primary_key=True),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False, unique=True),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("files", JSON_TYPE, nullable=False),
        sa.Column("modules", JSON_TYPE, nullable=False),
        sa.Column("main", sa.Text(), nullable=True),
        sa.Column("uploaded_by", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("tenants") as batch:
        batch.add_column(sa.Column("packages", JSON_TYPE, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("tenants") as batch:
        batch.drop_column("packages")
    op.drop_table("packages")
