"""Today's cards from an index: /api/next reads which of a learner's cards were answered (and
first answered) since their day began on every request; the index (learner_id, last_review,
created_at, item_id) gives them without reading the cards' rows or the learner's other cards.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_cards_learner_reviewed", "cards", ["learner_id", "last_review", "created_at", "item_id"])


def downgrade() -> None:
    op.drop_index("ix_cards_learner_reviewed", table_name="cards")
