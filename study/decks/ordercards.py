"""Notes for learning an order: the stages of a rite, the steps of a stage.

One note per window of at most ``overlap.window`` (6) items of the list (:func:`.sequences.windows`;
neighbouring windows share ``overlap.before`` items). Each card of a window asks one item, as a
cloze, with the ``before`` items that precede it shown as context (or 「始」 for the first item of
the list): one card per "what comes after these" fact, every item asked once. Items are short
labels (:func:`.sequences.labels`; repeated stage names numbered 〔一〕/〔二〕), so the front is
answerable; the back lists the window with each step's full sentence (a stage's modern name).

Plain clozes that every Anki client shows: field ``Textk`` holds only cloze ``k``, and Anki
renders a cloze field without the card's number as nothing.

A spec may also ask for "next", "previous" and "position" cards (``order:``); those notes are not
in the standard decks and go to the spec's own deck.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .deckspec import MAX_PROMPTS, Overlap
from .items import Sequence_, stage_sequence, step_sequence
from .markup import cloze_text, esc
from .notedata import KIND_TAGS, NoteData, custom_deck, rite_deck, stage_label, tag
from .selection import RiteChoice, Selection
from .sequences import in_sequence, labels, stage_names, window_fact, windows
from .sources import place

UNITS = {"stages": "个仪节", "steps": "步"}  # 下一个仪节 / 下一步
ORDERED = {"stages": "仪节次序", "steps": "步骤次序"}  # what an overlap card asks to put in order
OVERLAP_FIELDS = tuple(f"Text{k}" for k in range(1, MAX_PROMPTS + 1))
START = "始"


@dataclass(frozen=True)
class _List:
    """A list to learn, with what its cards show of each item."""

    choice: RiteChoice
    seq: Sequence_
    title: str
    labels: tuple[str, ...]  # on the front
    details: tuple[str, ...]  # in words: the full sentence, or the name with its modern name
    chosen: frozenset[str]  # ids of the items the spec chose
    excerpt: bool = False  # a stage list of an excerpt (节选): part of the rite, no position is its own
    under: tuple[str, ...] = ()  # on the back, under each label: the full sentence, or the modern name

    def item(self, i: int, escape=esc, *, full: bool = False) -> str:
        detail = self.under[i] if full and self.under and self.under[i] != self.labels[i] else ""
        extra = f'<span class="full">{esc(detail)}</span>' if detail else ""
        return f'<span class="cname">{escape(self.labels[i])}</span>{extra}'


def _lists(selection: Selection, kind: str) -> Iterator[_List]:
    for c in selection.rites:
        names = stage_names(c.rite)
        if kind == "stages":
            seq = stage_sequence(c.rite)
            chosen = frozenset(s.id for s in c.stages)
            if len(seq.elements) >= 2 and chosen & {e.id for e in seq.elements}:
                shown = tuple(names[e.id] for e in seq.elements)
                details = tuple(f"{names[e.id]}（{e.modern}）" if e.modern else names[e.id] for e in seq.elements)
                excerpt = c.document.excerpt
                title = f"{c.rite.name}（节选）" if excerpt else c.rite.name
                modern = tuple(e.modern or "" for e in seq.elements)  # 速賔 / 邀请宾客, not 速賔 / 速賔（邀请宾客）
                yield _List(c, seq, title, shown, details, chosen, excerpt, modern)
            continue
        for stage in c.stages:
            seq = step_sequence(c.rite, stage)
            texts = [e.text for e in seq.elements]
            if stage.name and len(texts) >= 2 and in_sequence(texts):  # (rules and cases have no order to learn)
                title = f"{c.rite.name} · {names.get(stage.id, stage.name)}"
                chosen = frozenset(e.id for e in seq.elements)
                yield _List(c, seq, title, tuple(labels(texts)), tuple(texts), chosen, under=tuple(texts))


def _stage_of(lst: _List, i: int):
    return lst.choice.rite.stage(lst.seq.stage_id or lst.seq.elements[i].id)


def _card(lst: _List, j: int, k: int, lo: int, ov: Overlap) -> str:
    """Field ``Text{k}``: item ``j`` as cloze ``k`` after up to ``before`` items of context (an
    excerpt's list opens with ⋯, not 「始」: the rite began before it)."""
    rows = [f'<li class="gap">{"⋯" if lst.excerpt else START}</li>'] if j == 0 else []
    if j > 0 and max(j - ov.before, lo) > 0:
        rows.append('<li class="gap">⋯</li>')
    for n in range(max(j - ov.before, lo, 0), j):
        rows.append(f'<li value="{n + 1}" class="ctx">{lst.item(n)}</li>')
    rows.append(f'<li value="{j + 1}" class="ask">{{{{c{k}::{lst.item(j, cloze_text)}}}}}</li>')
    ol_tag = "ul" if lst.excerpt else "ol"  # an excerpt's items are not numbered as places in the rite
    return f'<{ol_tag} class="seq">{"".join(rows)}</{ol_tag}>'


def _window_notes(selection: Selection, lst: _List, kind: str, rank: int) -> list[NoteData]:
    ov, c = selection.spec.overlap, lst.choice
    custom = () if ov == Overlap() else (f"w{ov.window}b{ov.before}",)
    deck = custom_deck(selection.spec.name, c.rite.name) if custom else rite_deck(c.document, c.rite)
    els = lst.seq.elements
    done: set[int] = set()
    out: list[NoteData] = []
    for start, window in windows(els, ov.window, ov.before):
        mine = [j for j in range(start, start + len(window)) if j not in done][:MAX_PROMPTS]
        done.update(mine)
        if not mine or not lst.chosen & {els[j].id for j in mine}:
            continue
        texts = [_card(lst, j, k, start, ov) for k, j in enumerate(mine, 1)]
        full = "".join(f'<li value="{start + n + 1}">{lst.item(start + n, full=True)}</li>' for n in range(len(window)))
        last = _stage_of(lst, mine[-1])
        ol_tag = "ul" if lst.excerpt else "ol"
        at = c.position(last) if last else 0
        title = f"{lst.title} · {ORDERED[kind]}"  # 「鄉射禮 · 仪节次序」「鄉射禮 · 戒賔 · 步骤次序」
        title = f"{title}（{selection.spec.name}）" if custom else title  # never a standard front
        fields = (
            ("Title", esc(title)),
            *zip(OVERLAP_FIELDS, texts + [""] * (MAX_PROMPTS - len(texts)), strict=True),
            ("Full", f'<{ol_tag} class="seq">{"".join(full)}</{ol_tag}>'),
            ("Source", esc(place(c.document, c.rite, last if kind == "steps" else None))),
        )
        out.append(
            NoteData(
                kind,
                "overlap",
                (*window_fact(lst.seq.id, els[start].id).split(":"), *custom),
                deck,
                fields,
                (tag(KIND_TAGS[kind]), tag(c.rite.name, stage_label(last.name if last else None))),
                (c.index, at, rank, start),
                len(mine),
                (f"{lst.title}：{'、'.join(lst.labels[start : mine[0]])}…", "、".join(lst.labels[j] for j in mine)),
            )
        )
    return out


def _neighbour_notes(selection: Selection, lst: _List, kind: str, rank: int) -> list[NoteData]:
    """The "next" / "previous" / "position" cards a spec asks for (the spec's own deck)."""
    asks = tuple(a for a in selection.spec.order if a != "overlap")
    c, els, out = lst.choice, lst.seq.elements, []
    for i, el in enumerate(els):
        if el.id not in lst.chosen:
            continue
        ask = {"next": i + 1 < len(els), "previous": i > 0, "position": not lst.excerpt}  # 第N of an excerpt: no
        ask = {k: v and k in asks for k, v in ask.items()}
        if not any(ask.values()):
            continue
        stage = _stage_of(lst, i)
        fields = (
            ("Title", esc(lst.title)),
            ("Unit", esc(UNITS[kind])),
            ("Position", str(i + 1)),
            ("Count", str(len(els))),
            ("Item", lst.item(i, full=True)),
            ("Prev", lst.item(i - 1, full=True) if i else ""),
            ("Next", lst.item(i + 1, full=True) if i + 1 < len(els) else ""),
            ("AskNext", "1" if ask["next"] else ""),
            ("AskPrev", "1" if ask["previous"] else ""),
            ("AskPosition", "1" if ask["position"] else ""),
            ("Source", esc(place(c.document, c.rite, stage))),
        )
        out.append(
            NoteData(
                kind,
                "order",
                ("order", lst.seq.id, el.id, "+".join(asks)),
                custom_deck(selection.spec.name, c.rite.name),
                fields,
                (tag(KIND_TAGS[kind]), tag(c.rite.name, stage_label(stage.name if stage else None))),
                (c.index, c.position(stage) if stage else 0, rank, i, 1),
                sum(ask.values()),
                (f"{lst.title} 第{i + 1}{UNITS[kind]}", lst.details[i]) if ask["position"] else None,
            )
        )
    return out


def order_notes(selection: Selection, kind: str, *, rank: int) -> list[NoteData]:
    """The order notes of ``kind`` ("stages" or "steps") for the chosen stages."""
    out: list[NoteData] = []
    for lst in _lists(selection, kind):
        if "overlap" in selection.spec.order:
            out += _window_notes(selection, lst, kind, rank)
        out += _neighbour_notes(selection, lst, kind, rank)
    return out
