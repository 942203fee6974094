"""Four faults the card readers met on the cards of the whole book, each tested on the real lines:
who speaks a note (an inline note of a classic line is not the start of the commentary below
it), and the senses a card, a cloze hint and a reverse card show."""

from __future__ import annotations

from functools import cache

from study.build import load_document
from study.terms.glosses import extract_glosses
from study.text.normalize import normalize
from tests.conftest import TEXTS


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
