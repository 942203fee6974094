"""A class report, pure: accuracy and attempts per item and per learner, the most-missed terms,
the neighbouring steps most often swapped, and who has fallen behind."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .catalog import Catalog, Family, main_gloss

OVERDUE_LIMIT = 10  # a learner with more overdue items than this has fallen behind
IDLE_DAYS = 7  # … or one who has not answered for this long


@dataclass(frozen=True)
class Tally:
    key: str
    label: str
    attempts: int
    correct: int
    learners: int = 0

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class LearnerRow:
    name: str
    attempts: int
    correct: int
    overdue: int
    last_answer: datetime | None
    behind: bool

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class ClassReport:
    items: tuple[Tally, ...]
    learners: tuple[LearnerRow, ...]
    missed_terms: tuple[Tally, ...]
    swapped_pairs: tuple[tuple[str, str, int], ...]  # (earlier step, later step, times swapped)
    rows: tuple[tuple[str, str, str, int, int], ...]  # learner, item id, label, attempts, correct


def item_label(item_id: str, catalog: Catalog) -> str:
    item = catalog.get(item_id)
    if item is None:
        return item_id
    if item.family == Family.VOCAB and item.term is not None:
        what = {"t2g": "词→义", "g2t": "义→词", "typed": "写词", "pinyin": "拼音"}[item.direction]
        return f"{item.term.term}（{main_gloss(item.term)}）· {what}"
    seq = item.sequence
    if item.direction == "next" and seq is not None:
        return f"{item.rite} · {seq.elements[item.window[0]].text} 之后"
    if seq is not None and item.direction in ("stages", "rite"):
        start, size = item.window
        return f"{item.rite} · 第{start + 1}–{start + size}节顺序"
    if seq is not None:
        start, size = item.window
        return f"{item.rite} · {seq.title} · 步骤{start + 1}–{start + size}"
    return item_id


def _swaps(answer_json: str) -> list[tuple[str, str]]:
    """Neighbouring items given the wrong way round in an order answer."""
    try:
        data = json.loads(answer_json)
    except (TypeError, ValueError):
        return []
    if not isinstance(data, dict) or "submitted" not in data:
        return []
    submitted, right = data["submitted"], data.get("right") or []
    out = []
    for a, b in zip(submitted, submitted[1:], strict=False):
        if a == b + 1 and a < len(right):
            out.append((right[b], right[a]))
    return out


def class_report(
    learner_names: Iterable[str], logs: Sequence[object], cards: Sequence[object], catalog: Catalog, now: datetime
) -> ClassReport:
    per_item: dict[str, list[bool]] = defaultdict(list)
    item_learners: dict[str, set[str]] = defaultdict(set)
    per_learner: dict[str, list[bool]] = defaultdict(list)
    last: dict[str, datetime] = {}
    per_pair: dict[tuple[str, str], list[bool]] = defaultdict(list)
    missed: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    swaps: Counter[tuple[str, str]] = Counter()
    for log in logs:
        name, item_id, ok = log.learner, log.item_id, bool(log.correct)  # type: ignore[attr-defined]
        per_item[item_id].append(ok)
        item_learners[item_id].add(name)
        per_learner[name].append(ok)
        per_pair[(name, item_id)].append(ok)
        at = log.reviewed_at  # type: ignore[attr-defined]
        last[name] = max(last.get(name, at), at)
        item = catalog.get(item_id)
        if item is not None and item.family == Family.VOCAB and item.term is not None:
            tried[item.term.term] += 1
            missed[item.term.term] += 0 if ok else 1
        swaps.update(_swaps(log.answer_json))  # type: ignore[attr-defined]
    overdue: Counter[str] = Counter(c.learner for c in cards if c.due <= now)  # type: ignore[attr-defined]
    items = sorted(
        (Tally(i, item_label(i, catalog), len(v), sum(v), len(item_learners[i])) for i, v in per_item.items()),
        key=lambda t: (t.accuracy, -t.attempts, t.key),
    )
    learners = []
    for name in sorted(set(learner_names) | set(per_learner)):
        answers = per_learner.get(name, [])
        seen = last.get(name)
        behind = overdue[name] > OVERDUE_LIMIT or seen is None or now - seen > timedelta(days=IDLE_DAYS)
        learners.append(LearnerRow(name, len(answers), sum(answers), overdue[name], seen, behind))
    terms = sorted(
        (Tally(t, t, tried[t], tried[t] - missed[t]) for t in missed if missed[t]),
        key=lambda t: (-(t.attempts - t.correct), t.accuracy, t.key),
    )[:10]
    pairs = tuple((a, b, n) for (a, b), n in swaps.most_common(10))
    rows = tuple(
        (name, item_id, item_label(item_id, catalog), len(v), sum(v)) for (name, item_id), v in sorted(per_pair.items())
    )
    return ClassReport(tuple(items), tuple(learners), tuple(terms), pairs, rows)


def report_csv(report: ClassReport) -> str:
    """The report's rows (learner × item) as CSV, formulas neutralised for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["learner", "item", "label", "attempts", "correct", "accuracy"])
    for name, item_id, label, attempts, correct in report.rows:
        writer.writerow([_cell(name), item_id, _cell(label), attempts, correct, f"{correct / attempts:.2f}"])
    return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
