"""Choosing what a learner studies next, pure: the learner's day (from 4 a.m. in their time zone),
what their cards say about today (:class:`Agenda`), and the next item — due items first, then new
ones in the text's order, a daily limit of new items per family, related questions never the same
day."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

import fsrs

from .accounts import DEFAULT_TIME_ZONE, zone_of
from .catalog import QuizItem, family_of_id

MASTERED_DAYS = 21.0  # FSRS stability (days) from which an item counts as mastered
DAY_STARTS = time(4)  # a learner's day starts at 4 a.m. in their time zone (as Anki's)
DEFAULT_ZONE = zone_of(DEFAULT_TIME_ZONE)
NEVER = datetime(9999, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class CardRow:
    item_id: str
    card: fsrs.Card
    due: datetime
    reps: int
    created_at: datetime


@dataclass(frozen=True)
class Agenda:
    """What choosing a learner's next item needs of their cards, read without parsing them."""

    # items the learner has a card for; None when not read (ReviewStore.agenda reads them only
    # for a whole agenda: choosing a due item needs none of them)
    seen: frozenset[str] | None
    # items due now, each with a key that sorts as its due time does (the datetime, or as read
    # from the database: SQLite's fixed-width text, so ~300 rows need no datetime parsing)
    due: dict[str, Any]
    started_today: int  # cards first reviewed since the learner's day began
    created_today: frozenset[str] = frozenset()  # those cards
    reviewed_today: frozenset[str] = frozenset()  # items answered since the day began
    # ``due`` holds only the most overdue cards, in due order (ReviewStore.agenda): more are due
    due_cut: bool = False

    @classmethod
    def of(cls, known: dict[str, CardRow], now: datetime, zone: tzinfo = DEFAULT_ZONE) -> Agenda:
        start = day_start(now, zone)
        created = frozenset(i for i, c in known.items() if c.created_at >= start)
        return cls(frozenset(known), {i: c.due for i, c in known.items() if c.due <= now}, len(created), created)

    def new_today(self, family: str) -> int:
        return sum(1 for i in self.created_today if family_of_id(i) == family)


class WholeAgendaNeeded(Exception):
    """:func:`pick_next` cannot choose from a cut agenda (``due_cut``, or ``seen`` not read):
    read the whole one."""


def day_start(now: datetime, zone: tzinfo = DEFAULT_ZONE) -> datetime:
    """When the learner's day began (4 a.m. in ``zone``), in UTC."""
    local = now.astimezone(zone)
    start = datetime.combine(local.date(), DAY_STARTS, tzinfo=zone)
    if local < start:
        start = datetime.combine(local.date() - timedelta(days=1), DAY_STARTS, tzinfo=zone)
    return start.astimezone(UTC)


def pick_next(
    items: Sequence[QuizItem],
    agenda: Agenda,
    *,
    new_limit: int,
    facts: Mapping[str, str] | None = None,
    by_id: Mapping[str, QuizItem] | None = None,
    related: Mapping[str, Sequence[str]] | None = None,
) -> QuizItem | None:
    """Due items first (the most overdue first), then new items in the text's order, at most
    ``new_limit`` new items a day of each family (vocabulary, order …), so that one family's
    limit never closes another's.

    ``by_id`` (``items`` by id) makes finding the due ones quick. An item whose fact (``facts``:
    item id → fact, default the item's own) another item was answered about today waits for
    another day: related questions never come the same day. ``related`` (fact → the ids of every
    item about it, :attr:`Catalog.related`, with ``facts``) finds that for the few due items from
    their related items rather than from the facts of everything answered today (which the scan
    of new items makes once).

    A cut agenda (``due_cut``: only the most overdue cards) raises :class:`WholeAgendaNeeded`
    when none of its due cards fits, or the one chosen ties with a card that may be cut off; so
    does an agenda without ``seen`` when no due item fits (a new item is one without a card).
    """

    def fact(item_id: str) -> str:
        return facts.get(item_id, item_id) if facts is not None else item_id

    today = agenda.reviewed_today | agenda.created_today
    busy: set[str] | None = None  # the facts of today's answers, made once many items are considered

    def blocked(item: QuizItem, *, many: bool = False) -> bool:
        nonlocal busy
        if item.id in today:
            return False
        if related is not None and not many:  # a few items: look up each one's related items
            return any(i in today for i in related.get(fact(item.id), ()))
        if busy is None:
            busy = {fact(i) for i in today}
        return fact(item.id) in busy

    first: tuple[Any, QuizItem] | None = None  # the most overdue due item that fits, the text's first of a tie
    if by_id is not None:  # the due cards are few: look them up rather than scan every item
        many = 4 * len(agenda.due) > len(today)  # (an item has a few related ones: which check is less work)
        for k, when in sorted(agenda.due.items(), key=_when):  # most overdue first: stop after the first fit
            if first is not None and when != first[0]:
                break
            item = by_id.get(k)
            if (
                item is not None
                and not blocked(item, many=many)
                and (first is None or item.sort_key < first[1].sort_key)
            ):
                first = (when, item)
    else:
        due = [(agenda.due[i.id], i.sort_key, i) for i in items if i.id in agenda.due and not blocked(i, many=True)]
        if due:
            when, _, item = min(due, key=lambda t: (t[0], t[1]))
            first = (when, item)
    if first is not None:
        if agenda.due_cut and first[0] == max(agenda.due.values()):
            raise WholeAgendaNeeded  # cards due at that very time may have been cut off
        return first[1]
    if agenda.due_cut or agenda.seen is None:
        raise WholeAgendaNeeded  # none of the most overdue fits: the others may; new items need every card
    counts: dict[str, int] = {}
    for item in items:
        if item.id in agenda.seen or blocked(item, many=True):
            continue
        family = str(item.family)
        if family not in counts:
            counts[family] = agenda.new_today(family)
        if counts[family] < new_limit:
            return item
    return None


def _when(entry: tuple[str, Any]) -> Any:
    return entry[1]


def next_due(
    items: Iterable[QuizItem], known: dict[str, CardRow], now: datetime, zone: tzinfo = DEFAULT_ZONE
) -> datetime:
    """When something is next due: the earliest card, or tomorrow when new items are waiting."""
    ids = {i.id for i in items}
    dues = [c.due for c in known.values() if c.item_id in ids]
    tomorrow = day_start(now, zone) + timedelta(days=1)
    waiting_new = any(i not in known for i in ids)
    blocked = any(d <= now for d in dues)  # due, but a related question was answered today
    candidates = [d for d in dues if d > now] + ([tomorrow] if waiting_new or blocked else [])
    return min(candidates) if candidates else tomorrow
