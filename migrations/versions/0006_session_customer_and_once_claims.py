"""Sessions name their end user; once-per-session runs are claimed; call-log rows carry a uid

Revision ID: 0006
Revises: 0005

``sessions.customer``: the end user's id in the tenant's world (optional, given at attach), so a
result cached with ``cache_scope: customer`` reaches that user's other sessions and no one
else's. ``session_tool_claims``: one row per (session, once-per-session tool), inserted before
the tool runs — exactly one of any number of concurrent calls, on any node, inserts it and
runs; the claim is released when the run fails, marked done when it succeeds, and may be taken
over once its lease has passed (the node that held it died mid-run). ``tool_calls.uid``: each call-log row's own id, given when the call ends and
journalled on the node's disk before the answer goes out, so rows replayed after a crash are
inserted once (rows from before this migration have none). ``idempotency_keys``: the first
answer to a ``POST`` sent with an ``Idempotency-Key`` (per API key and route), replayed to its
retries for a day.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("customer", sa.String(length=128), nullable=True))
    op.create_index("ix_sessions_tenant_customer", "sessions", ["tenant_id", "customer"])
    op.create_table(
        "session_tool_claims",
        sa.Column("session_id", sa.String(length=36), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "tool"),
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("key_id", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("idem_key", sa.String(length=255), nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("response", sa.LargeBinary(), nullable=True),
        sa.Column("media_type", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_id", "scope", "idem_key"),
    )
    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])
    with op.batch_alter_table("tool_calls") as batch:
        batch.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
    op.create_index("ux_tool_calls_uid", "tool_calls", ["uid"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_created_at", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    op.drop_index("ux_tool_calls_uid", table_name="tool_calls")
    with op.batch_alter_table("tool_calls") as batch:
        batch.drop_column("uid")
    op.drop_table("session_tool_claims")
    op.drop_index("ix_sessions_tenant_customer", table_name="sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("customer")
