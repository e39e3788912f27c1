"""Sessions have a lifecycle (active, handed off, ended); bots an idle timeout; tenants a handoff
webhook

Revision ID: 0009
Revises: 0008

``sessions.status`` (``active``, ``handed_off``, ``ended``) with when and why it ended or was
handed to a person; a bot's ``idle_timeout_s`` after which an idle session is ended (by whichever
node sweeps first, exactly once: the end is a conditional update). ``tenants.handoff_url`` and
its signing secret (encrypted): where a handoff is announced, signed with HMAC-SHA256.
``bots.intent_detection``: how the agent loop finds each message's intent (rules or a model).
``messages.offered``: the tools a model call was offered (used versus ignored, per tool).
``bots.evals`` and ``eval_runs``: a bot's eval cases and every run's report.
``session_end_hooks``: the session-end tools to run for an ended session, queued in the unit of
work that ended it (durable), claimed with a lease by whichever node runs them, done once.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("status", sa.String(length=16), server_default="active", nullable=False))  # fmt: skip
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("end_reason", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("handed_off_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_sessions_tenant_status_created", "sessions", ["tenant_id", "status", "created_at"])  # fmt: skip
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("idle_timeout_s", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("intent_detection", JSON_TYPE, nullable=True))
        batch.add_column(sa.Column("evals", JSON_TYPE, nullable=True))
    with op.batch_alter_table("messages") as batch:  # the tools a model call was offered
        batch.add_column(sa.Column("offered", JSON_TYPE, nullable=True))
    with op.batch_alter_table("tenants") as batch:
        batch.add_column(sa.Column("handoff_url", sa.String(length=2000), nullable=True))
        batch.add_column(sa.Column("handoff_secret_ct", sa.Text(), nullable=True))
    op.create_table(
        "session_end_hooks",
        sa.Column("session_id", sa.String(length=36), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "tool"),
    )
    op.create_index("ix_session_end_hooks_status", "session_end_hooks", ["status", "lease_until"])
    op.create_table(
        "eval_runs",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pass_rate", sa.Float(), nullable=False),
        sa.Column("report", JSON_TYPE, nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_eval_runs_bot", "eval_runs", ["tenant_id", "bot", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_eval_runs_bot", "eval_runs")
    op.drop_table("eval_runs")
    op.drop_index("ix_session_end_hooks_status", "session_end_hooks")
    op.drop_table("session_end_hooks")
    with op.batch_alter_table("tenants") as batch:
        batch.drop_column("handoff_secret_ct")
        batch.drop_column("handoff_url")
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("offered")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("evals")
        batch.drop_column("intent_detection")
        batch.drop_column("idle_timeout_s")
    op.drop_index("ix_sessions_tenant_status_created", "sessions")
    with op.batch_alter_table("sessions") as batch:
        for column in ("handed_off_at", "end_reason", "ended_at", "status"):
            batch.drop_column(column)
