"""A word of the text glossed by itself with a qualifier put before it (path ``qualified``, weighed
apart by the gate, study/terms/gate.py).

The commentary names which one the text means by writing the word again with one or two
characters before it, and goes straight on to the next word of the text without 也:
「宗子大宗子父沒則母命使者」「宰太宰東夾北東夾室」「魚乾魚腊乾禽」「門外廟門外西面立主位」.
The walk (study/terms/plainwalk.py) finds no end for such a definiens; here it ends with the word
itself, and the next word of the text opens right after it.

Refused: a qualifier of the word's own characters or of the text (「推推手推拂」「主人主婦」), a
function word, a number, a negation or a person before it, a qualifier that is an act; and a word
followed by an act, of which it is the subject (「主人少退主人拜送賓」: narration).

Also ``officer-kind``: an officer of the text glossed by the office he heads or belongs to, one
after the other (「饔正饔人之長饔府饔正之屬」), where the walk stops at the text's own words in
the definiens (饔人) or at a person doing something.

And ``zhi``: a phrase of the text opening a clause and what it points at after 指
(「子指宗人宗人掌禮事」「舉奠指嗣子而言」).

Called by study/terms/plain.py at each clause start the walk read nothing from (``zhi``: over
what the walk read there, 「日 → 指筮日之日」).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context, person
from .lexicon import category_of
from .plaincheck import NEGATION, NUMERALS, gloss_ok, has_act, head_ok
from .plainfound import Found
from .plainwalk import OPENERS, _head_at

FUNCTION = set("谓即亦则以为所之者其而又乃若凡此于与及犹是在自如皆不无将")


def qualified(
    text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context, head: str
) -> Iterator[Found]:
    """「宗子大宗子父沒…」: ``head`` (the phrase of the text opening the clause) glossed by itself
    with a qualifier of one or two characters before it, the next word of the text following."""
    if not head or not head_ok(head):
        return
    for n in (1, 2):
        g_end = start + 2 * len(head) + n
        gloss = norm[start + len(head) : g_end]
        qualifier = gloss[:n]
        if len(gloss) != n + len(head) or not gloss.endswith(head) or gloss in ctx.classical or g_end >= end:
            continue
        if set(qualifier) & (FUNCTION | NUMERALS | NEGATION | set(head)) or qualifier in ctx.classical:
            continue
        if has_act(qualifier) or category_of(qualifier) == "role" or person(qualifier):
            continue
        after = next((norm[g_end : g_end + k] for k in (3, 2, 1) if norm[g_end : g_end + k] in ctx.classical), "")
        if not after or not head_ok(after) or has_act(after):
            continue
        yield Found(
            text[start : start + len(head)], text[start + len(head) : g_end], "ye", start, speaker, "", "qualified"
        )
        return


KIND_END = re.compile(r"([^谓即之]{1,4}之(属|长))")  # an office of a few characters


def officer_kind(text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context) -> Iterator[Found]:
    """「饔正饔人之長饔府饔正之屬」「小臣師小臣之長」「太師樂工之長」 (path ``officer-kind``): an
    officer of the text opening the clause glossed by the office he heads or belongs to (…之長,
    …之屬), and the next officer right after him in the same way. The officer is a person of the
    lexicon or shares a character with the office named (not a thing: 「腊亦七體牲之類」, nor a
    judgement opening with 為/如/若/指: 「司正為主人之屬」); the office is of one to four
    characters (not a run of the text: 「出出廟門老家臣之長」)."""
    at = start
    while at < end:
        head = _head_at(norm, at, end, ctx)
        m = KIND_END.match(norm, at + len(head)) if head else None
        if m is None or m.end() > end or len(head) > 3 or not head_ok(head) or has_act(head):
            return
        gloss = m[1]
        if gloss[0] in "为如若指亦以皆又即谓" or not (person(head) or set(head) & set(gloss[:-2])):
            return
        yield Found(text[at : at + len(head)], text[m.start(1) : m.end(1)], "ye", at, speaker, "", "officer-kind")
        at = m.end()


def refers_to(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context, head: str
) -> list[Found]:
    """「子指宗人宗人掌禮事…」「舉奠指嗣子而言」「日指筮日之日也」 (path ``zhi``): ``head`` (the
    phrase of the text opening the clause, three characters at most) and what it points at after
    指, running to the clause's 也, to 而言, to a new statement, or to the word said again as the
    subject of the next one (宗人宗人)."""
    at = start + len(head)
    if not head or len(head) > 3 or not head_ok(head) or not norm.startswith("指", at) or "于" in head[1:-1]:
        return []
    rest = norm[at + 1 : end]
    stop = len(rest) if closed else -1
    said = rest.find("而言")
    if said > 0:
        stop = said
    for size in (3, 2):
        again = next((i for i in range(size, len(rest) - size + 1) if rest[i : i + size] == rest[i - size : i]), -1)
        if again > 0 and (stop < 0 or again < stop):
            stop = again
    opener = next((i for i in range(1, len(rest)) if rest.startswith(OPENERS, i)), -1)
    if opener > 0 and (stop < 0 or opener < stop):
        stop = opener
    gloss = rest[:stop] if stop > 0 else ""
    if not 1 <= len(gloss) <= 8 or not gloss_ok(gloss) or has_act(gloss):
        return []
    return [Found(text[start:at], text[at + 1 : at + 1 + len(gloss)], "wei", start, speaker, "end", "zhi")]
