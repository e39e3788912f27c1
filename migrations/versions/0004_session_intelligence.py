"""Session intelligence: breakers, browser actions, the tool budget, cached calls, analytics indexes

Revision ID: 0004
Revises: 0003

Index design for analytics (docs/analytics.md): every analytics query filters one tenant and a
time range, optionally one tool, and reads only latency, success, cached and test. One covering
index serves them all as an index-only scan: ``(tenant_id, tool, at)`` plus those columns
(``INCLUDE`` on PostgreSQL; trailing key columns on SQLite, which has no ``INCLUDE``). Failures
get a partial index so "last errors" never scans the successes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
COVERED = ["latency_ms", "success", "cached", "test"]

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def rebuild_sql(dialect: str) -> list[str]:
    """Backfill the daily rollups from the calls logged so far (a frozen copy of
    ``server.storage.rollups.rebuild_sql``: buckets of growth 1.04 from 0.001 ms)."""
    postgres = dialect == "postgresql"
    day = "CAST((at AT TIME ZONE 'UTC') AS date)" if postgres else "date(at)"
    greatest = "greatest" if postgres else "max"
    bucket = f"CAST(ceil(ln({greatest}(latency_ms, 0.001)) / ln(1.04)) AS INTEGER)"
    ok, hit = "CASE WHEN success THEN 1 ELSE 0 END", "CASE WHEN cached THEN 1 ELSE 0 END"
    return [
        f"""INSERT INTO tool_call_daily (tenant_id, tool, day, calls, successes, cached)
            SELECT tenant_id, tool, {day}, count(*), sum({ok}), sum({hit})
            FROM tool_calls WHERE NOT test GROUP BY tenant_id, tool, {day}""",
        f"""INSERT INTO tool_call_latency (tenant_id, tool, day, bucket, calls)
            SELECT tenant_id, tool, {day}, {bucket}, count(*)
            FROM tool_calls WHERE NOT test GROUP BY tenant_id, tool, {day}, {bucket}""",
    ]


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("open_breakers", JSON_TYPE, server_default="[]", nullable=False)
        )
        batch_op.add_column(sa.Column("actions", JSON_TYPE, server_default="[]", nullable=False))
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("max_tools", sa.Integer(), nullable=True))
    with op.batch_alter_table("tool_calls", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("cached", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("call_id", sa.String(length=36), nullable=True))
        batch_op.drop_index("ix_tool_calls_tenant_tool_at")
    if postgres:
        op.create_index(
            "ix_tool_calls_analytics",
            "tool_calls",
            ["tenant_id", "tool", "at"],
            postgresql_include=COVERED,
        )
    else:
        op.create_index(
            "ix_tool_calls_analytics", "tool_calls", ["tenant_id", "tool", "at", *COVERED]
        )
    op.create_index(
        "ix_tool_calls_failures",
        "tool_calls",
        ["tenant_id", "tool", "at"],
        postgresql_where=sa.text("NOT success"),
        sqlite_where=sa.text("NOT success"),
    )
    op.create_index("ix_tool_calls_tenant_at", "tool_calls", ["tenant_id", "at"])

    op.create_table(
        "session_tool_failures",
        sa.Column("session_id", sa.String(length=36), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "tool"),
    )
    op.create_table(
        "breaker_openings",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_breaker_openings_tenant_at", "breaker_openings", ["tenant_id", "at"])

    op.create_table(
        "tool_call_daily",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("successes", sa.Integer(), nullable=False),
        sa.Column("cached", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "tool", "day"),
    )
    op.create_table(
        "tool_call_latency",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("tool", sa.String(length=64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("bucket", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "tool", "day", "bucket"),
    )
    for statement in rebuild_sql(op.get_bind().dialect.name):  # count the calls logged so far
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("tool_call_latency")
    op.drop_table("tool_call_daily")
    op.drop_index("ix_breaker_openings_tenant_at", table_name="breaker_openings")
    op.drop_table("breaker_openings")
    op.drop_table("session_tool_failures")
    op.drop_index("ix_tool_calls_tenant_at", table_name="tool_calls")
    op.drop_index("ix_tool_calls_failures", table_name="tool_calls")
    op.drop_index("ix_tool_calls_analytics", table_name="tool_calls")
    with op.batch_alter_table("tool_calls", schema=None) as batch_op:
        batch_op.create_index("ix_tool_calls_tenant_tool_at", ["tenant_id", "tool", "at"])
        batch_op.drop_column("call_id")
        batch_op.drop_column("cached")
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.drop_column("max_tools")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("actions")
        batch_op.drop_column("open_breakers")
