"""Grading answers: tolerant typed matching, ordering with partial credit, and the FSRS rating.

Ordering modes follow Moodle's ordering question:

- ``all_or_nothing``: 1 if every item is in place, else 0;
- ``absolute_position``: the share of items in their right position;
- ``relative_next``: the share of items (all but the last) followed by their right successor;
- ``longest_subsequence``: the longest run of items in the right relative order (not necessarily
  adjacent), as a share of all items.

Rating rule (documented in the README): all right and within ``fast_seconds`` → Easy; all right →
Good; score ≥ 0.6 → Hard; otherwise Again.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..text.normalize import search_key

HARD_THRESHOLD = 0.6


class OrderMode(StrEnum):
    ALL_OR_NOTHING = "all_or_nothing"
    ABSOLUTE_POSITION = "absolute_position"
    RELATIVE_NEXT = "relative_next"
    LONGEST_SUBSEQUENCE = "longest_subsequence"


class RatingName(StrEnum):
    AGAIN = "again"
    HARD = "hard"
    GOOD = "good"
    EASY = "easy"


@dataclass(frozen=True)
class OrderGrade:
    score: float
    misplaced: tuple[int, ...]  # positions (in the submitted order) of items not where they belong

    @property
    def correct(self) -> bool:
        return not self.misplaced


def _longest_increasing(values: Sequence[int]) -> int:
    tails: list[int] = []
    for v in values:
        i = bisect.bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)


def grade_order(submitted: Sequence[int], mode: OrderMode = OrderMode.LONGEST_SUBSEQUENCE) -> OrderGrade:
    """Grade a submitted order, given as the right positions of the items in the order chosen.

    ``submitted[k]`` is the correct index of the item the learner put at place ``k``; the right
    answer is therefore ``0, 1, …, n-1``.
    """
    n = len(submitted)
    if sorted(submitted) != list(range(n)):
        raise ValueError("the submitted order must be a permutation of 0..n-1")
    misplaced = tuple(k for k, right in enumerate(submitted) if right != k)
    if n <= 1:
        return OrderGrade(1.0, ())
    if mode == OrderMode.ALL_OR_NOTHING:
        score = 0.0 if misplaced else 1.0
    elif mode == OrderMode.ABSOLUTE_POSITION:
        score = (n - len(misplaced)) / n
    elif mode == OrderMode.RELATIVE_NEXT:
        score = sum(1 for a, b in zip(submitted, submitted[1:], strict=False) if b == a + 1) / (n - 1)
    else:
        score = _longest_increasing(submitted) / n
    return OrderGrade(round(score, 4), misplaced)


def rating_for(score: float, *, seconds: float | None = None, fast_seconds: float = 10.0) -> RatingName:
    """The FSRS rating for a score in [0, 1] and the time the answer took."""
    if score >= 1.0:
        return RatingName.EASY if seconds is not None and seconds <= fast_seconds else RatingName.GOOD
    if score >= HARD_THRESHOLD:
        return RatingName.HARD
    return RatingName.AGAIN


def _strip_tones(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower().replace("ü", "v").replace("u:", "v"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def pinyin_key(text: str) -> str:
    """Pinyin without tones, digits, spaces or punctuation: 「shèng shǐ」 = 「sheng4shi3」 = 「shengshi」."""
    return re.sub(r"[^a-z]", "", _strip_tones(text).replace("v", "u"))


_MARK_TONE = {"\u0304": "1", "\u0301": "2", "\u030c": "3", "\u0300": "4"}


def pinyin_tones(text: str) -> tuple[str, str]:
    """(letters, tones in order) of pinyin typed with tone marks or tone numbers:
    「zūn」 = 「zun1」 = ("zun", "1"); a neutral tone (5, 0 or no mark) counts as none."""
    decomposed = unicodedata.normalize("NFD", text.lower().replace("u:", "ü"))
    tones = "".join(_MARK_TONE.get(ch, ch if ch in "1234" else "") for ch in decomposed)
    letters = re.sub(r"[^a-z]", "", _strip_tones(text).replace("v", "u"))
    return letters, tones


def typed_matches(answer: str, expected: Sequence[str], *, pinyin: bool = False) -> bool:
    """Tolerant match: variants and traditional forms equal their standard simplified form
    (賔 = 宾), punctuation and spaces are ignored. Pinyin is graded tone-exact (zun1 ≠ zun4), typed
    with tone marks or tone numbers; each accepted reading (「zuò」 and 「cù」 where references allow
    two) is a correct answer."""
    if pinyin:
        key = pinyin_tones(answer)
        return bool(key[0]) and any(key == pinyin_tones(e) for e in expected)
    key = search_key(answer)
    return bool(key) and any(key == search_key(e) for e in expected)
