"""Helpers for ordered lists and stable fact ids. The Anki decks and the web quiz both use them.

Small tools for teaching the order of a rite's stages and of a stage's steps:

- :func:`short_label` / :func:`labels`: a short label (at most :data:`LABEL_MAX` characters) for
  a step or stage, shown on order cards while the full sentence goes on the back.
  ``labels(texts)`` labels a whole list and makes every label unique within it.
- :func:`windows`: overlapping windows of at most ``size`` items over a list. Every two
  neighbours share at least one window, so the order across window edges is taught too.
- :func:`in_sequence`: whether a stage's steps are acts in order (not rules or cases: 士相見禮's
  言視之法, 稱辭), so that they get order cards.
- :func:`stage_names`: the stage names of a rite, with a repeated name numbered
  (``取矢视算〔一〕``, ``取矢视算〔二〕``), so no two questions look the same but have
  different answers.
- :func:`fact_id`, :func:`term_fact`, :func:`passage_fact`, :func:`window_fact`: the stable id
  of what a card or quiz item teaches. The Anki note GUID is made from it
  (``genanki.guid_for(*fact.split(FACT_SEP))``). The web quiz uses it to keep related questions
  off the same day. It is built from identities only (rite, stage id, kind, normalised term,
  sense number, element ids), never from a field's text, so correcting a gloss or a sentence
  keeps the fact.

Example::

    from study.decks.sequences import labels, windows, stage_names, window_fact
    names = stage_names(rite)                      # {stage.id: "取矢视算〔二〕", …}
    for start, part in windows(seq.elements, 6):   # ≤ 6 items, neighbours shared
        fact = window_fact(seq.id, part[0].id)     # "order:steps:乡射礼.取矢:乡射礼.取矢#0.0"
        shown = labels([e.text for e in seq.elements])[start : start + len(part)]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from ..model import Rite
from ..terms.lexicon import categories
from ..text.clauses import Guide, Split, default_guide, safe_cut, split
from ..text.normalize import normalize

LABEL_MAX = 16  # characters of a label, the ellipsis included
WINDOW = 6  # items per order card window by default
ELLIPSIS = "…"
FACT_SEP = ":"
_PUNCT = "，。；：！？、,.;:!?「」『』【】（）() \u3000"
_MIN_CLAUSE = 4  # a first clause shorter than this takes the next one too (「賔对」 → 「賔对，主人坐」)
_NUMERALS = "一二三四五六七八九十"
_BARE = set("乃遂既则若又次无")  # a first clause of one of these alone says nothing of its step
_MARK = re.compile(r"【[^】]*】")  # the book's own sentence marks (【句】)
_CASE = tuple(normalize(w) for w in ("凡", "若"))  # a step opening so states a rule or a case
_THEN, _MAY, _CASE_HEAD = normalize("則"), normalize("可也"), 8  # …則… in its first 8 characters; …可也

T = TypeVar("T")


@lru_cache(maxsize=1)
def _words() -> tuple[str, ...]:
    """The lexicon's words of two characters or more (normalised): a label never ends inside one."""
    return tuple(w for w in categories() if len(w) > 1)


def _show(sp: Split, end: int) -> str:
    """``sp.plain`` up to ``end``, with a ， where the text itself marked a clause end inside it."""
    if sp.own:
        out, start = [], 0
        for at in sorted(e for e in sp.own if e < end):
            out.append(sp.plain[start:at])
            start = at
        out.append(sp.plain[start:end])
        return "，".join(x for x in out if x)
    return sp.plain[:end]


def _fit(sp: Split, end: int, limit: int) -> str:
    """The label for a clause ending at ``end``: whole when it fits, else cut where a word ends."""
    shown = _show(sp, end)
    if len(shown) <= limit:
        return shown
    cut = safe_cut(sp, limit - 1)
    while cut > 1 and len(_show(sp, cut)) > limit - 1:
        cut = safe_cut(sp, cut - 1)
    return _show(sp, cut) + ELLIPSIS


def _split(text: str, guide: Guide | None) -> Split:
    return split(text, guide=default_guide() if guide is None else guide, words=_words())


def short_label(
    text: str, *, summary: str | None = None, limit: int = LABEL_MAX, clauses: int = 1, guide: Guide | None = None
) -> str:
    """A short label for a step or stage: ``summary`` if given (e.g. the commentary's own summary
    of the step), else the first ``clauses`` clauses of ``text``.

    Clause ends come from :mod:`study.text.clauses`: the text's own punctuation and 【句】 marks,
    else the punctuation of ``guide`` (default: the punctuated texts beside the book) where it
    holds the same words, else the rules for ritual prose. A very short first clause (under 4
    characters, as 「賔对」) takes the next one as well, if that still fits — and if not, cut where
    a word ends, when the short one says nothing of the step: a connective alone (「無」, 「乃」) or
    words opening a speech (「賓對曰」). A clause longer than ``limit`` is cut where a word ends and marked with …;
    the result is never empty when ``text`` has a character that is not punctuation.

    >>> short_label("主人坐取爵于上篚以降，賔降。")
    '主人坐取爵于上篚以降'
    >>> short_label("賔对。主人坐取爵。")
    '賔对，主人坐取爵'
    >>> short_label("主人戒賔賔禮辭許主人再拜賔答拜")
    '主人戒賔'
    """
    if summary and summary.strip(_PUNCT):
        sp = split(summary.strip(_PUNCT), words=_words())
        return _fit(sp, len(sp.plain), limit)
    sp = _split(text, guide)
    if not sp.plain:
        return _cut(text.strip(), limit)
    ends = sp.ends
    take = min(clauses, len(ends))
    if take == 1 and len(ends) > 1 and ends[0] < _MIN_CLAUSE:
        if len(_show(sp, ends[1])) <= limit or _says_nothing(sp.plain[: ends[0]]):
            take = 2  # 「無」, 「賓對曰」 tell nothing: the next clause too, cut where a word ends if it must be
    return _fit(sp, ends[take - 1], limit)


def _says_nothing(clause: str) -> bool:
    """A first clause that names no act of the step: a connective alone (無, 乃, 次), or the opening
    of a speech (賓對曰, 命筮曰)."""
    key = normalize(clause)
    return key in _BARE or key.endswith("曰")


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: cut at the limit with an ellipsis when longer."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def labels(texts: Sequence[str], *, limit: int = LABEL_MAX, guide: Guide | None = None) -> list[str]:
    """A label for each of ``texts`` (see :func:`short_label`), unique within the list.

    Labels that come out the same are lengthened clause by clause while they still fit in
    ``limit`` uncut, else cut where a word ends if that tells them apart (尸又三飯告飽祝侑之如初舉胳…
    and …舉肩…: a number would not say which is which); those still the same are numbered 〔一〕,
    〔二〕 … in list order (the number counts toward ``limit``; a label cut to make room ends where
    a word ends). Identical texts get numbered labels.
    """
    out = [short_label(t, limit=limit, guide=guide) for t in texts]
    for extra in range(2, 6):
        dup = {k for k, n in Counter(out).items() if n > 1}
        if not dup:
            return out
        for i, t in enumerate(texts):
            if out[i] in dup:
                longer = short_label(t, limit=limit, clauses=extra, guide=guide)
                if ELLIPSIS not in longer or ELLIPSIS in out[i]:
                    out[i] = longer
    for label in {k for k, n in Counter(out).items() if n > 1}:
        group = [i for i, x in enumerate(out) if x == label]
        cut = [short_label(texts[i], limit=limit, clauses=5, guide=guide) for i in group]
        if len(set(cut)) == len(cut) and not set(cut) & set(out):
            for i, x in zip(group, cut, strict=True):
                out[i] = x
    counts = Counter(out)
    seen: Counter[str] = Counter()
    for i, label in enumerate(out):
        if counts[label] > 1:
            seen[label] += 1
            mark = f"〔{numeral(seen[label])}〕"
            room = limit - len(mark)
            base = label.rstrip(ELLIPSIS)
            if len(base) > room:
                sp = split(base, words=_words())
                base = _show(sp, safe_cut(sp, room - 1)) + ELLIPSIS
            out[i] = base + mark
    return out


def states_a_rule(text: str) -> bool:
    """Whether a step says what is done in a case, or always, rather than an act in its place: it
    opens with 凡 (whenever) or 若 (if), says 則 in its first words (士大夫則奠摯…, 非以君命使則不稱…),
    or ends 可也 (may: 夜侍坐問夜膳葷請退可也)."""
    key = normalize(_MARK.sub("", text)).strip(_PUNCT)
    return key.startswith(_CASE) or _THEN in key[:_CASE_HEAD] or key.endswith(_MAY)


def in_sequence(texts: Sequence[str]) -> bool:
    """Whether a stage's steps are a sequence of acts, to be learnt in order: not when most of them
    state a rule or a case (:func:`states_a_rule`) — 士相見禮's 言視之法 (「凡言非對也…」, 「與君言言
    使臣…」, 「凡與大人言…」) and 稱辭 are rules of speech and looking, 侍飲食于君 what is done if the
    lord gives food, if he gives a cup: their order is only the order the text tells them in."""
    return sum(map(states_a_rule, texts)) * 2 <= len(texts)


def numeral(n: int) -> str:
    """1 → 一, 12 → 十二, 25 → 二十五 (up to 99)."""
    if n <= 10:
        return _NUMERALS[n - 1]
    tens, ones = divmod(n, 10)
    return (_NUMERALS[tens - 1] if tens > 1 else "") + "十" + (_NUMERALS[ones - 1] if ones else "")


def windows(items: Sequence[T], size: int = WINDOW, overlap: int = 1) -> list[tuple[int, tuple[T, ...]]]:
    """Overlapping windows ``(start, items)`` of at most ``size`` items covering ``items``.

    Each window starts ``size - overlap`` after the one before, so two neighbours always share a
    window (``overlap`` ≥ 1), and the last window ends at the last item (it may then overlap its
    predecessor by more). A list no longer than ``size`` is one window; an empty list none.

    >>> [s for s, _ in windows(range(14), 6, 1)]
    [0, 5, 8]
    """
    n = len(items)
    if size < 2:
        raise ValueError("a window holds at least two items")
    overlap = min(max(overlap, 1), size - 1)
    if n == 0:
        return []
    if n <= size:
        return [(0, tuple(items))]
    starts = list(range(0, n - size + 1, size - overlap))
    if starts[-1] != n - size:
        starts.append(n - size)
    return [(s, tuple(items[s : s + size])) for s in starts]


def stage_names(rite: Rite) -> dict[str, str]:
    """Each named stage's id → its name, numbered 〔一〕, 〔二〕 … in text order when the rite names
    two stages alike (乡射礼 has 取矢视算 and 饮不胜者 twice). Unnamed stages are left out."""
    counts = Counter(normalize(s.name) for s in rite.stages if s.name)
    seen: Counter[str] = Counter()
    out: dict[str, str] = {}
    for s in rite.stages:
        if not s.name:
            continue
        key = normalize(s.name)
        if counts[key] > 1:
            seen[key] += 1
            out[s.id] = f"{s.name}〔{numeral(seen[key])}〕"
        else:
            out[s.id] = s.name
    return out


def fact_id(kind: str, *parts: object) -> str:
    """The stable id of one fact: ``kind`` and its identity ``parts`` joined by ``:``.

    Parts are identities (ids, normalised terms, numbers), never display text. ``fact.split(":")``
    gives back the parts as long as none contains ``:`` (the ids of study.decks never do).
    """
    return FACT_SEP.join([kind, *(str(p) for p in parts)])


def term_fact(rite: str, term: str, sense: int = 0) -> str:
    """A term's sense in a rite: ``term:乡射礼:中`` (first sense), ``term:乡射礼:中:2`` (third).

    ``term`` is normalised here; sense 0 is the term's first (or only) sense and has no number,
    so the id of a term with one sense is the same as before senses were told apart.
    """
    rite_key, key = normalize(rite), normalize(term)
    return fact_id("term", rite_key, key) if sense == 0 else fact_id("term", rite_key, key, sense)


def passage_fact(unit_id: str, kind: str = "passage") -> str:
    """A unit of text (a sentence group of a passage): ``passage:<unit id>``, or ``cloze:<unit id>``
    for the cloze over the same unit (a different fact: the terms inside it, not its meaning)."""
    return fact_id(kind, unit_id)


def window_fact(sequence_id: str, first_id: str) -> str:
    """A window of an ordered list, by the list's id and the id of its first element:
    ``order:stages:乡射礼:乡射礼.速宾``. Adding an element after the window keeps the id."""
    return fact_id("order", sequence_id, first_id)
