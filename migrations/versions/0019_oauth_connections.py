"""Per-user OAuth connections

Revision ID: 0019
Revises: 0018

``oauth_providers``: an OAuth 2.1 authorization server a tenant's tools act through for their
end users (its client secret encrypted; the API origins its tokens are added to).
``oauth_connections``: one end user's tokens for a provider, encrypted and bound to tenant,
provider and customer.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "oauth_providers",
        sa.Column("tenant_id", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("authorize_url", sa.Text(), nullable=False),
        sa.Column("token_url", sa.Text(), nullable=False),
        sa.Column("client_id", sa.String(length=256), nullable=False),
        sa.Column("client_secret_ct", sa.Text(), nullable=True),
        sa.Column("scopes", JSON_TYPE, nullable=False),
        sa.Column("api", JSON_TYPE, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "oauth_connections",
        sa.Column("tenant_id", sa.String(length=64), primary_key=True),
        sa.Column("provider", sa.String(length=32), primary_key=True),
        sa.Column("customer", sa.String(length=128), primary_key=True),
        sa.Column("access_ct", sa.Text(), nullable=False),
        sa.Column("refresh_ct", sa.Text(), nullable=True),
        sa.Column("scopes", JSON_TYPE, nullable=False),
        sa.Column("expires_at", WHEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("oauth_connections")
    op.drop_table("oauth_providers")
