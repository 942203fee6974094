"""The built cards of 鄉飲酒禮 (卷三) and 士相見之禮 (卷八) as a reader found them, read with the book open
at each card's line: a gloss saying whom the host bows to (揖 = 揖賔) dropped at its line, the teacher's
西序 gloss taken off 序 (it taught the west wall at 東序端), order-card labels that told nothing
(「賓對曰〔一〕」, 「無」) or cut a word (「工歌鹿鳴四牡皇」, 「揖讓升賔厭」)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest
from click.testing import CliRunner

from study.build import Sources, load_corpus, load_document, plan_deck
from study.cli import cli
from study.decks.deckspec import load_deckspec
from study.decks.items import step_sequence
from study.decks.sequences import labels
from study.terms.senses import senses_at
from study.text.normalize import normalize
from tests.conftest import book_terms

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "decks" / "texts"
XIANG = "KR1d0044_003.txt"  # 鄉飲酒禮
JIAN = "KR1d0044_008.txt"  # 士相見之禮

DROPPED = [  # (file, line, term, gloss)
    (XIANG, 64, "揖", "揖賔"),  # whom the host bows to (揖揖賔也): the reverse card showed ～賔
]


_STYLE = re.compile(r"<style>.*?</style>|<script.*?</script>", re.S)


def _plain(html: str) -> str:
    return re.sub(r"<[^>]+>|\s", "", _STYLE.sub("", html))


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> dict[str, list[tuple[str, str, str, dict[str, str]]]]:
    """Per package: (front, back, note type, fields) of every card, built by ``study build`` and
    rendered by a real Anki collection."""
    out_dir = tmp_path_factory.mktemp("built")
    stems = ("03-xiangyinjiuli", "08-shixiangjianzhili")
    result = CliRunner().invoke(cli, ["build", *(str(ROOT / "decks" / f"{s}.yaml") for s in stems), "-o", str(out_dir)])
    assert result.exit_code == 0, result.output
    out = {}
    for stem in stems:
        col = Collection(str(tmp_path_factory.mktemp(stem) / "c.anki2"))
        try:
            col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out_dir / f"{stem}.apkg")))
            rendered = []
            for cid in col.find_cards(""):
                card = col.get_card(cid)
                note = card.note()
                rendered.append(
                    (_plain(card.question()), _plain(card.answer()), note.note_type()["name"], dict(note.items()))
                )
            out[stem] = rendered
        finally:
            col.close()
    return out


def _steps(file: str, stage: str) -> list[tuple[str, str]]:
    """(step text, label) of a named stage of the book, as its order cards show them."""
    doc = load_document(BOOK / file)
    (st,) = [s for r in doc.rites for s in r.stages if s.name == stage]
    seq = step_sequence(doc.rites[0], st)
    texts = [e.text for e in seq.elements]
    return list(zip(texts, labels(texts), strict=True))


@pytest.fixture(scope="module")
def said(tmp_path_factory):
    bare = tmp_path_factory.mktemp("g") / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    return {f: book_terms(f, bare) for f in (XIANG, JIAN)}


@pytest.mark.parametrize(("file", "line", "term", "gloss"), DROPPED)
def test_a_gloss_saying_who_is_meant_is_dropped_at_its_line(file, line, term, gloss, said):
    assert (gloss, line) in {(g.gloss, g.line) for g in said[file][normalize(term)].glosses}  # the commentary says it
    t = book_terms(file).get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


def test_the_bow_keeps_what_it_means():
    """揖 is still taught: 推手 (003:64, the old reading 舊説推手曰揖) and the teacher's 推手曰揖，引手曰厌."""
    glosses = {g.gloss for g in book_terms(XIANG)[normalize("揖")].glosses}
    assert {"推手", "推手曰揖，引手曰厌"} <= glosses and "揖賔" not in glosses


def test_the_west_wall_is_not_taught_on_the_east_wall():
    """The teacher's 序 carried 西序，堂上西墙也 (a gloss of 西序): 鄉飲酒禮's 主人坐取爵于東序端 was taught the
    west wall. 东西墙谓之序 stays on every 序 that is a wall."""
    t = book_terms(XIANG)[normalize("序")]
    for text in ("主人坐取爵于東序端降洗介降", "司正升立于序端賔降席北面", "主人揖降賔降立于階西當序東面"):
        at = normalize(text).find(normalize("序"))
        shown = {g.gloss for g in senses_at(t, text, at, "鄉飲酒禮")}
        assert "东西墙谓之序" in shown and "西序，堂上西墙也" not in shown, text


def test_the_guests_replies_are_told_apart_by_what_they_say():
    """士相見's 請見 has four replies opening 賓對曰: two of them were labelled 「賓對曰〔一〕」 and
    「賓對曰〔二〕」, which say nothing of which reply comes when."""
    shown = dict(_steps(JIAN, "請見"))
    replies = [label for text, label in shown.items() if text.startswith("賓對曰")]
    assert len(replies) == 4 and len(set(replies)) == 4
    assert not any("〔" in x for x in replies)
    assert all(len(x) > len("賓對曰") for x in replies)
    assert shown["賓對曰某不足以辱命請終賜見主人對曰某不敢為儀固請吾子之就家也某將走見"].startswith(
        "賓對曰某不足以辱命"
    )


def test_a_step_label_is_not_a_bare_connective_nor_cuts_an_ode_or_its_object():
    """鄉飲酒禮: 息司正's 「無」 (無介不殺…: 無 binds 介), 樂's 「工歌鹿鳴四牡皇」 (the ode 皇皇者華 cut), 一人舉觶's
    「揖讓升賔厭」 (賔厭介升: the guest draws the 介 in, 厭 binds 介)."""
    rest = dict(_steps(XIANG, "息司正"))
    assert rest["無介不殺薦脯醢羞唯所有徵唯所欲以告于先生君子可也賔介不與鄉樂唯欲"].startswith("無介不殺")
    music = {label for _, label in _steps(XIANG, "樂")}
    assert "工歌鹿鳴四牡皇皇者華" in music
    rise = {label for _, label in _steps(XIANG, "一人舉觶于賔")}
    assert "揖讓升賔厭介升" in rise
    # the labels near them stay as they were
    assert {"主人釋服"} <= {label for _, label in _steps(XIANG, "息司正")}
    assert {"乃間歌魚麗", "卒歌主人獻工"} <= music


def test_no_step_label_of_the_book_is_told_apart_by_a_number_alone():
    """特牲's 尸又三飯告飽祝侑之如初舉胳及獸魚如初 and …舉肩… were 〔一〕 and 〔二〕: cut where a word ends, the
    labels show the 胳 and the 肩. A label is numbered only when its steps say the same words."""
    for _, rite in load_corpus().rites():
        for stage in rite.stages:
            seq = step_sequence(rite, stage)
            if not stage.name or len(seq.elements) < 2:
                continue
            texts = [normalize(e.text) for e in seq.elements]
            for text, label in zip(texts, labels(texts), strict=True):
                if "〔" in label:
                    assert texts.count(text) > 1, (stage.name, label)
    assert labels(["尸又三飯告飽祝侑之如初舉胳及獸魚如初", "尸又三飯告飽祝侑之如初舉肩及獸魚如初"]) == [
        "尸又三飯告飽祝侑之如初舉胳及獸…",
        "尸又三飯告飽祝侑之如初舉肩及獸…",
    ]
    assert labels(["主人答拜。", "賔拜。", "主人答拜。"]) == ["主人答拜〔一〕", "賔拜", "主人答拜〔二〕"]


def test_no_reverse_card_names_a_character_of_its_answer_in_its_reference(cards):
    """鄉飲酒禮's 「主阶也 《说文解字》（阼字条） 何词？」 gave 阼 of 阼階 away (15 such cards in the book,
    all 阼階): the entry's note shows ～ for it; the back names the entry in full."""
    reverse = [(q, a, f) for deck in cards.values() for q, a, kind, f in deck if kind.endswith("义→词")]
    assert len(reverse) > 80
    for q, _, f in reverse:
        term = normalize(re.sub(r"<[^>]+>", "", f["Term"]))
        assert term not in normalize(q), q
        notes = re.findall(r"《[^》]*》（[^）]*）", q)
        assert not {ch for n in notes for ch in normalize(n)} & set(term), q
    (zuo,) = [(q, a) for q, a, f in reverse if f["Term"] == "阼階"]
    assert "主阶也" in zuo[0] and "（～字条）" in zuo[0] and "阼" not in zuo[0]
    assert "《说文解字》（阼字条）" in zuo[1]
    # a reference note holding no character of its answer stays whole: 酢 = 客酌主人也 (醋字条)
    (cu,) = [q for q, _, f in reverse if f["Term"] == "酢"]
    assert "（醋字条）" in cu


def _term_cards(cards, term: str) -> list[tuple[str, str, str, dict[str, str]]]:
    return [
        c for deck in cards.values() for c in deck if normalize(re.sub(r"<[^>]+>", "", c[3].get("Term", ""))) == term
    ]


def test_no_card_of_the_two_rites_teaches_a_dropped_gloss(cards):
    shown = [(q, a) for deck in cards.values() for q, a, kind, _ in deck if "词" in kind]  # term cards
    assert not [a for _, a in shown if "西序，堂上西墙也" in a]
    yi = [a for q, a, *_ in _term_cards(cards, "揖") if q.startswith("鄉飲酒禮·迎賔") and q.endswith("何义？")]
    assert yi and all("推手" in a and "揖賔蔡" not in a for a in yi), yi


def _only_blanks(text: str) -> bool:
    return not re.sub(r"\{\{c\d+::.*?\}\}|<[^>]+>|[，。；、\s]", "", text)


def test_no_cloze_blanks_its_whole_passage(cards):
    """鄉飲酒禮's passage 無算爵 was a cloze 「[执觯者取所奠觯，洗，升]」: all blank, its hint a cut-off part of
    鄉射's procedure — nothing to recall the answer from. 無算爵 keeps its term cards."""
    xiang = cards["03-xiangyinjiuli"]
    clozes = [f["Text"] for _, _, kind, f in xiang if kind.endswith("填空") and "Text" in f]
    assert clozes and not [t for t in clozes if _only_blanks(t)]
    assert not [t for t in clozes if "执觯者取所奠觯，洗，升" in t]
    terms = [f["Term"] for _, _, kind, f in xiang if "Term" in f]
    assert terms.count("無算爵") == 2  # 词→义 and 义→词
    assert [t for t in clozes if "{{c1::逆降::" in t]  # a cloze of a passage with words around its blank stays


def test_no_cloze_of_the_whole_book_is_a_bare_blank():
    """The whole book's package had six: 鄉飲酒禮's above, 喪服's 小功 and 緦麻 lists 「[...]」 (庶婦, 族昆弟) and
    「[外兄弟姊妹]」 (姑之子), passages that are only the term; 866 clozes stayed, 799 since a cloze needs
    a blank with a hint (tests/test_cloze_hints.py)."""
    notes = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    clozes = [dict(n.fields)["Text"] for n in notes if n.kind == "cloze"]
    assert len(clozes) > 750 and not [t for t in clozes if _only_blanks(t)]
    assert [t for t in clozes if "{{c1::寄公::諸侯失國而寓於他國者}}為所寓" in t]  # a blank with words around it


def test_the_guests_are_not_taught_as_the_shi():
    """The teacher's 众賔 = 士即众賔也 (the 鄉射 excerpt: 大夫耦士…士即衆賔也) said who the guests are, the
    mirror of 士 = 衆賔 (dropped at 003:417, 004:400); its 词→义 card held the word in its answer."""
    for file in (XIANG, "KR1d0044_004.txt"):
        t = book_terms(file).get(normalize("衆賔"))
        assert t is None or "士即众賔也" not in {g.gloss for g in t.glosses}, file
    assert "士" not in book_terms(XIANG) or "衆賔" not in {g.gloss for g in book_terms(XIANG)[normalize("士")].glosses}
