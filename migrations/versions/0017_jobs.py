"""Long-running tool jobs, and a bot's wait for them

Revision ID: 0017
Revises: 0016

``jobs``: a call of a tool whose metadata says ``mode: "job"`` (or of a webhook that answered
202 with a job location) — queued in the call's unit of work, claimed with a lease by whichever
node runs it, finished once (the finish is a conditional update). Its arguments are kept
encrypted. ``bots.job_wait_s``: how long the agent loop waits for a job before telling the model
it runs and delivering its result as a later message.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(length=36), primary_key=True),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("bot", sa.String(length=64), nullable=True),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("arguments_ct", sa.Text(), nullable=False),
        sa.Column("location", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("progress", sa.Float(), nullable=True),
        sa.Column("message", sa.String(length=200), nullable=True),
        sa.Column("result", JSON_TYPE, nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("lease_until", WHEN, nullable=True),
        sa.Column("timeout_s", sa.Integer(), nullable=False),
        sa.Column("cancel_requested", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("deliver", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("message_id", sa.String(length=36), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("started_at", WHEN, nullable=True),
        sa.Column("finished_at", WHEN, nullable=True),
        sa.Column("cpu_ms", sa.Float(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_jobs_due", "jobs", ["status", "lease_until"])
    op.create_index("ix_jobs_tenant", "jobs", ["tenant_id", "status"])
    op.create_index("ix_jobs_session", "jobs", ["session_id"])
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("job_wait_s", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("job_wait_s")
    op.drop_index("ix_jobs_session", table_name="jobs")
    op.drop_index("ix_jobs_tenant", table_name="jobs")
    op.drop_index("ix_jobs_due", table_name="jobs")
    op.drop_table("jobs")
