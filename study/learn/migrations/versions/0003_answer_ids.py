"""Idempotent answers: a client may send an answer id; a retried answer is not reviewed twice.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("review_logs") as batch:
        batch.add_column(sa.Column("answer_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("result_json", sa.Text, nullable=True))
        batch.create_unique_constraint("uq_logs_learner_answer", ["learner_id", "answer_id"])


def downgrade() -> None:
    with op.batch_alter_table("review_logs") as batch:
        batch.drop_constraint("uq_logs_learner_answer", type_="unique")
        batch.drop_column("result_json")
        batch.drop_column("answer_id")
