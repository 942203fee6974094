"""Notes for learning an order: the stages of a rite, the steps of a stage.

Per element: "what comes next", "what came before" (neighbours shown as context) and "the n-th
stage of …". Per window of the list: overlapping clozes in the manner of the Cloze Overlapper
add-on, but made here, so each card is a plain cloze that every Anki client shows: field ``Textk``
holds only cloze ``k``, and Anki renders a cloze field without the card's number as nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from .deckspec import MAX_PROMPTS, Overlap
from .items import Element, Sequence_, stage_sequence, step_sequence
from .markup import cloze_text, esc
from .notedata import DECK_LABELS, NoteData, deck_name, stage_label, tag
from .selection import RiteChoice, Selection

UNITS = {"stages": "个仪节", "steps": "步"}  # 下一个仪节 / 下一步, 第5个仪节 / 第5步
OVERLAP_FIELDS = tuple(f"Text{k}" for k in range(1, MAX_PROMPTS + 1))


def _item(el: Element, escape=esc) -> str:
    modern = f'<span class="modern">{escape(el.modern)}</span>' if el.modern else ""
    return f'<span class="cname">{escape(el.text)}</span>{modern}'


def _sequences(selection: Selection, kind: str) -> Iterator[tuple[RiteChoice, Sequence_, set[str], str]]:
    """The lists of ``kind`` to learn (two elements at least), the chosen element ids, and a title."""
    for choice in selection.rites:
        if kind == "stages":
            seq = stage_sequence(choice.rite)
            chosen = {s.id for s in choice.stages}
            title = choice.rite.name
        else:
            for stage in choice.stages:
                seq = step_sequence(choice.rite, stage)
                if stage.name and len(seq.elements) >= 2:
                    modern = f"（{stage.modern_name}）" if stage.modern_name else ""
                    yield choice, seq, {e.id for e in seq.elements}, f"{choice.rite.name} · {stage.name}{modern}"
            continue
        if len(seq.elements) >= 2 and chosen & {e.id for e in seq.elements}:
            yield choice, seq, chosen, title


def _place(choice: RiteChoice, seq: Sequence_, index: int) -> tuple[int, int, str]:
    """(stage position, index inside the stage, stage label) of element ``index``, for order and tags."""
    stage = choice.rite.stage(seq.stage_id or seq.elements[index].id)
    position = choice.position(stage) if stage else 0
    inner = index if seq.kind == "steps" else 0
    return position, inner, stage_label(stage.name if stage else None)


def _order_note(
    choice: RiteChoice, seq: Sequence_, i: int, title: str, kind: str, asks: tuple[str, ...], rank: int
) -> NoteData | None:
    els = seq.elements
    el, prev, nxt = els[i], els[i - 1] if i else None, els[i + 1] if i + 1 < len(els) else None
    ask = {"next": nxt is not None, "previous": prev is not None, "position": True}
    ask = {k: v and k in asks for k, v in ask.items()}
    if not any(ask.values()):
        return None
    unit = UNITS[kind]
    position, inner, stage = _place(choice, seq, i)
    fields = (
        ("Title", esc(title)),
        ("Unit", esc(unit)),
        ("Position", str(i + 1)),
        ("Count", str(len(els))),
        ("Item", _item(el)),
        ("Prev", _item(prev) if prev else ""),
        ("Next", _item(nxt) if nxt else ""),
        ("AskNext", "1" if ask["next"] else ""),
        ("AskPrev", "1" if ask["previous"] else ""),
        ("AskPosition", "1" if ask["position"] else ""),
        ("Source", esc(f"{choice.document.file}:{el.line}" if el.line else choice.document.file)),
    )
    answer = el.text + (f" {el.modern}" if el.modern else "")
    return NoteData(
        kind,
        "order",
        ("order", seq.id, el.id),
        deck_name(choice.rite.name, kind),
        fields,
        (tag("kind", kind), tag(choice.rite.name, stage)),
        (choice.index, position, rank, inner, 0),
        sum(ask.values()),
        (f"{title} 第{i + 1}{unit}", answer) if ask["position"] else None,
    )


def _overlap_card(els: tuple[Element, ...], j: int, k: int, ov: Overlap) -> str:
    """Field ``Text{k}``: the prompted elements as cloze ``k``, ``before``/``after`` of context, gaps as ⋯."""
    lo, hi = max(j - ov.before, 0), min(j + ov.prompt + ov.after, len(els))
    rows = ['<li class="gap">⋯</li>'] if lo > 0 else []
    for n in range(lo, hi):
        if j <= n < j + ov.prompt:
            rows.append(f'<li value="{n + 1}" class="ask">{{{{c{k}::{_item(els[n], cloze_text)}}}}}</li>')
        else:
            rows.append(f'<li value="{n + 1}" class="ctx">{_item(els[n])}</li>')
    if hi < len(els):
        rows.append('<li class="gap">⋯</li>')
    return f'<ol class="seq">{"".join(rows)}</ol>'


def _overlap_notes(choice: RiteChoice, seq: Sequence_, chosen: set[str], title: str, kind: str, ov: Overlap, rank: int):
    els = seq.elements
    groups = [j for j in range(max(len(els) - ov.prompt + 1, 1)) if chosen & {e.id for e in els[j : j + ov.prompt]}]
    done: set[int] = set()
    out: list[NoteData] = []
    for start, window in seq.windows(ov.window, ov.window - ov.before - ov.after):
        mine = [j for j in groups if start <= j < start + len(window) and j not in done][:MAX_PROMPTS]
        if not mine:
            continue
        done.update(mine)
        texts = [_overlap_card(els, j, k, ov) for k, j in enumerate(mine, 1)]
        full = "".join(f'<li value="{start + n + 1}">{_item(e)}</li>' for n, e in enumerate(window))
        position, inner, stage = _place(choice, seq, mine[0])
        fields = (
            ("Title", esc(f"{title} · {DECK_LABELS[kind]}")),
            *zip(OVERLAP_FIELDS, texts + [""] * (MAX_PROMPTS - len(texts)), strict=True),
            ("Full", f'<ol class="seq">{full}</ol>'),
            ("Source", esc(choice.document.file)),
        )
        out.append(
            NoteData(
                kind,
                "overlap",
                ("overlap", seq.id, els[mine[0]].id),
                deck_name(choice.rite.name, kind),
                fields,
                (tag("kind", kind), tag("kind", "overlap"), tag(choice.rite.name, stage)),
                (choice.index, position, rank, inner, 1),
                len(mine),
            )
        )
    return out


def order_notes(selection: Selection, kind: str, *, rank: int) -> list[NoteData]:
    """The order notes of ``kind`` ("stages" or "steps") for the chosen stages."""
    asks = selection.spec.order
    out: list[NoteData] = []
    for choice, seq, chosen, title in _sequences(selection, kind):
        for i, el in enumerate(seq.elements):
            if el.id in chosen:
                note = _order_note(choice, seq, i, title, kind, asks, rank)
                if note is not None:
                    out.append(note)
        if "overlap" in asks:
            out += _overlap_notes(choice, seq, chosen, title, kind, selection.spec.overlap, rank)
    return out
