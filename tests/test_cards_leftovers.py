"""What the last card readers left (鄉飲酒禮, 士相見之禮 and the order cards of the whole book), fixed
for the whole book and tested on its real decks: a 义→词 card whose clue is itself a word of the rite
(拜送 → 拜辱), one whose clue holds part of its answer (結于胸前 → 結于面), a cloze whose back gives
a blank another occurrence's sense (乃席), and order cards of a stage that is no sequence of acts."""

from __future__ import annotations

import html
import random
import re

import pytest

from study.build import Sources, load_document, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.decks.items import step_sequence
from study.decks.notedata import NoteData
from study.decks.sequences import in_sequence, states_a_rule
from study.learn.gather import build_catalog
from study.learn.quiz import present
from study.model import Gloss
from study.terms.lexicon import categories
from study.terms.senses import gives_away, gloss_key, gloss_prompt, senses_at
from study.terms.windows import done_to
from study.text.normalize import normalize
from tests.conftest import ROOT, TEXTS

XIANG = "03-xiangyinjiuli"
STAGE = "乡饮酒礼.设席器"
JIAN = "08-shixiangjianzhili"


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


@pytest.fixture(scope="module")
def book(sources) -> list[NoteData]:
    """Every note of the whole book's package (``decks/all.yaml``: every term of every rite)."""
    return plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), sources)


@pytest.fixture(scope="module")
def decks(sources) -> dict[str, list[NoteData]]:
    return {stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources) for stem in (XIANG, JIAN)}


def _clues(n: NoteData) -> list[str]:
    return [html.unescape(g) for g in re.findall(r'class="gloss">(.*?)</span>', n.field("Clue"))]


def _rite(n: NoteData) -> str:
    return n.tags[-1].split("::")[0]


def _term(n: NoteData) -> str:
    return normalize(html.unescape(re.sub(r"<[^>]+>", "", n.field("Term"))))


def _reverse(notes: list[NoteData], term: str) -> list[NoteData]:
    return [n for n in notes if n.model == "term_reverse" and _term(n) == normalize(term)]


# --- 1. a clue that is itself a word of the rite -------------------------------------------------


def test_a_mat_is_not_asked_from_xi_a_word_of_the_rite_with_its_own_cards(decks):
    """鄉飲酒禮 glosses 筵 席 (筵席也): the 义→词 card 「席 → 筵」 taught a second answer to 席, a term of
    the rite with its own cards (席 = 布席); 筵's 词→义 card stays."""
    notes = decks[XIANG]
    assert not _reverse(notes, "筵") and _reverse(notes, "席")
    assert [n for n in notes if n.model == "term" and _term(n) == normalize("筵") and n.plain[1] == "席"]


def test_bai_ru_is_not_asked_from_bai_song_a_word_of_the_rite(tmp_path, sources):
    """Read without the fourth reading's drops of 003:27 and 003:30, 鄉飲酒禮 glosses 拜辱 (主人退賔拜辱)
    拜送: its sense card stays, but no 义→词 card asks 「拜送 → 拜辱」 — 拜送 is a word of the lexicon the
    rite uses for itself (主人拜送爵), a prompt another answer would interfere with."""
    drops = ('source: "KR1d0044_003.txt:27", gloss: 拜迎', 'source: "KR1d0044_003.txt:30", gloss: 拜送')
    lines = (ROOT / "decks" / "glossary.yaml").read_text("utf-8").splitlines(keepends=True)
    (tmp_path / "glossary.yaml").write_text("".join(x for x in lines if not any(d in x for d in drops)), "utf-8")
    spec = (ROOT / "decks" / f"{XIANG}.yaml").read_text("utf-8")
    (tmp_path / "spec.yaml").write_text(spec, "utf-8")
    notes = plan_deck(load_deckspec(tmp_path / "spec.yaml"), sources)
    forward = [n for n in notes if n.model == "term" and _term(n) == normalize("拜辱")]
    assert any(n.plain[1] == "拜送" for n in forward)
    assert "拜送" in categories() and not [n for n in _reverse(notes, "拜辱") if "拜送" in _clues(n)]


def test_no_reverse_card_of_the_book_asks_from_a_word_of_its_rite(book):
    """No 义→词 clue is a term of its rite (one with its own 词→义 card) or a word of the reviewed
    lexicon its rite's text uses; the many that are not stay (a sample: more than 1,000)."""
    terms: dict[str, set[str]] = {}
    for n in book:
        if n.model == "term":
            terms.setdefault(_rite(n), set()).add(_term(n))
    text: dict[str, str] = {}
    for path in sorted(TEXTS.glob("KR1d0044_*.txt")):
        for rite in load_document(path).rites:
            runs = [p.text for s in rite.stages for p in s.passages] + [s.note_text for s in rite.stages]
            text[normalize(rite.name)] = text.get(normalize(rite.name), "") + normalize("\u3000".join(runs))
    lexicon = categories()
    reverse = 0
    for n in book:
        if n.model != "term_reverse":
            continue
        reverse += 1
        rite = _rite(n)
        for clue in (c for c in _clues(n) if "～" not in c):  # (～尊 of 壺 is no word 尊)
            key = gloss_key(clue)
            assert key not in terms[rite], (rite, clue, n.plain)
            assert not (key in lexicon and key in text[normalize(rite)]), (rite, clue, n.plain)
    assert reverse > 1000


# --- 3. a clue holding part of its answer ---------------------------------------------------------


def test_jie_yu_mian_is_not_asked_from_a_gloss_holding_jie_yu(decks):
    """士相見禮 glosses 結于面 (the pheasant's feet tied toward the face) 結于胸前: its 义→词 card
    asked 「結于胸前」 for 結于面, the term's own 結于 on its front. Not made; its 词→义 card stays."""
    notes = decks[JIAN]
    assert not _reverse(notes, "結于面")
    assert [n for n in notes if n.model == "term" and _term(n) == normalize("結于面") and n.plain[1] == "結于胸前"]


def test_no_reverse_card_of_the_book_holds_two_characters_running_of_its_answer(book):
    """Nor any other (小臣之長 → 小臣正, 背斧依而立 → 負斧依): no clue holds an answer, spells one out,
    or holds two of its characters running."""
    reverse = 0
    for n in book:
        if n.model == "term_reverse":
            reverse += 1
            answers = [normalize(a) for a in n.plain[1].split("、")]
            for clue in _clues(n):
                c = normalize(clue)
                assert not [a for a in answers if any(a[i : i + 2] in c for i in range(len(a) - 1))], n.plain
    assert reverse > 1000


def test_a_gloss_holding_part_of_its_term_is_not_a_prompt():
    assert gives_away(["結于面"], ["結于胸前"]) and gives_away(["衮冕"], ["衣衮而冠冕"])
    assert not gives_away(["阼階"], ["主阶也"])  # one character shared is no part of the word
    assert gloss_prompt("結于面", "結于胸前") == (None, ("結于面",))
    assert gloss_prompt("衆賔", "士即衆賔也") == ("士即～也", ("衆賔",))


def test_the_web_quiz_asks_jie_yu_mian_only_for_its_meaning():
    """The quiz's gloss→term and typed questions on 結于面 would show 「結于胸前」: they ask what 結于面
    means instead; no gloss→term or typed question of 士相見禮 and 鄉飲酒禮 holds part of an answer."""
    docs = [load_document(TEXTS / f) for f in ("KR1d0044_003.txt", "KR1d0044_008.txt")]
    catalog = build_catalog(docs, load_terms(docs))
    checked = 0
    for item in catalog.select(family="vocab"):
        if item.direction not in ("g2t", "typed"):
            continue
        q = present(item, catalog, random.Random(1))
        if item.term is not None and item.term.normalized == normalize("結于面"):
            assert q.direction == "t2g" and q.subject == "結于面" and q.accepted == ("結于胸前",)
            checked += 10
        elif q.direction != "t2g":
            assert not gives_away(q.accepted, [q.subject]), (item.id, q.subject)
            checked += 1
    assert checked > 100


# --- 2. each blank of a cloze with its own occurrence's sense -------------------------------------

XI = "乃席賔主人介衆賔之席皆不屬焉"  # 鄉飲酒禮 設席器 (卷三 35): 席 the verb (lay the mats), then the mats


def test_laying_the_mats_is_not_the_sense_of_the_guests_mats():
    """「席布席也」 explains 乃席 (the commentary reads on to 主人, 介 and 屬 after it): the 席 of
    衆賔之席 is the mats themselves, and 布席 is no sense of it."""
    t = load_terms([load_document(TEXTS / "KR1d0044_003.txt")])
    (xi,) = [x for x in t if x.normalized == normalize("席")]
    first, second = (i for i in range(len(XI)) if XI[i] == "席")
    assert [g.gloss for g in senses_at(xi, XI, first, "鄉飲酒禮", STAGE)] == ["布席"]
    assert [g.gloss for g in senses_at(xi, XI, second, "鄉飲酒禮", STAGE)] == []


def test_a_gloss_putting_words_before_its_word_says_what_is_done_at_one_use():
    assert done_to(Gloss("布席", file="f", line=1), "席") and done_to(Gloss("設酒尊也"), "尊")
    assert not done_to(Gloss("壺尊也"), "壺") and not done_to(Gloss("席"), "席") and not done_to(Gloss("連接"), "屬")


def test_the_cloze_of_nai_xi_blanks_only_the_laying_out(decks):
    """The cloze 「乃[席]，賔主人介衆賔之[席]皆不屬焉」 gave the second blank 布席 on its back; then only
    乃席 was blanked, bare; now not even that — 席's one gloss 布席, masked, leaves 「布～」, no hint
    (tests/test_cloze_hints.py) — and 席's 词→义 card marks that 席 alone."""
    passage = [n for n in decks[XIANG] if n.model == "cloze" and "衆賔之席皆不屬焉" in n.field("Text")]
    assert not [n for n in passage if "{{c1::席" in n.field("Text")]
    (card,) = [n for n in decks[XIANG] if n.model == "term" and _term(n) == normalize("席")]
    assert (card.field("Example") + card.field("Sense")).count('class="hl"') == 1  # on the front: 席 alone


# --- 4. order cards only for a sequence of acts ---------------------------------------------------

RULES = {  # the stages of the book whose steps are rules or cases, not acts in order
    ("士相見之禮", "言視之法"),  # 「凡言非對也…」 「與君言言使臣…」 「凡與大人言…」
    ("士相見之禮", "稱辭"),  # 「凡自稱于君…」 「非以君命使則不稱寡…」
    ("士相見之禮", "執幣玉之儀"),  # 「凡執幣者不趨…」 「執玉者則唯舒武…」
    ("士相見之禮", "侍坐請退之節"),  # 「凡侍坐于君子…」 「夜侍坐問夜膳葷請退可也」
    ("士相見之禮", "侍飲食于君"),  # 「若君賜之食則…」 「若君賜之爵則…」 …
    ("士相見之禮", "見于君"),  # 始見, 庶人, 「士大夫則…」, 「若他邦之人則…」, 「凡燕見于君…」
    ("士冠禮", "孤子冠"),  # 「若孤子則…」, the day, 「若殺則…」
}


def test_a_step_stating_a_rule_or_a_case_is_told_from_an_act():
    assert states_a_rule("凡言非對也妥而後傳言") and states_a_rule("士大夫則奠摯再拜稽首君答一拜")
    assert states_a_rule("夜侍坐問夜膳葷請退可也") and states_a_rule("若君賜之爵則下席再拜稽首受爵")
    assert not states_a_rule("出迎于門外再拜賓答再拜主人揖入門右") and not states_a_rule("與君言言使臣")


def test_only_stages_of_rules_or_cases_are_no_sequence_in_the_whole_book():
    """Read over the step lists of all 17 卷 (355 stages of two steps or more): the seven whose steps
    mostly state a rule or a case are no sequence; every other stage is."""
    found, stages = set(), 0
    for path in sorted(TEXTS.glob("KR1d0044_*.txt")):
        for rite in load_document(path).rites:
            for st in rite.stages:
                texts = [e.text for e in step_sequence(rite, st).elements]
                if st.name and len(texts) >= 2:
                    stages += 1
                    if not in_sequence(texts):
                        found.add((rite.name, st.name))
    assert found == RULES and stages > 300


def test_the_rules_of_speech_and_looking_get_no_order_cards(decks):
    """士相見禮's 言視之法 and 稱辭 had order cards asking which rule of speech comes after which; the
    stages of its acts (請見, 復見) keep theirs."""
    titles = {n.field("Title") for n in decks[JIAN] if n.kind == "steps"}
    for rite, stage in RULES:
        if rite == "士相見之禮":
            assert not [t for t in titles if f" · {stage} · " in t], stage
    assert [t for t in titles if " · 請見 · " in t] and [t for t in titles if " · 復見 · " in t]


def test_the_web_quiz_asks_no_order_of_rules_either():
    """The quiz's step-order questions follow the cards: none for 士相見禮's rules, its acts keep theirs."""
    docs = [load_document(TEXTS / "KR1d0044_008.txt")]
    catalog = build_catalog(docs, load_terms(docs))
    asked = {i.sequence.title for i in catalog.select(family="order") if i.direction == "steps"}
    assert "請見" in asked and not asked & {stage for rite, stage in RULES if rite == "士相見之禮"}
