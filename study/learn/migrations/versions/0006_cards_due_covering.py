"""Due cards from an index alone: /api/next reads a learner's most overdue cards (item and due
date, in due order) on every request; with the item in the index (learner_id, due, item_id) the
cards' rows are not read.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_cards_learner_due_item", "cards", ["learner_id", "due", "item_id"])
    op.drop_index("ix_cards_learner_due", table_name="cards")


def downgrade() -> None:
    op.create_index("ix_cards_learner_due", "cards", ["learner_id", "due"])
    op.drop_index("ix_cards_learner_due_item", table_name="cards")
