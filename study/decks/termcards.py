"""The term notes of a deck: per sense of a term in a rite, a 词→义 note and a later 义→词 note.

- A term with several senses in a rite (:mod:`.termsenses`) has a note per sense; the front of a
  sense's 词→义 card shows the sentence it is used in (the ``Sense`` field, the term marked), its
  back only that sense's glosses. Sense 0 keeps the term's fact id (``term:乡射礼:中``), sense k
  is ``term:乡射礼:中:k``.
- The 义→词 card shows the sense's glosses with every right answer masked, and under them the
  sense's sentence, the term masked (a gloss alone fits other words: 年少者 is 少者 and 幼 as well
  as 後生 of 「兄弟之～者舉觶于其長」) — unless it would spell the term out, holds a gloss
  (:func:`_masked_sentence`) or there is none. The sentence is the term's: another term of the
  rite glossed the same way (寻 and 仞 八尺) no longer fits; only a card with no sentence names on
  its back every term the question accepts (``Sense``: 亦可答：仞). Of two such cards that would
  look the same, only the first is made.
  A gloss that names two terms (祝接神佐食接尸) is no shared gloss: each term's card masks only
  its own headword, the other stays shown, and each card has one answer.
- No 义→词 card is made whose clue holds an answer, spells it out with other characters
  between (衣衮而冠冕 → 衮冕) or holds two of its characters running (結于胸前 → 結于面): it
  could be read off its front (:func:`~study.terms.senses.gives_away`). A reference work's note
  of its entry names no character of an answer (《说文解字》（～字条） on 阼階's card).
- A gloss that is itself a word of the rite — one of its terms, or a word of the reviewed lexicon
  its text uses (拜辱 = 拜送, 筵 = 席) — is no clue: the card 「拜送 → 拜辱」 would teach another
  answer to a word the student learns as itself. Left out of the clue; no clue left, no card.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from ..model import Gloss, Stage, Term
from ..terms.lexicon import categories
from ..terms.reading import term_reading_at
from ..terms.senses import gives_away, gloss_key, masked_gloss, terms_sharing_gloss
from ..text.normalize import normalize
from .markup import MASK, esc, highlight, items, leave_out, mask, ruby, span, wrap
from .notedata import KIND_TAGS, NoteData, custom_deck, rite_deck, stage_label, tag
from .selection import RiteChoice, Selection, TermChoice
from .sequences import numeral, term_fact
from .sources import Places
from .termsenses import Sense, first_use, term_senses
from .termsenses import _sentences as rite_sentences

CATEGORY_LABELS = {
    "vessel": "器皿",
    "implement": "器物",
    "garment": "服饰",
    "action": "动作",
    "place": "处所",
    "role": "人物",
    "measure": "度量",
    "other": "其他",
}
MAX_GLOSSES = 5
_NOTE = re.compile(r"（[^）]*）")  # a reference work's note of its entry: 《说文解字》（阼字条）
RANK = 0  # terms come first among a stage's notes


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:10]


def stage_number(c: RiteChoice, stage: Stage | None) -> str | None:
    """「第三節」: a stage said by its place in the rite (where its name would give an answer)."""
    return f"第{numeral(c.position(stage) + 1)}節" if stage is not None else None


def context(rite: str, stage_name: str | None, modern: str | None = None) -> str:
    return f"{rite} · {stage_label(stage_name)}" + (f"（{modern}）" if modern else "")


def _merged(glosses: Sequence[Gloss], places: Places) -> list[tuple[str, list[str]]]:
    """Distinct glosses (at most :data:`MAX_GLOSSES`) with who gave them."""
    merged: dict[str, list[str]] = {}
    for g in glosses:
        names = merged.setdefault(g.gloss, [])
        who = places.who(g)
        if who and who not in names:
            names.append(who)
    return list(merged.items())[:MAX_GLOSSES]


def _gloss_items(glosses: Sequence[Gloss], places: Places) -> tuple[list[str], list[str]]:
    """The glosses as HTML list items, and as plain text."""
    merged = _merged(glosses, places)
    return [span("gloss", g) + span("who", "、".join(who)) for g, who in merged], [g for g, _ in merged]


def _masked(text: str, words: Sequence[str]) -> str | None:
    """``text`` with each of ``words`` masked (:func:`masked_gloss`), None if nothing is left."""
    for w in words:
        got = masked_gloss(w, text)
        if got is None:
            return None
        text = got
    return text


def _clue_items(
    glosses: Sequence[Gloss], places: Places, answers: Sequence[str], words: Collection[str] = ()
) -> tuple[list[str], list[str]]:
    """The glosses as a 义→词 prompt: every right answer masked, a gloss that would be only the
    mask, or that is itself one of ``words`` (the rite's words), left out; and as plain text."""
    html, text = [], []
    for g, who in _merged(glosses, places):
        shown = _masked(g, answers)
        if shown is None or gloss_key(g) in words:
            continue
        html.append(span("gloss", shown) + span("who", _who_clue("、".join(who), answers)))
        text.append(shown)
    return html, text


def _who_clue(who: str, answers: Sequence[str]) -> str:
    """Who gave a gloss, as a 义→词 prompt shows it: each answer masked, and no character of an answer
    in a reference work's note of its entry (《说文解字》（阼字条） gave 阼 of 阼階 away)."""
    chars = {ch for a in answers for ch in normalize(a)}

    def note(m: re.Match[str]) -> str:
        return "".join(MASK if normalize(ch) in chars else ch for ch in m.group(0))

    shown = mask(who, answers)
    return _NOTE.sub(note, shown) if shown.startswith("《") else shown


@dataclass
class RiteTerms:
    """The senses of a rite's terms and which terms share a gloss, computed once per rite."""

    choice: RiteChoice
    pool: Sequence[Term]  # every term of the rite's text (the same in every package)
    _senses: dict[tuple[str, tuple[Gloss, ...]], tuple[Sense, ...]] = field(default_factory=dict)
    _hosts: dict[tuple[object, ...], str] | None = None

    def __post_init__(self) -> None:
        self.sentences = rite_sentences(self.choice.rite)
        own = [t for t in self.pool if self._in_rite(t)]
        self.sharing = terms_sharing_gloss(own)
        text = "\u3000".join(s.key for s in self.sentences)
        # the rite's words: its terms, and the words of the reviewed lexicon its text uses
        self.words = frozenset({t.normalized for t in own} | {w for w in categories() if w in text})

    def _in_rite(self, t: Term) -> bool:
        """Used or glossed in this rite (a text may hold several rites: 卷十七)."""
        name = normalize(self.choice.rite.name)
        return any(normalize(r) == name and n for r, n in t.frequency) or any(
            normalize(g.rite or "") == name for g in t.glosses
        )

    def senses(self, t: Term) -> tuple[Sense, ...]:
        key = (t.normalized, t.glosses)
        if key not in self._senses:
            self._senses[key] = term_senses(t, self.choice.rite, self.choice.document.file, self.sentences)
        return self._senses[key]

    def answers(self, t: Term, sense: Sense) -> list[str]:
        """Every headword a 义→词 question on this sense accepts: the term first, then each term
        of the rite glossed the same way. A term the gloss itself names is not one of them: the
        gloss tells the two apart (祝接神佐食接尸 is 祝's 「～接神佐食接尸」 and 佐食's
        「祝接神～接尸」, each card with one answer), so it stays shown in the clue."""
        out = [t.term]
        for g in sense.glosses:
            for other in self.sharing.get(gloss_key(g.gloss), ()):
                if normalize(other) not in {normalize(x) for x in out} and normalize(other) not in normalize(g.gloss):
                    out.append(other)
        return out

    def clue_key(self, t: Term, sense: Sense, places: Places) -> tuple[object, ...]:
        stage = sense.stage.name if sense.stage else None
        answers = self.answers(t, sense)
        return tuple(_clue_items(sense.glosses, places, answers, self.words)[1]), mask(
            context(self.choice.rite.name, stage), answers
        )

    def host(self, t: Term, sense: Sense, places: Places) -> bool:
        """Whether this sense's 义→词 note is made: no earlier term of the rite (in text order)
        has a card that looks the same."""
        if self._hosts is None:
            self._hosts = {}
            pos = {s.id: i for i, s in enumerate(self.choice.rite.stages)}
            every = [(x, s) for x in self.pool for s in self.senses(_standard(x, self.choice.rite.name))]
            every.sort(key=lambda p: (pos.get(p[1].stage.id, -1) if p[1].stage else -1, p[1].number))
            for x, s in every:
                self._hosts.setdefault(self.clue_key(x, s, places), f"{x.normalized}:{s.number}")
        return self._hosts.get(self.clue_key(t, sense, places)) == f"{t.normalized}:{sense.number}"


def _standard(t: Term, rite: str) -> Term:
    """A pool term as a spec sees it: glosses of the rite first (as :mod:`.selection` sorts them)."""
    return replace(t, glosses=tuple(sorted(t.glosses, key=lambda g: g.formula != "spec" and g.rite != rite)))


def _custom_term(selection: Selection, choice: TermChoice) -> str | None:
    """A key for a term the spec changed (its own note), or None for the standard note."""
    spec, t = selection.spec, choice.term
    if t.normalized in selection.custom or spec.glossary:
        return "custom-" + _digest(spec.name, spec.glossary, t.pinyin, t.category, *(g.gloss for g in t.glosses))
    return None


def _marked(sense: Sense, t: Term) -> str:
    """The sense's example with the term marked where it is used in this sense only (匕 =
    所以出飯 in 「…鼎匕俎…甑甗匕與敦…」: the second 匕, not the tripod's spoon)."""
    if sense.example is None:
        return ""
    if sense.at < 0:
        return highlight(sense.example.text, t.term)
    spans = [(m, m + len(t.normalized)) for m in sense.marks or (sense.at,)]
    return wrap(sense.example.text, spans, '<b class="hl">', "</b>")


def _masked_sentence(sense: Sense, term: str) -> str:
    """The sentence a 义→词 front shows under its clues, the term asked masked — whatever the clues:
    起 alone asks 作, 興 or 起, 「三獻～止爵尸卒爵酢」 作; 承酒尊之器其形似箱者 fits 棜 and 禁 alike,
    「…一散壺～饌于東序…」 棜禁; 賛其授受之禮 says nothing of 幣 (相, 贊, 擯 fit), 「擯者進～賓降辭幣…」
    相幣; 年少者 fits 少者 and 幼, 「兄弟之～者舉觶于其長…」 後生. A term sharing its gloss stays shown,
    so that every mask stands for the one answer: 「杠長三～以鴻脰韜上二尋」 asks 仞 (八尺), where
    「…三～…二～」 hid 尋 too; 「司馬～羊司士擊豕」 刲 (殺). Empty where the sense has no sentence,
    where it would spell the term out all the same (:func:`gives_away`: 「天子～曰…所賜伯父舍」 holds
    賜舍), where it is the term alone (喪服's 「姑之子」, 「庶婦」: 「～」), or where it holds a gloss of
    two characters or more (the definition the clue was read from: it asks the clue again); a
    one-character gloss in it is that word beside the answer (車 of 「～先設西上～下四亞…在車南」 on
    路's card), which only says the answer is another word."""
    if sense.example is None:
        return ""
    text = normalize(sense.example.text)
    if any(len(k := gloss_key(g.gloss)) > 1 and k in text for g in sense.glosses):
        return ""
    sentence = mask(sense.example.text, [term])
    return "" if not re.sub(r"\W", "", sentence) or gives_away([term], [sentence]) else sentence


def _asked_sense(sense: Sense, t: Term, rt: RiteTerms) -> Sense:
    """The sense as its 义→词 card shows it: a sense with no glossed use (its gloss stands where the
    text does not use the term) with the rite's first sentence using the term, where there is one —
    儐尸 = 繹祭 (Cai at the heading 右新儐尸之禮) 「若不～則祝侑亦如之」, where 繹祭 alone asks 繹; the
    term has that one sense in the rite, so the sentence uses it so."""
    if sense.example is not None:
        return sense
    found = first_use(t, rt.choice.rite, rt.choice.document.file, rt.sentences, sense.glosses)
    return sense if found is None else replace(sense, example=found[0], at=found[1], marks=(found[1],))


def _alone_says_little(sense: Sense) -> bool:
    """A term asked alone says little of the sense its card teaches: its 词→义 front shows its
    sentence, the term marked — a character (積 of 「素積」 is 辟, not 聚; 側 of 「公側襲」 獨) and a
    longer word alike (私事 of 「習公事不習【私事】」 is 私覿私面, not private affairs; 嘉薦 of
    「剛鬛【嘉薦】普淖」 菹醢; 大路 of 「陳乘黄【大路】于中庭」 a carriage) — unless the sentence holds a
    gloss of it (the answer on the front)."""
    if sense.example is None:
        return False
    text = normalize(sense.example.text)
    return not any(gloss_key(g.gloss) and gloss_key(g.gloss) in text for g in sense.glosses)


def _asked_context(rite: str, stage: str | None, t: Term, glosses: Sequence[str], number: str | None) -> str:
    """The context line of a 词→义 front: without a part that says what the term means — one that
    holds a gloss of it (肄 習 on 聘禮 · 習儀, 籌 矢 on 投壺禮 · 請投受矢), or spells the term apart
    with what it means put in (遭主國喪 on 遭喪's card, 夕陳幣授使者 on 夕幣's); a stage that only
    uses the term (筮日 on 筮's card) stays. A stage left out is said by its number, as on 义→词."""
    return leave_out(context(rite, stage), [gloss_key(g) for g in glosses], number, restated=[t.term])


def sense_reading(t: Term, sense: Sense) -> str:
    """The term's reading where the sense's example uses it (:func:`term_reading_at`)."""
    if sense.example is None or sense.at < 0:
        return t.pinyin
    return term_reading_at(t, sense.example.text, sense.at)


def _in_sentence(sense: Sense, t: Term, senses: Sequence[Sense]) -> str:
    """The example sentence with this occurrence marked (the front of one of several senses); a
    sentence another sense also shows says which occurrence is meant."""
    ex = sense.example
    if ex is None:
        return ""
    html = wrap(ex.text, [(sense.at, sense.at + len(t.normalized))], '<b class="hl">', "</b>")
    same = [s for s in senses if s.example is not None and s.example.text == ex.text]
    if len(same) > 1:
        nth = sum(1 for i in range(sense.at) if normalize(ex.text).startswith(t.normalized, i)) + 1
        html += esc(f"（句中第{numeral(nth)}个「{t.term}」）")
    return html


def term_notes(selection: Selection, choice: TermChoice, places: Places, rt: RiteTerms) -> list[NoteData]:
    """The notes of a term: per sense used or glossed in the chosen stages (the first sense if
    none is), a 词→义 note and its 义→词 note (a later note: at least a day of new cards after)."""
    t, c = choice.term, rt.choice
    custom = _custom_term(selection, choice)
    senses = rt.senses(t)
    if not senses:
        return []
    chosen = {s.id for s in c.stages}
    out: list[NoteData] = []
    for sense in [s for s in senses if s.stages & chosen] or [senses[0]]:
        out += _sense_notes(selection, choice, places, rt, sense, senses, custom)
    return out


def _sense_notes(selection, choice, places, rt: RiteTerms, sense: Sense, senses, custom) -> list[NoteData]:
    t, c = choice.term, rt.choice
    many = len(senses) > 1 or _alone_says_little(sense)  # the front shows the sentence
    glosses, plain = _gloss_items(sense.glosses, places)
    located = next((g for g in sense.glosses if g.line is not None or g.formula == "spec"), sense.glosses[0])
    fact = tuple(term_fact(choice.rite, t.term, sense.number).split(":")) + ((custom,) if custom else ())
    deck = custom_deck(selection.spec.name, choice.rite) if custom else rite_deck(c.document, c.rite)
    variant = f"（{selection.spec.name}）" if custom else ""  # a variant never shows a standard front
    stage = sense.stage.name if sense.stage else None
    example = sense.example.text if sense.example else ""
    reading = sense_reading(t, sense)
    common = (
        ("Term", esc(t.term)),
        ("Reading", ruby(t.term, reading)),
        ("Sense", _in_sentence(sense, t, senses) if many else ""),
        ("Glosses", items(glosses, "glosses")),
        ("Example", "" if many else _marked(sense, t)),
        ("Context", esc(_asked_context(choice.rite, stage, t, plain, stage_number(c, sense.stage)) + variant)),
        ("Source", esc(places.gloss_source(located))),
    )
    tags = (
        tag(KIND_TAGS["terms"], CATEGORY_LABELS.get(t.category, t.category)),
        tag(choice.rite, stage_label(stage)),
    )
    order = (c.index, c.position(sense.stage) if sense.stage else choice.order[1], RANK)
    front = f"{t.term} ({reading})" if reading else t.term
    forward = NoteData(
        "terms", "term", fact, deck, common, tags, order, 1,
        (front + (f"：{example}" if many else ""), "；".join(plain)),
    )  # fmt: skip
    out = [forward]
    answers = rt.answers(t, sense)
    clues, clue_text = _clue_items(sense.glosses, places, answers, rt.words)
    if not clues or gives_away(answers, clue_text):
        return out  # a clue that holds an answer, or spells it out (衣衮而冠冕 → 衮冕), asks nothing
    if not custom and not rt.host(t, sense, places):
        return out  # another term's card asks the same and accepts this one
    asked = _asked_sense(sense, t, rt)
    sentence = _masked_sentence(asked, t.term)
    # the sentence on the front is this term's: a term sharing the gloss (祖 for 俶 始) no longer fits
    also = [] if sentence else [a for a in answers if normalize(a) != t.normalized]
    accepted = [a for a in answers if normalize(a) == t.normalized or a in also]
    reverse = {
        "Clue": items(clues, "glosses") + (f'<div class="example">{esc(sentence)}</div>' if sentence else ""),
        "Sense": esc("亦可答：" + "、".join(also)) if also else "",
        "Example": _marked(asked, t),
        "Context": esc(leave_out(context(choice.rite, stage), answers, stage_number(c, sense.stage)) + variant),
    }
    out.append(
        replace(
            forward,
            model="term_reverse",
            identity=(*fact[:1], "reverse", *fact[1:]),
            fields=(("Clue", reverse["Clue"]), *((k, reverse.get(k, v)) for k, v in common)),
            plain=("；".join([*clue_text, *([sentence] if sentence else [])]), "、".join(accepted)),
            later_than=forward.fact,
        )
    )
    return out
