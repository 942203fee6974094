"""The reads of a learner's FSRS cards (study/learn/schedule.py's :class:`ReviewStore` inherits
them): the agenda of every request from two small prepared reads (today's cards, the most overdue
due ones) made whole when needed, whether a fact was introduced, a result already logged for an
answer, and every card or review log of a learner."""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import replace
from datetime import datetime, tzinfo

import fsrs
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from .agenda import DEFAULT_ZONE, Agenda, CardRow, day_start
from .db import cards, intros, reading, review_logs
from .prepared import Prepared

# The reads every request makes, built once and run as prepared statements (study.learn.prepared).
_START = sa.bindparam("start", type_=cards.c.created_at.type)
# the cards answered since the day began, and those of them first answered then (a card is made
# by its first answer): a range of the index (learner_id, last_review, created_at, item_id)
_TODAY = Prepared(
    sa.select(
        sa.func.aggregate_strings(cards.c.item_id, "\x1f"),
        sa.func.aggregate_strings(sa.case((cards.c.created_at >= _START, cards.c.item_id)), "\x1f"),
    ).where((cards.c.learner_id == sa.bindparam("learner_id")) & (cards.c.last_review >= _START))
)
_SEEN = Prepared(
    sa.select(sa.func.aggregate_strings(cards.c.item_id, "\x1f")).where(
        cards.c.learner_id == sa.bindparam("learner_id")
    )
)
_DUE_ALL = (
    sa.select(cards.c.item_id, sa.type_coerce(cards.c.due, sa.String))
    .where(
        (cards.c.learner_id == sa.bindparam("learner_id"))
        & (cards.c.due <= sa.bindparam("now", type_=cards.c.due.type))
    )
    .order_by(cards.c.due)  # the index (learner_id, due, item_id) reads them in this order
)
DUE_FIRST = 32  # due cards read at first: the most overdue (see ReviewStore.agenda)
_DUE, _DUE_FIRST = Prepared(_DUE_ALL), Prepared(_DUE_ALL.limit(DUE_FIRST))
_INTRODUCED = Prepared(
    sa.select(intros.c.fact).where(
        (intros.c.learner_id == sa.bindparam("learner_id")) & (intros.c.fact == sa.bindparam("fact"))
    )
)


def _split(text: str | None) -> frozenset[str]:
    return frozenset(text.split("\x1f")) if text else frozenset()


class CardReads:
    """The reading methods of :class:`study.learn.schedule.ReviewStore`."""

    engine: Engine

    def logged_result(
        self, learner_id: int, *, answer_id: str | None = None, token_id: str | None = None
    ) -> dict[str, object] | None:
        """The result already given for this answer id or question token, if it was answered."""
        keys = []
        if answer_id is not None:
            keys.append(review_logs.c.answer_id == answer_id)
        if token_id is not None:
            keys.append(review_logs.c.token_id == token_id)
        if not keys:
            return None
        with reading(self.engine) as conn:
            row = conn.execute(
                sa.select(review_logs.c.result_json)
                .where((review_logs.c.learner_id == learner_id) & sa.or_(*keys))
                .order_by(review_logs.c.id)
            ).first()
        return json.loads(row.result_json) if row and row.result_json else None

    def cards(self, learner_id: int) -> dict[str, CardRow]:
        with reading(self.engine) as conn:
            rows = conn.execute(sa.select(cards).where(cards.c.learner_id == learner_id)).all()
        return {
            r.item_id: CardRow(r.item_id, fsrs.Card.from_json(r.card_json), r.due, r.reps, r.created_at) for r in rows
        }

    def agenda(
        self,
        learner_id: int,
        now: datetime,
        zone: tzinfo = DEFAULT_ZONE,
        *,
        whole: bool = False,
        conn: Connection | None = None,
    ) -> Agenda:
        """The learner's :class:`Agenda` from two small reads (today's cards, and the due ones)
        instead of loading and parsing every card as :meth:`cards` does.

        Unless ``whole``, only the :data:`DUE_FIRST` most overdue cards are read (``due_cut`` says
        whether there were more), and not the ids of every card (``seen`` is None): the next
        item is almost always a due one among them, and a learner back after weeks may have
        thousands due. :func:`pick_next` on such an agenda says when it needs the whole one
        (:meth:`whole_agenda`). On ``conn`` when given (a request's one read connection)."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            reviewed, created = _TODAY.rows(c, {"learner_id": learner_id, "start": day_start(now, zone)})[0]
            due = (_DUE if whole else _DUE_FIRST).rows(c, {"learner_id": learner_id, "now": now})
            seen = _split(_SEEN.rows(c, {"learner_id": learner_id})[0][0]) if whole else None
        created_today = _split(created)
        cut = not whole and len(due) == DUE_FIRST
        return Agenda(seen, dict(due), len(created_today), created_today, _split(reviewed), due_cut=cut)  # type: ignore[arg-type]

    def whole_agenda(self, agenda: Agenda, learner_id: int, now: datetime, *, conn: Connection | None = None) -> Agenda:
        """``agenda`` (read at ``now``) made whole: the ids of every card, and every due card if
        only the most overdue were read."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            seen = agenda.seen
            if seen is None:
                seen = _split(_SEEN.rows(c, {"learner_id": learner_id})[0][0])
            due = agenda.due
            if agenda.due_cut:
                due = dict(_DUE.rows(c, {"learner_id": learner_id, "now": now}))  # type: ignore[arg-type]
        return replace(agenda, seen=seen, due=due, due_cut=False)

    def introduced(self, learner_id: int, fact: str, conn: Connection | None = None) -> bool:
        """Whether the learner has read the introduction of ``fact``."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            return _INTRODUCED.first(c, {"learner_id": learner_id, "fact": fact}) is not None

    def logs(self, learner_id: int) -> list[sa.Row]:
        with reading(self.engine) as conn:
            return list(
                conn.execute(
                    sa.select(review_logs).where(review_logs.c.learner_id == learner_id).order_by(review_logs.c.id)
                ).all()
            )
