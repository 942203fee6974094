"""Initial schema: classes, learners, FSRS cards, review logs, presented questions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from study.learn.db import UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("teacher_id", sa.Integer, nullable=True),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=True),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "cards",
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
        sa.Column("item_id", sa.String(200), primary_key=True),
        sa.Column("card_json", sa.Text, nullable=False),
        sa.Column("due", UTCDateTime, nullable=False),
        sa.Column("reps", sa.Integer, nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("last_review", UTCDateTime, nullable=True),
    )
    op.create_index("ix_cards_learner_due", "cards", ["learner_id", "due"])
    op.create_table(
        "review_logs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), nullable=False),
        sa.Column("item_id", sa.String(200), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("reviewed_at", UTCDateTime, nullable=False),
        sa.Column("duration_ms", sa.Integer, nullable=True),
        sa.Column("answer_json", sa.Text, nullable=False),
    )
    op.create_index("ix_logs_learner_item", "review_logs", ["learner_id", "item_id"])
    op.create_table(
        "questions",
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
        sa.Column("item_id", sa.String(200), primary_key=True),
        sa.Column("question_json", sa.Text, nullable=False),
        sa.Column("presented_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    for table in ("questions", "review_logs", "cards", "learners", "classes"):
        op.drop_table(table)
