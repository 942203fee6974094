"""Teachers and class assignments (the deck spec a class studies in the web quiz).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from study.learn.db import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "teachers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "assignments",
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), primary_key=True),
        sa.Column("spec_yaml", sa.Text, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_classes_teacher", "classes", ["teacher_id"])
    op.create_index("ix_learners_class", "learners", ["class_id"])


def downgrade() -> None:
    op.drop_index("ix_learners_class", "learners")
    op.drop_index("ix_classes_teacher", "classes")
    op.drop_table("assignments")
    op.drop_table("teachers")
