"""Accounts and signed questions: learners get a password and a time zone; sessions are rows (a
cookie works while its row exists); class membership is kept per class and every review notes the
class it was made in; questions are signed tokens, so the table of shown questions goes; rate
limits are counted in the database; a learner's introductions to facts are kept, shared by the workers.

Learners from before this revision keep their progress and have no password: the next sign-in
with their name sets it (README, "Accounts").

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

from study.learn.db import UTCDateTime

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("learners") as batch:
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("time_zone", sa.String(64), nullable=False, server_default="Asia/Shanghai"))
    op.create_table(
        "learner_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), nullable=False, index=True),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "class_members",
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), primary_key=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
        sa.Column("joined_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "intros",
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
        sa.Column("fact", sa.String(200), primary_key=True),
        sa.Column("seen_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.execute(
        "INSERT INTO class_members (class_id, learner_id, joined_at) "
        "SELECT class_id, id, created_at FROM learners WHERE class_id IS NOT NULL"
    )
    with op.batch_alter_table("review_logs") as batch:
        batch.add_column(sa.Column("class_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("token_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("card_before", sa.Text, nullable=True))
        batch.add_column(sa.Column("guessed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_unique_constraint("uq_logs_learner_token", ["learner_id", "token_id"])
    op.execute(
        "UPDATE review_logs SET class_id = (SELECT class_id FROM learners WHERE learners.id = review_logs.learner_id)"
    )
    op.drop_table("questions")


def downgrade() -> None:
    op.create_table(
        "questions",
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
        sa.Column("item_id", sa.String(200), primary_key=True),
        sa.Column("question_json", sa.Text, nullable=False),
        sa.Column("presented_at", UTCDateTime, nullable=False),
    )
    with op.batch_alter_table("review_logs") as batch:
        batch.drop_constraint("uq_logs_learner_token", type_="unique")
        for column in ("guessed", "card_before", "token_id", "class_id"):
            batch.drop_column(column)
    op.drop_table("rate_limits")
    op.drop_table("intros")
    op.drop_table("class_members")
    op.drop_table("learner_sessions")
    with op.batch_alter_table("learners") as batch:
        batch.drop_column("time_zone")
        batch.drop_column("password_hash")
