"""The agent loop: model providers, a bot's model settings, the conversation's messages

Revision ID: 0008
Revises: 0007

``providers``: a tenant's model providers (kind, base URL, model names) with the API key
encrypted by the server's secret box, bound to the tenant and provider name. ``bots`` gain the
model they answer with (``provider/model``), the cheaper one for rounds that only dispatch
tools, a round limit, a context budget, a browser-action timeout and a system prompt.
``messages``: every message of a session's conversation (user, assistant with its tool calls,
tool results) in order, with the tokens the provider reported for each model call — kept whole
(what is sent to the model is cut to the context budget, the transcript is not).
``tool_calls.message_id``: the assistant message that asked for the call.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)


def upgrade() -> None:
    op.create_table(
        "providers",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("base_url", sa.String(length=2000), nullable=True),
        sa.Column("models", JSON_TYPE, server_default="[]", nullable=False),
        sa.Column("api_key_ct", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tenant_id", "name"),
    )
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("model", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("tool_round_model", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("max_rounds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("max_context_tokens", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("action_timeout_s", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("system_prompt", sa.Text(), nullable=True))
    op.create_table(
        "messages",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.Text(), nullable=True),
        sa.Column("tool_calls", JSON_TYPE, nullable=True),
        sa.Column("tool_call_id", sa.String(length=256), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=True),
        sa.Column("turn", sa.String(length=36), nullable=True),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("input_tokens", sa.Integer(), server_default="0", nullable=False),
        sa.Column("output_tokens", sa.Integer(), server_default="0", nullable=False),
        sa.Column("cached_tokens", sa.Integer(), server_default="0", nullable=False),
        sa.Column("tool_round", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ux_messages_session_seq", "messages", ["session_id", "seq"], unique=True)
    op.create_index("ix_messages_tenant_created", "messages", ["tenant_id", "created_at"])
    with op.batch_alter_table("tool_calls") as batch:
        batch.add_column(sa.Column("message_id", sa.String(length=36), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tool_calls") as batch:
        batch.drop_column("message_id")
    op.drop_index("ix_messages_tenant_created", "messages")
    op.drop_index("ux_messages_session_seq", "messages")
    op.drop_table("messages")
    with op.batch_alter_table("bots") as batch:
        for column in (
            "system_prompt", "action_timeout_s", "max_context_tokens", "max_rounds",
            "tool_round_model", "model",
        ):  # fmt: skip
            batch.drop_column(column)
    op.drop_table("providers")
