"""Four faults the card readers met on the cards of the whole book, each tested on the real lines:
who speaks a note (an inline note of a classic line is not the start of the commentary below
it), and the senses a card, a cloze hint and a reverse card show."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest

from study.build import Sources, load_document, plan_deck
from study.decks.deckspec import load_deckspec
from study.decks.notedata import NoteData
from study.terms.glosses import extract_glosses
from study.terms.senses import senses_at
from study.text.normalize import normalize
from tests.conftest import ROOT, TEXTS, book_terms


@cache
def _segments(file: str) -> dict[int, list[tuple[str | None, str]]]:
    """(speaker, text) of each commentary segment of a file of the book, by its first line."""
    out: dict[int, list[tuple[str | None, str]]] = {}
    for rite in load_document(TEXTS / file).rites:
        for stage in rite.stages:
            for seg in [s for p in stage.passages for s in p.commentary] + list(stage.note_commentary):
                out.setdefault(seg.line, []).append((seg.speaker, seg.text))
    return out


def _speaker(file: str, line: int, term: str, gloss: str) -> str | None:
    said = [
        g.speaker
        for g in extract_glosses(load_document(TEXTS / file), review=False)
        if g.line == line and normalize(g.context) == normalize(term) and g.gloss == gloss
    ]
    assert len(said) == 1, said
    return said[0]


def test_an_inline_note_of_a_classic_line_ends_where_the_indented_commentary_begins():
    """卷十一 line 80: 「公士大夫之衆臣為其君布帶繩屨(李微之曰士字/條卿字之誤)」, then 蔡德晉's
    commentary indented on its own lines: 衆臣 = 衆家臣 is 蔡's, not 李微之's."""
    segs = _segments("KR1d0044_011.txt")
    assert segs[80] == [("李微之", "李微之曰士字條卿字之誤")]
    assert segs[81][0][0] is None and segs[81][0][1].startswith("士卿士也公卿大夫")
    assert _speaker("KR1d0044_011.txt", 81, "衆臣", "衆家臣") == "蔡德晉"
    # the same layout elsewhere: 敖君善's textual note at 特牲 96–98, then 蔡's 門東 = 廟門外之東
    assert _speaker("KR1d0044_015.txt", 99, "門東", "廟門外之東") == "蔡德晉"
    # 高紫超's note on 王受之玉 (覲禮, line 85), then 蔡's 謁猶告也
    assert _speaker("KR1d0044_010.txt", 86, "謁", "告") == "蔡德晉"


def test_a_textual_note_is_no_longer_read_with_the_commentary_as_a_gloss():
    """特牲 531: 「祝東面告利成(郝仲輿曰西面/坊本作西南誤)」 then 「告利成告孝子養禮終也」: the
    textual note 西面 … 坊本作西南誤 is not a gloss of 西面; 告利成 = 告孝子養禮終 is read, 蔡's."""
    glosses = extract_glosses(load_document(TEXTS / "KR1d0044_015.txt"), review=False)
    at = {(g.line, g.gloss): g.speaker for g in glosses}
    assert (531, "坊本作西南誤") not in at
    assert at[(532, "告孝子養禮終")] == "蔡德晉"


def test_a_note_that_runs_on_stays_one_note():
    """A note that fills its line goes on at column 0 (卷十一 72–73: 「八字鄭本在上條之」 「下今從華本」),
    or on the indented lines of a 記 (邵國賢曰 … over 665–669): one segment, one speaker."""
    segs = _segments("KR1d0044_011.txt")
    assert segs[72] == [(None, "八字鄭本在上條之下今從華本")]
    assert segs[74][0][1].startswith("子女子子也")  # 蔡's commentary after it is its own
    shao = [text for speaker, text in segs[665] if speaker == "邵國賢"]
    assert len(shao) == 1 and "以戰死魯人問於孔子" in shao[0] and "有封拜而勿殤" in shao[0]


# --- 1. a gloss that names two terms --------------------------------------------------------------

RITES = ("14-shiyuli", "16-shaolaokuishili", "tesheng")  # where 祝 and 佐食, 尸 and 嘏 are terms together


@pytest.fixture(scope="module")
def decks() -> dict[str, list[NoteData]]:
    sources = Sources()
    return {stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources) for stem in RITES}


def _plain(html_text: str) -> list[str]:
    return [html.unescape(g) for g in re.findall(r'class="gloss">(.*?)</span>', html_text)]


def _reverse(notes: list[NoteData], term: str) -> NoteData:
    return next(n for n in notes if n.model == "term_reverse" and n.identity[-1] == term)


def _asks(n: NoteData) -> tuple[str, str]:
    """A 义→词 note's clues (the sentence under them left out: 「～接神佐食接尸」) and its answer."""
    return "；".join(_plain(n.field("Clue"))), n.plain[1]


@pytest.mark.parametrize("stem", RITES)
def test_a_gloss_naming_two_terms_masks_only_the_headword_on_each_reverse_card(decks, stem):
    """「祝接神佐食接尸」 is the curated gloss of 祝 and of 佐食: 祝's 义→词 card asks 「～接神佐食接尸」
    and 佐食's 「祝接神～接尸」, each with one answer (not 「～接神～接尸」 accepting both)."""
    notes = decks[stem]
    zhu = _reverse(notes, "祝")
    assert _plain(zhu.field("Clue")) == ["～接神佐食接尸"] and _asks(zhu) == ("～接神佐食接尸", "祝")
    assert zhu.field("Sense") == ""  # nothing else 亦可答
    if stem == "tesheng":  # 佐食's other gloss 佐尸食者 spells its answer out: no 义→词 card
        assert not [n for n in notes if n.model == "term_reverse" and n.identity[-1] == "佐食"]
    else:
        zuoshi = _reverse(notes, "佐食")
        assert _asks(zuoshi) == ("祝接神～接尸", "佐食") and zuoshi.field("Sense") == ""
    if stem != "14-shiyuli":  # 進聽嘏者尸傳神意致福嘏于主人 is 嘏's, cut before its headword; 尸's is
        assert _asks(_reverse(notes, "嘏")) == ("尸传神意致福", "嘏")  # the book's note on 祝迎尸 (士虞禮)
        shi = _reverse(notes, "尸")
        assert _asks(shi) == ("孝子不见亲之形，心无所系，立～以象之", "尸")
        # cited at its line of another rite, it still names who says it and where
        assert '<span class="who">蔡德晉</span>' in shi.field("Clue")
        assert shi.field("Source").endswith("士虞禮 · 尸入 · 頁10a第6行 · 蔡德晉曰")


@pytest.mark.parametrize("stem", RITES)
def test_a_reverse_card_masks_its_answers_and_nothing_else(decks, stem):
    """Every clue, its masks read as the card's own headword (or a term it also accepts), is one
    of the glosses its back teaches: no other word of the gloss is hidden; and no two 义→词 cards
    share a front with different answers."""
    fronts: dict[tuple[str, str], set[str]] = {}
    for n in decks[stem]:
        if n.model != "term_reverse":
            continue
        answers = [n.identity[-1] if not n.identity[-1].isdigit() else n.identity[-2]]
        answers += [a for a in html.unescape(n.field("Sense")).removeprefix("亦可答：").split("、") if a]
        taught = {normalize(g) for g in _plain(n.field("Glosses"))}
        for clue in _plain(n.field("Clue")):
            assert any(normalize(clue.replace("～", a)) in taught for a in answers), (n.identity, clue)
        fronts.setdefault((n.field("Context"), n.field("Clue")), set()).add(n.plain[1])
    assert fronts and all(len(a) == 1 for a in fronts.values())


# --- 2. a cloze hint per occurrence; 3. one sense per card ----------------------------------------

SHI_XIU = "士羞庶羞皆有大蓋執豆如宰"  # 公食大夫禮 設加饌 (卷七 174): 羞 the verb (進), then 庶羞's 羞 (肴美)
ZUN = "司宫尊于東楹之西兩方壺左𤣥酒南上公尊瓦大兩"  # 燕禮 陳饌器 (卷五 31): 尊 the verb (設酒尊), then the vessel


def _fit(file: str, word: str, text: str, k: int, rite: str) -> list[str]:
    t = book_terms(file)[normalize(word)]
    at = [i for i in range(len(text)) if normalize(text).startswith(t.normalized, i)][k]
    return [g.gloss for g in senses_at(t, text, at, rite) if g.taught]


def test_a_word_glossed_twice_in_one_passage_is_read_in_the_commentarys_order():
    """「羞進也品多曰庶肴美曰羞」: 羞 = 進 is said before the gloss of 庶, so of the 羞 before 庶; 肴美
    after it, of 庶羞's 羞. 「司宫…尊設酒尊也東楹之西」: 尊 = 設酒尊 stands between 司宫 and 東楹, so
    it is the 尊 of 司宫尊于東楹, not the vessels 公尊瓦大 (the teacher's 酒器也)."""
    assert _fit("KR1d0044_007.txt", "羞", SHI_XIU, 0, "公食大夫禮") == ["進"]
    assert _fit("KR1d0044_007.txt", "羞", SHI_XIU, 1, "公食大夫禮") == ["肴美"]
    assert _fit("KR1d0044_005.txt", "尊", ZUN, 0, "燕禮") == ["設酒尊"]
    assert _fit("KR1d0044_005.txt", "尊", ZUN, 1, "燕禮") == ["酒器也"]


@pytest.fixture(scope="module")
def gong_yan() -> dict[str, list[NoteData]]:
    sources = Sources()
    return {
        stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources)
        for stem in ("07-gongshidafuli", "yanli", "01-shiguanli")
    }


def _blanks(notes: list[NoteData], passage: str) -> tuple[list[tuple[str, str]], str]:
    """(answer, hint) of each blank of the cloze over ``passage``, and its back's glosses."""
    for n in notes:
        if n.model == "cloze" and passage in re.sub(r"\{\{c\d+::(.*?)(::.*?)?\}\}", r"\1", n.field("Text")):
            blanks = [(a, h) for a, h in re.findall(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}", n.field("Text"))]
            return blanks, re.sub(r"<[^>]+>", "|", n.field("Glosses"))
    raise AssertionError(passage)


def test_each_blank_of_a_cloze_is_hinted_with_the_sense_of_its_own_occurrence(gong_yan):
    """公食 設加饌's cloze hinted both 羞 of 「士羞庶羞」 進; the second is 肴美 (庶羞, the dishes) — and 進,
    which glosses 奏 and 膳 of the text too, is no hint (tests/test_cloze_hints.py): the first 羞 is
    answered with the second, one cloze number. The back lists the sense of every blank, each with
    who gave it."""
    blanks, back = _blanks(gong_yan["07-gongshidafuli"], "士羞庶羞皆有大")
    assert [h for a, h in blanks if a == "羞"] == ["", "肴美"]
    assert "進||蔡德晉|；|肴美||蔡德晉|" in back
    # 燕禮 陳饌器: the verb 尊 (設酒尊) and the vessels (酒器也) are not blanked — the verb of 「南上尊士旅食」,
    # left unblanked, would show the answer beside its blanks
    blanks, back = _blanks(gong_yan["yanli"], "司宫尊于東楹之西")
    assert not [h for a, h in blanks if a == "尊"] and "酒器也" not in back


@pytest.mark.parametrize(
    ("stem", "term", "senses"),
    [
        ("yanli", "尊", [["設酒尊"], ["酒器也"]]),  # the verb 司宫尊于…, the vessel 公尊瓦大
        ("07-gongshidafuli", "羞", [["進"], ["肴美"]]),  # 士羞, 庶羞
        ("01-shiguanli", "筮", [["以蓍問吉凶"], ["蓍策"]]),  # 筮于廟門 (to divine), 筮與席 (the stalks)
    ],
)
def test_a_term_card_teaches_one_sense_with_its_own_example(gong_yan, stem, term, senses):
    cards = [n for n in gong_yan[stem] if n.model == "term" and n.field("Term") == term]
    assert [_plain(n.field("Glosses")) for n in cards] == senses
    examples = [re.sub(r"（句中.*", "", n.field("Sense")) for n in cards]
    assert all('<b class="hl">' in e for e in examples)  # each card shows the sentence of its sense
    assert [n.identity[-1] for n in cards] == [term, "1"]  # sense 0 keeps the term's identity


def test_the_cards_of_two_senses_render_in_anki(tmp_path):
    """燕禮 built and imported into a real Anki collection: 尊 is two notes, each card showing one
    sense; the cloze over 司宫尊于東楹 no longer blanks 尊 (the verb of 尊士旅食 shows its character, so a
    blank of it would be answered from the card), and no cloze is hinted 酒器也 (a kind, no hint)."""
    from anki.collection import Collection, ImportAnkiPackageRequest
    from click.testing import CliRunner

    from study.cli import cli
    from study.decks.apkg import NAMES

    out = tmp_path / "yanli.apkg"
    result = CliRunner().invoke(
        cli, ["build", str(ROOT / "decks" / "yanli.yaml"), "-o", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out)))
        notes = [col.get_note(n) for n in col.find_notes(f'"note:{NAMES["term"]}"')]
        zun = [n for n in notes if n["Term"] == "尊"]
        shown = sorted(_plain(n["Glosses"]) for n in zun)
        assert shown == [["設酒尊"], ["酒器也"]]
        for n in zun:
            for card in n.cards():
                answer = card.answer()
                assert ("設酒尊" in answer) != ("酒器也" in answer)  # one sense on each card
        clozes = [col.get_note(n) for n in col.find_notes(f'"note:{NAMES["cloze"]}"')]
        # 尊 is not blanked there: the verb of 「尊士旅食于門西」 shows the character beside the blanks
        assert not any("::尊" in n["Text"] for n in clozes if "東楹之西兩方壺" in n["Text"])
        assert not any("酒器也" in c.question() for n in clozes for c in n.cards())  # a kind is no hint
    finally:
        col.close()


# --- the web quiz's gloss→term questions, as the cards' -------------------------------------------


def test_a_quiz_question_on_a_gloss_masks_its_answers_and_accepts_no_term_it_shows():
    """The web quiz showed the gloss whole: 「推手曰揖，引手曰厌」 asked 揖, 「八尺曰寻」 寻 (102 of the
    seeds' 138 gloss→term questions held their answer). Now every prompt masks what it accepts;
    a term the gloss names (祝接神佐食接尸) is shown and not accepted."""
    import random

    from study.build import load_terms
    from study.learn.gather import build_catalog
    from study.learn.quiz import present
    from study.terms.senses import gloss_prompt
    from tests.conftest import SEED_PATHS

    assert gloss_prompt("祝", "祝接神佐食接尸", ["祝", "佐食"]) == ("～接神佐食接尸", ("祝",))
    assert gloss_prompt("佐食", "祝接神佐食接尸", ["祝", "佐食"]) == ("祝接神～接尸", ("佐食",))
    assert gloss_prompt("尋", "八尺", ["尋", "仞"]) == ("八尺", ("尋", "仞"))  # a shared gloss: both right
    checked = 0
    for paths in (SEED_PATHS, [TEXTS / "KR1d0044_015.txt", TEXTS / "KR1d0044_016.txt"]):
        docs = [load_document(p) for p in paths]
        catalog = build_catalog(docs, load_terms(docs))
        for item in catalog.select(family="vocab"):
            if item.direction in ("g2t", "typed"):
                q = present(item, catalog, random.Random(1))
                assert not [a for a in q.accepted if normalize(a) in normalize(q.subject)], (item.id, q.subject)
                checked += 1
    assert checked > 300
