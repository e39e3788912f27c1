"""Federated MCP servers

Revision ID: 0018
Revises: 0017

``mcp_servers``: a remote MCP server a tenant federates — its URL, the allowlist of its tools
that become the tenant's (kind ``mcp``, stored as tool versions like any other), its auth header
encrypted, how its last listing went, and which node listens for its ``list_changed`` (a lease).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "mcp_servers",
        sa.Column("tenant_id", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("tools", JSON_TYPE, nullable=False),
        sa.Column("prefix", sa.String(length=32), nullable=False),
        sa.Column("timeout_ms", sa.Integer(), nullable=False),
        sa.Column("cacheable", JSON_TYPE, nullable=True),
        sa.Column("cache_ttl", sa.Integer(), nullable=True),
        sa.Column("secret_ct", sa.Text(), nullable=True),
        sa.Column("made", JSON_TYPE, nullable=False),
        sa.Column("protocol_version", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("error", JSON_TYPE, nullable=True),
        sa.Column("skipped", JSON_TYPE, nullable=True),
        sa.Column("refreshed_at", WHEN, nullable=True),
        sa.Column("watched_by", sa.String(length=32), nullable=True),
        sa.Column("watch_until", WHEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.Column("updated_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("mcp_servers")
