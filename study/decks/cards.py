"""The notes of a deck, as plain data (no genanki): terms, passages, clozes and orders.

Every field is HTML made by :mod:`.markup`, so all text from the corpus, the glossary and the
teacher's spec is escaped exactly once. A note's fields depend only on its identity (its fact,
:mod:`.sequences`) and on the rite's text and terms, never on which stages or other rites a spec
chose: the same note is the same in every package. A spec option that changes a note (a teacher's
glosses, another cloze limit) gives it another identity and the spec's own deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..model import Document, Gloss, Passage, Term
from ..terms.reading import term_reading_at
from ..terms.senses import senses_at
from ..text.commentary import NEW_NOTE
from ..text.normalize import normalize
from ..text.translation import known_as
from .clozehints import RiteHints, cloze_hint, shared_glosses
from .clozespans import cloze_spans, inside_word
from .markup import cloze_text, esc, find_all, items, leave_out, ruby, span
from .newcards import schedule
from .notedata import KIND_TAGS, NoteData, custom_deck, printed_label, rite_deck, stage_label, tag
from .ordercards import order_notes
from .selection import RiteChoice, Selection
from .sequences import passage_fact
from .sources import Places, place
from .termcards import RANK as TERM_RANK
from .termcards import RiteTerms, context, stage_number, term_notes
from .units import Unit, passage_units

DEFAULT_CLOZE = 6
ORDER_SHARE = 0.35  # order cards at most this share of a rite's cards
_RANK = {"terms": TERM_RANK, "units": 1, "steps": 3, "stages": 4}


def _rite(selection: Selection, name: str) -> RiteChoice:
    return next(c for c in selection.rites if c.rite.name == name)


def _unit_commentary(passage: Passage, units: list[Unit]) -> list[list[str]]:
    """The commentary segments (as HTML list items) of each unit: a segment goes with the unit
    whose text its 【…】 follows."""
    bounds, total = [], 0
    for u in units:
        total += len(u.text)
        bounds.append(total)
    starts: list[tuple[int, int, int]] = []  # (first line, last line, text offset) of each 【…】
    offset = 0
    for piece in passage.pieces:
        if piece.kind == "text":
            offset += len(piece.text)
        elif piece.kind == "commentary":
            starts.append((piece.line, piece.end, offset))
    out: list[list[str]] = [[] for _ in units]
    for s in passage.commentary:
        at = next((o for first, last, o in starts if first <= s.line <= last), total)
        k = next((i for i, b in enumerate(bounds) if at <= b), len(units) - 1)
        out[k].append(_segment(s.text, s.speaker))
    return out


def _segment(text: str, speaker: str | None) -> str:
    """A commentary segment as an HTML list item's content, its speaker named as the book writes
    them with the usual name beside it: 「敖君善（敖繼公）曰…」 where the words open with the name
    (never labelled a second time), else a label 「康成（鄭玄）」 before them."""
    if not speaker:
        return esc(text)
    at = len(text) - len(text.lstrip(NEW_NOTE))
    if not text.startswith(speaker, at):
        return span("who", known_as(speaker)) + esc(text)
    end = at + len(speaker)
    return esc(text[:at] + known_as(speaker) + text[end:])


def _shown_elsewhere(key: str, spans: list[tuple[int, int, Term]], same: Callable[[Term, int], bool]) -> set[str]:
    """The terms (normalised) of ``spans`` that ``key`` (the unit, normalised) still shows, unblanked:
    a blank of such a term is answered from the card itself. Shown is an occurrence standing as a word
    of its own (賔厭介…介厭衆賔: the second 厭, which the gloss's window does not reach; 卒洗 beside
    the blanks of 洗 the basin — the student reads the answer's character whatever its sense), or one
    inside a longer word in the sense a blank asks (``same``: a gloss of the term explains it — 卒觶
    beside the blanks of 觶, not blanked there as it would cut the word). Inside another word in
    another sense it is none (洗 of 盥洗 beside the blanks of 洗 the basin). Another term's blank hides
    nothing: the card of one cloze number shows the others' answers (命釋獲者 beside 請【釋獲】)."""
    out = set()
    for t in {t.normalized: t for _, _, t in spans}.values():
        # only its own blanks hide it: its card shows the other terms' answers (釋獲者 beside 【釋獲】)
        own = {start for start, _, u in spans if u.normalized == t.normalized}
        if any(
            at not in own and (not inside_word(key, at, end) or same(t, at)) for at, end in find_all(key, t.normalized)
        ):
            out.add(t.normalized)
    return out


def _all_blank(key: str, spans: list[tuple[int, int, Term]]) -> bool:
    """Whether the blanks cover every character of the passage (``key``, normalised) but punctuation."""
    blank = set()
    for start, end, _ in spans:
        blank.update(range(start, end))
    return all(i in blank or not ch.strip("，。；：、！？ ") for i, ch in enumerate(key))


def cloze_note(
    selection: Selection,
    c: RiteChoice,
    unit_id: str,
    unit: Unit,
    seen: set[str],
    base: NoteData,
    places: Places,
    rite_hints: RiteHints,
):
    """A cloze over the glossed terms of a unit not yet clozed in its stage (``seen``; every
    occurrence of a term shares its number); None when there is none, or when the blanks would be
    the whole passage (its 义→词 card asks that). Its back lists each blanked term's glosses (at
    most three) each with its commentator, as the term cards name them.

    A term is blanked only where a blank of it has a hint (:mod:`.clozehints`) — its other blanks
    in the unit are answered with it; a term with none stays in the text, its number left unused
    (every other card keeps its number; counted in ``rite_hints.unasked``), and a unit with no term
    left makes no note."""
    spec = selection.spec
    pool = [t for t in selection.cloze_pools.get(c.rite.name, ()) if t.normalized not in seen]
    stage_id = unit_id.partition("#")[0]
    number = next((stage_number(c, s) for s in c.rite.stages if s.id == stage_id), None)

    def glossed(t: Term, at: int) -> bool:  # an occurrence no gloss explains is not blanked
        return bool(senses_at(t, unit.text, at, c.rite.name, stage_id))

    spans = cloze_spans(unit.text, pool, max_terms=spec.max_cloze, fits=glossed)
    if not spans or _all_blank(normalize(unit.text), spans):
        return None  # a blank for the whole passage leaves nothing to recall it from (喪服's 「[...]」: 庶婦)
    seen.update(t.normalized for _, _, t in spans)
    numbers: dict[str, int] = {}
    for _, _, t in spans:
        numbers.setdefault(t.normalized, len(numbers) + 1)
    text, pos, out = unit.text, 0, []
    here = [senses_at(t, text, start, c.rite.name, stage_id) for start, _, t in spans]  # each occurrence's sense
    hints = [cloze_hint(t, gl, rite_hints.shared) for (_, _, t), gl in zip(spans, here, strict=True)]
    asked = {t.normalized for (_, _, t), hint in zip(spans, hints, strict=True) if hint}
    asked -= _shown_elsewhere(normalize(text), [s for s in spans if s[2].normalized in asked], glossed)
    rite_hints.unasked += len(numbers) - len(asked)
    if not asked:
        return None  # no blank a student could answer from the card
    senses: dict[str, tuple[Gloss, ...]] = {}  # per term, the glosses of its occurrences here, in order
    for (start, end, t), gl, hint in zip(spans, here, hints, strict=True):
        if t.normalized not in asked:
            continue
        senses[t.normalized] = (*senses.get(t.normalized, ()), *gl)
        out += [
            cloze_text(text[pos:start]),
            f"{{{{c{numbers[t.normalized]}::{cloze_text(text[start:end])}{'::' + cloze_text(hint) if hint else ''}}}}}",
        ]
        pos = end
    out.append(cloze_text(text[pos:]))
    spans = [s for s in spans if s[2].normalized in asked]
    terms = {t.normalized: t for _, _, t in spans}
    first: dict[str, int] = {}  # where each term is first blanked: its reading there
    for start, _, t in spans:
        first.setdefault(t.normalized, start)
    glossed = [
        ruby(t.term, term_reading_at(t, text, first[t.normalized]))
        + "；".join(_gloss_said(g, places) for g in _distinct(senses.get(t.normalized) or t.glosses)[:3])
        for t in terms.values()
    ]
    custom = () if spec.max_cloze == DEFAULT_CLOZE else (f"max{spec.max_cloze}",)
    variant = f"（{spec.name}）" if custom else ""  # a variant never shows a standard note's front
    fields = (
        ("Text", "".join(out)),
        ("Glosses", items(glossed, "glosses")),
        ("Translation", base.field("Translation")),
        ("Commentary", base.field("Commentary")),
        (
            "Context",
            esc(leave_out(base.plain[0] if base.plain else "", [t.term for t in terms.values()], number) + variant),
        ),
        ("Source", base.field("Source")),
    )
    deck = custom_deck(spec.name, c.rite.name) if custom else base.deck
    identity = (*passage_fact(unit_id, "cloze").split(":", 1), *custom)
    return replace(base, kind="cloze", model="cloze", identity=identity, deck=deck, fields=fields, cards=len(asked),
                   tags=(tag(KIND_TAGS["cloze"]), base.tags[-1]), plain=None)  # fmt: skip


def _distinct(glosses: Sequence[Gloss]) -> list[Gloss]:
    """The first gloss of each distinct wording, in order."""
    out: dict[str, Gloss] = {}
    for g in glosses:
        out.setdefault(g.gloss, g)
    return list(out.values())


def _gloss_said(g: Gloss, places: Places) -> str:
    """A gloss with who gave it (never a file name): 「陛也《说文解字》」「主階也 蔡德晉」."""
    who = places.who(g)
    return span("gloss", g.gloss) + (span("who", who) if who else "")


def unit_notes(
    selection: Selection, c: RiteChoice, places: Places, unasked: Counter[str] | None = None
) -> list[NoteData]:
    """Per unit of each chosen passage: a 经→译 note (and a later 译→经 note) when the unit is short
    and has its translation, and a cloze note over its glossed terms."""
    spec, out = selection.spec, []
    chosen = {s.id for s in c.stages}
    rite_hints = RiteHints(shared_glosses(selection.cloze_pools.get(c.rite.name, ())))
    for stage in c.rite.stages:
        if stage.id not in chosen:
            continue
        where_in = context(c.rite.name, stage.name, stage.modern_name)
        seen: set[str] = set()  # a term is clozed once per stage
        for p_index, passage in enumerate(stage.passages):
            if not passage.text:
                continue
            units = passage_units(passage)
            notes = _unit_commentary(passage, units)
            first_line = passage.lines[0] if passage.lines else None  # its page and line in the printed book
            where = esc(place(c.document, c.rite, stage, printed=printed_label(c.document, first_line)))
            for k, unit in enumerate(units):
                unit_id = f"{stage.id}#{p_index}.{unit.key}"
                before = units[k - 1].text if k else ""
                base = NoteData(
                    "passages",
                    "passage",
                    tuple(passage_fact(unit_id).split(":", 1)),
                    rite_deck(c.document, c.rite),
                    (
                        ("Passage", esc(unit.text)),
                        ("Translation", esc(unit.translation)),
                        ("Before", esc(before)),
                        ("Commentary", items(notes[k], "commentary")),
                        ("Context", esc(where_in)),
                        ("Source", where),
                    ),
                    (tag(KIND_TAGS["passages"]), tag(c.rite.name, stage_label(stage.name))),
                    (c.index, c.position(stage), _RANK["units"], p_index, unit.first),
                    1,
                    (where_in, unit.translation or ""),
                )
                if "passages" in spec.kinds and unit.translation and unit.atomic:
                    out.append(replace(base, plain=(unit.text, unit.translation)))
                    out.append(
                        replace(
                            base,
                            model="passage_reverse",
                            identity=("passage", "reverse", base.identity[1]),
                            plain=(unit.translation, unit.text),
                            later_than=base.fact,
                        )
                    )
                if "cloze" in spec.kinds:
                    note = cloze_note(selection, c, unit_id, unit, seen, base, places, rite_hints)
                    if note is not None:
                        out.append(replace(note, order=(*base.order, 1)))
    if unasked is not None:
        unasked[tag(c.rite.name)] += rite_hints.unasked
    return out


def make_notes(
    selection: Selection, references: Sequence[Document] = (), unasked: Counter[str] | None = None
) -> list[NoteData]:
    """Every note of the deck, each with its new-card position (``due``): see :mod:`.newcards`.

    ``references``: every text a curated gloss may quote (``file:line``), so that its source reads
    the same in words whichever texts the spec chose. ``unasked``, if given, is filled with the
    cloze cards of each rite (by its tag) not made for want of a hint.
    """
    spec = selection.spec
    places = Places([*references, *(c.document for c in selection.rites)])
    notes: list[NoteData] = []
    if "terms" in spec.kinds:
        rites = {c.rite.name: RiteTerms(c, selection.cloze_pools[c.rite.name]) for c in selection.rites}
        for choice in selection.terms:
            notes += term_notes(selection, choice, places, rites[choice.rite])
    unasked = Counter() if unasked is None else unasked  # per rite, cloze cards not made for want of a hint
    for c in selection.rites:
        notes += unit_notes(selection, c, places, unasked)
    for kind in ("stages", "steps"):
        if kind in spec.kinds:
            notes += order_notes(selection, kind, rank=_RANK[kind])
    return schedule(_cap_order(notes, unasked))


def _cap_order(notes: list[NoteData], unasked: Counter[str] | None = None) -> list[NoteData]:
    """Keep order cards at most :data:`ORDER_SHARE` of each rite's cards (when the deck has other
    cards): the step lists of the shortest stages go first, the rite's stage list last (a list
    goes whole). A cloze card not made for want of a hint (``unasked``) still counts among the
    rite's cards: the share measures the text, not which of its terms a gloss can hint."""
    out = list(notes)
    for rite in dict.fromkeys(_rite_of(n) for n in notes):
        mine = [n for n in out if _rite_of(n) == rite]
        order = sum(n.cards for n in mine if n.kind in ("stages", "steps"))
        total = sum(n.cards for n in mine)
        if order == total:
            continue
        total += (unasked or Counter())[rite]
        lists: dict[str, list[NoteData]] = {}
        for n in mine:
            if n.kind in ("steps", "stages"):
                lists.setdefault(n.identity[1] + ":" + n.identity[2], []).append(n)
        # step lists, shortest first; the rite's stage list last (a rite of a few lines: 巡守禮)
        for key in sorted(lists, key=lambda k: (lists[k][0].kind == "stages", sum(n.cards for n in lists[k]), k)):
            if order <= ORDER_SHARE * total:
                break
            cut = sum(n.cards for n in lists[key])
            order, total = order - cut, total - cut
            drop = {id(n) for n in lists[key]}
            out = [n for n in out if id(n) not in drop]
    return out


def _rite_of(note: NoteData) -> str:
    """The rite of a note, from its ``<rite>::<stage>`` tag."""
    return note.tags[-1].split("::")[0]
