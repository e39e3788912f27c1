"""Compiled WASM artefacts stored with the tool version they were compiled from

Revision ID: 0005
Revises: 0004

One row per (tool version, engine): the engine string names the wasmtime version and engine
settings, so nodes running different wasmtime versions (a rolling upgrade) keep their own
artefacts side by side. Each artefact carries a MAC under the server's secret key, bound to
its version and engine, checked before any worker deserialises it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "wasm_artefacts",
        sa.Column("version_id", BIG_ID, nullable=False),
        sa.Column("engine", sa.String(length=160), nullable=False),
        sa.Column("artefact", sa.LargeBinary(), nullable=False),
        sa.Column("mac", sa.String(length=96), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["version_id"], ["tool_versions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("version_id", "engine"),
    )


def downgrade() -> None:
    op.drop_table("wasm_artefacts")
