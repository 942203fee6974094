from __future__ import annotations

import re
from collections import Counter

import pytest

from study.build import Sources, plan_deck
from study.decks.apkg import FIELDS, note_guid, write_apkg
from study.decks.deckspec import load_deckspec, parse_deckspec
from study.decks.export import write_csv, write_tsv
from study.decks.notedata import NoteData
from study.text.normalize import normalize
from tests.conftest import ROOT

DECKS = ROOT / "decks"
CLOZE = re.compile(r"\{\{c(\d+)::(.*?)\}\}")


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


@pytest.fixture(scope="module")
def xiangshe(sources) -> list[NoteData]:
    return plan_deck(load_deckspec(DECKS / "xiangshe.yaml"), sources)


@pytest.fixture(scope="module")
def tesheng(sources) -> list[NoteData]:
    return plan_deck(load_deckspec(DECKS / "tesheng.yaml"), sources)


def notes_of(text: str, sources: Sources) -> list[NoteData]:
    return plan_deck(parse_deckspec(text, "t.yaml"), sources)


def by_identity(notes: list[NoteData], *identity: str) -> NoteData:
    return next(n for n in notes if n.identity == identity)


def test_a_term_note_has_ruby_highlighted_example_and_source(xiangshe):
    note = by_identity(xiangshe, "term", "乡射礼", "寻")
    assert note.deck == "礼经本义::乡射礼::词语"
    assert dict(note.fields) == {
        "Term": "寻",
        "Reading": "<ruby>寻<rt>xún</rt></ruby>",
        "Pinyin": "xún",
        "Glosses": '<ul class="glosses"><li><span class="gloss">八尺</span><span class="who">郝仲舆</span></li></ul>',
        "Clue": '<ul class="glosses"><li><span class="gloss">八尺</span><span class="who">郝仲舆</span></li></ul>',
        "Category": "度量",
        "Example": '乡侯上个五<b class="hl">寻</b>，中十尺。',
        "ExampleClue": '乡侯上个五<b class="hl">～</b>，中十尺。',
        "Source": "乡射礼 · 速賔 · 000_5ea6dcd6bccc2da6.txt:2",
    }
    assert note.tags == ("kind::terms", "category::measure", "乡射礼::速賔")
    assert (note.cards, note.plain, note.due) == (2, ("寻 (xún)", "八尺"), 1)


def test_the_gloss_to_term_side_hides_the_term(tesheng):
    note = by_identity(tesheng, "term", "特牲馈食礼", "佐食")
    assert "佐食" in note.field("Glosses")
    assert "佐食" not in note.field("Clue") + note.field("ExampleClue")
    assert "～" in note.field("Clue")


def test_a_per_rite_spec_keeps_its_n_most_frequent_terms(xiangshe, tesheng):
    assert Counter(n.kind for n in xiangshe)["terms"] == 150
    assert Counter(n.kind for n in tesheng)["terms"] == 60


def test_every_cloze_note_has_numbered_deletions_and_no_nesting(xiangshe, tesheng):
    clozes = [n for n in xiangshe + tesheng if n.model == "cloze"]
    assert len(clozes) == 142
    for n in clozes:
        text = n.field("Text")
        numbers = sorted({int(k) for k, _ in CLOZE.findall(text)})
        assert numbers == list(range(1, n.cards + 1)), n.identity
        assert all("{{" not in inner for _, inner in CLOZE.findall(text)), n.identity
        assert text.count("{{") == text.count("}}") == len(CLOZE.findall(text))


def test_a_cloze_blanks_every_occurrence_of_a_term_with_its_gloss_as_hint(tesheng):
    note = by_identity(tesheng, "cloze", "passage:特牲馈食礼.尸食:0")
    assert note.field("Text") == (
        "{{c1::尸::～传神意致福嘏于主人}}又三饭告饱{{c2::祝::～接神佐食接尸}}侑之如初举胳及{{c3::兽::腊胳此再举}}鱼如初"
    )  # 及 is a lone character outside the lexicon: glossed, but no word to recall in a cloze
    assert note.cards == 3
    assert note.tags == ("kind::cloze", "特牲馈食礼::尸食")


def test_passage_notes_exist_only_where_the_text_has_a_translation(xiangshe, tesheng):
    passages = [n for n in xiangshe if n.model == "passage"]
    assert len(passages) == 99
    assert all(n.field("Translation") for n in passages)
    assert not [n for n in tesheng if n.model == "passage"]
    note = by_identity(xiangshe, "passage", "passage:乡射礼.速宾:2")
    assert note.field("Context") == "乡射礼 · 速賔（邀请宾客）"
    assert note.field("Source") == "000_5ea6dcd6bccc2da6.txt:4–5"
    assert note.field("Commentary").startswith('<ul class="commentary"><li><span class="who">敖君善</span>')


def test_stage_order_notes_ask_next_previous_and_position(xiangshe):
    stages = [n for n in xiangshe if n.model == "order" and n.kind == "stages"]
    assert len(stages) == 31
    first, fifth, last = stages[0], stages[4], stages[-1]
    assert (first.field("AskPrev"), first.field("AskNext"), first.cards) == ("", "1", 2)
    assert (last.field("AskPrev"), last.field("AskNext"), last.cards) == ("1", "", 2)
    assert fifth.plain == ("乡射礼 第5个仪节", "主人酬賔 主人酬谢宾客")
    assert fifth.field("Item") == '<span class="cname">主人酬賔</span><span class="modern">主人酬谢宾客</span>'
    assert fifth.field("Prev") == '<span class="cname">賔酢主人</span><span class="modern">宾客酬谢主人</span>'
    assert sum(n.cards for n in stages) == 31 + 30 + 30


def test_overlapping_clozes_prompt_each_stage_once_with_context(xiangshe):
    overlaps = [n for n in xiangshe if n.model == "overlap" and n.kind == "stages"]
    assert [n.cards for n in overlaps] == [10, 9, 9, 3]
    assert sum(n.cards for n in overlaps) == 31
    second = overlaps[1]
    for k in range(1, 21):
        field = second.field(f"Text{k}")
        assert {int(x) for x, _ in CLOZE.findall(field)} == ({k} if k <= second.cards else set())
    # Text1 of the second window prompts stage 11 (请射) with stage 10 (立司正) before it.
    assert second.field("Text1") == (
        '<ol class="seq"><li class="gap">⋯</li>'
        '<li value="10" class="ctx"><span class="cname">立司正</span><span class="modern">设立司正</span></li>'
        '<li value="11" class="ask">{{c1::<span class="cname">请射</span><span class="modern">请求射箭</span>}}</li>'
        '<li class="gap">⋯</li></ol>'
    )


def test_step_orders_cover_every_named_stage_with_two_steps(tesheng):
    steps = [n for n in tesheng if n.kind == "steps"]
    assert {n.model for n in steps} == {"order", "overlap"}
    titles = {n.field("Title") for n in steps if n.model == "order"}
    assert "特牲馈食礼 · 尸食" in titles and len(titles) == 13  # 16 named stages; 宾长三献尸 and 2 more have one step
    assert Counter(n.deck for n in steps) == {"礼经本义::特牲馈食礼::步骤次序": len(steps)}


def test_new_cards_follow_the_text(xiangshe):
    assert [n.due for n in xiangshe] == list(range(1, len(xiangshe) + 1))
    order = [n.identity[2] for n in xiangshe if n.model == "order" and n.kind == "stages"]
    assert order[:3] == ["乡射礼.速宾", "乡射礼.迎宾", "乡射礼.主人献宾"]
    first_stage = [n.kind for n in xiangshe if n.tags[-1] == "乡射礼::速賔"]
    assert first_stage[0] == "terms" and first_stage[-1] == "stages"


def test_identities_are_unique_and_fields_match_the_frozen_note_types(xiangshe, tesheng, sources):
    everything = plan_deck(load_deckspec(DECKS / "all.yaml"), sources)
    for notes in (xiangshe, tesheng, everything):
        assert len({note_guid(n) for n in notes}) == len(notes)
        for n in notes:
            assert tuple(k for k, _ in n.fields) == FIELDS[n.model]
            assert all(" " not in t for t in n.tags)


def test_a_teachers_extra_term_is_escaped_everywhere(sources):
    notes = notes_of(
        "name: t\nrites: [燕礼]\nkinds: [terms, cloze]\nterms:\n  extra:\n"
        "    - {term: '<script>alert(1)</script>', gloss: 'A & B {{c1::x}} :: y'}\n"
        "    - {term: 篚, gloss: 竹器 <b>方</b>}\n",
        sources,
    )
    note = by_identity(notes, "term", "燕礼", normalize("<script>alert(1)</script>"))
    html = "".join(v for _, v in note.fields)
    assert "<script>" not in html
    assert note.field("Term") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert '<span class="gloss">A &amp; B {{c1::x}} :: y</span>' in note.field("Glosses")
    fei = by_identity(notes, "term", "燕礼", "篚")
    assert fei.field("Glosses").startswith('<ul class="glosses"><li><span class="gloss">竹器 &lt;b&gt;方&lt;/b&gt;')
    # A cloze hint made from the teacher's gloss can neither close the deletion nor start another.
    for n in notes:
        if n.model == "cloze":
            assert len(CLOZE.findall(n.field("Text"))) == n.field("Text").count("{{")


def test_the_same_timestamp_gives_the_same_bytes_and_leaves_no_scratch_file(tesheng, tmp_path, monkeypatch):
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out = tmp_path / "out"
    out.mkdir()
    write_apkg(tesheng, out / "a.apkg", timestamp=1_800_000_000)
    write_apkg(tesheng, out / "b.apkg", timestamp=1_800_000_000)
    write_apkg(tesheng, out / "c.apkg", timestamp=1_800_000_060)
    assert (out / "a.apkg").read_bytes() == (out / "b.apkg").read_bytes() != (out / "c.apkg").read_bytes()
    assert sorted(p.name for p in out.iterdir()) == ["a.apkg", "b.apkg", "c.apkg"]
    assert list(scratch.iterdir()) == []


def test_a_failed_write_leaves_the_old_package_and_no_temporary_file(tesheng, tmp_path):
    out = tmp_path / "d.apkg"
    out.write_bytes(b"old")
    broken = [*tesheng, NoteData("terms", "term", ("x",), "d", (("Term", "x"),), (), (0,), 2)]
    with pytest.raises(ValueError, match="do not match note type term"):
        write_apkg(broken, out)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["d.apkg"]


def test_csv_and_tsv_hold_terms_passages_and_positions(xiangshe, tmp_path):
    rows = write_tsv(xiangshe, tmp_path / "x.tsv")
    lines = (tmp_path / "x.tsv").read_text("utf-8").splitlines()
    assert rows == len(lines) == 150 + 99 + 31 + 462  # terms, passages, stage and step positions
    assert lines[0] == "寻 (xún)\t八尺"
    assert all(line.count("\t") == 1 for line in lines)
    write_csv(xiangshe, tmp_path / "x.csv")
    text = (tmp_path / "x.csv").read_text("utf-8")
    assert text.startswith("#separator:Comma\n#html:false\n#notetype:Basic\n#columns:GUID,Front,Back,Deck,Tags\n")
    fifth = next(line for line in text.splitlines() if ",乡射礼 第5个仪节," in line)
    assert re.fullmatch(
        r"csv-[0-9a-f]{16},乡射礼 第5个仪节,主人酬賔 主人酬谢宾客,礼经本义::乡射礼::仪节次序,kind::stages 乡射礼::主人酬賔",
        fifth,
    )


def test_rebuilding_with_an_edited_gloss_keeps_every_identity(tmp_path, sources):
    glossary = (DECKS / "glossary.yaml").read_text("utf-8")
    assert "gloss: 篚以陈爵、觯" in glossary
    (tmp_path / "glossary.yaml").write_text(glossary.replace("gloss: 篚以陈爵、觯", "gloss: 盛爵觯之竹器"), "utf-8")
    spec_text = (DECKS / "yanli.yaml").read_text("utf-8")
    (tmp_path / "yanli.yaml").write_text(spec_text, "utf-8")
    before = plan_deck(load_deckspec(DECKS / "yanli.yaml"), sources)
    after = plan_deck(load_deckspec(tmp_path / "yanli.yaml"), sources)
    assert [n.identity for n in before] == [n.identity for n in after]
    changed = [n.identity for n, m in zip(before, after, strict=True) if n.fields != m.fields]
    assert ("term", "燕礼", "篚") in changed
    assert "盛爵觯之竹器" in by_identity(after, "term", "燕礼", "篚").field("Glosses")


def test_a_lone_character_is_not_blanked_inside_a_longer_word(xiangshe, tesheng):
    from study.decks.selection import inside_word
    from study.text.normalize import normalize

    checked = 0
    for n in xiangshe + tesheng:
        if n.model != "cloze":
            continue
        plain, spans, pos = "", [], 0
        for m in re.finditer(r"\{\{c\d+::(.*?)::.*?\}\}", n.field("Text")):
            plain += n.field("Text")[pos : m.start()]
            spans.append((len(plain), len(plain) + len(m.group(1))))
            plain += m.group(1)
            pos = m.end()
        plain += n.field("Text")[pos:]
        for start, end in spans:
            if end - start == 1:
                checked += 1
                assert not inside_word(normalize(plain), start, end), (n.identity, plain[start - 2 : end + 2])
    assert checked > 50
