"""The built-in skills' data: data sets and their items, customers' preferences, leads, forms
and their submissions, calendars and appointments; bots configure skills

Revision ID: 0010
Revises: 0009

``datasets`` (kind ``faq``, ``catalog``, ``samples`` or ``documents``; a version that grows with
every upload) and ``dataset_items`` (each upload's items under its version, replaced whole in one
transaction). ``appointments`` are keyed by their slot, so a slot is booked at most once.
``bots.skills``: which data set and settings each skill uses.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)
TZ = sa.DateTime(timezone=True)


def _tenant() -> sa.Column[str]:
    return sa.Column("tenant_id", sa.String(length=64), nullable=False)


def _tenant_fk() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE")


def upgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("skills", JSON_TYPE, nullable=True))
    op.create_table(
        "datasets",
        _tenant(),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("items", sa.Integer(), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("tenant_id", "name"),
    )
    op.create_table(
        "dataset_items",
        _tenant(),
        sa.Column("dataset", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=128), nullable=True),
        sa.Column("data", JSON_TYPE, nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "dataset", "version", "seq"),
    )
    op.create_index("ix_dataset_items_item", "dataset_items", ["tenant_id", "dataset", "version", "item_id"])  # fmt: skip
    op.create_table(
        "customer_preferences",
        _tenant(),
        sa.Column("customer", sa.String(length=128), nullable=False),
        sa.Column("dataset", sa.String(length=64), nullable=False),
        sa.Column("product_id", sa.String(length=128), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=False),
        sa.Column("at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("tenant_id", "customer", "dataset", "product_id"),
    )
    op.create_table(
        "leads",
        sa.Column("id", sa.String(length=36), nullable=False),
        _tenant(),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("customer", sa.String(length=128), nullable=True),
        sa.Column("bot", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("phone", sa.String(length=32), nullable=True),
        sa.Column("interest", sa.String(length=1000), nullable=False),
        sa.Column("forwarded", sa.String(length=32), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_leads_tenant_created", "leads", ["tenant_id", "created_at", "id"])
    op.create_table(
        "forms",
        _tenant(),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("schema", JSON_TYPE, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("tenant_id", "name"),
    )
    op.create_table(
        "form_submissions",
        sa.Column("id", sa.String(length=36), nullable=False),
        _tenant(),
        sa.Column("form", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("customer", sa.String(length=128), nullable=True),
        sa.Column("fields", JSON_TYPE, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_form_submissions_form", "form_submissions", ["tenant_id", "form", "created_at", "id"])  # fmt: skip
    op.create_table(
        "calendars",
        _tenant(),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("slots", JSON_TYPE, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("tenant_id", "name"),
    )
    op.create_table(
        "appointments",
        _tenant(),
        sa.Column("calendar", sa.String(length=64), nullable=False),
        sa.Column("start", TZ, nullable=False),
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("end", TZ, nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("customer", sa.String(length=128), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("contact", sa.String(length=254), nullable=True),
        sa.Column("note", sa.String(length=1000), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        _tenant_fk(),
        sa.PrimaryKeyConstraint("tenant_id", "calendar", "start"),
        sa.UniqueConstraint("id"),
    )


def downgrade() -> None:
    for table in ("appointments", "calendars", "form_submissions", "forms", "leads",
                  "customer_preferences", "dataset_items", "datasets"):  # fmt: skip
        op.drop_table(table)
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("skills")
