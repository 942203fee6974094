"""Cloze hints that still let several words fill the blank (the third card sample,
tests/data/gold/card_sample3.tsv): 「～南」 for 篚下 (洗南, 階下 fit), 「～草席」 for 蒲筵 (莞筵 fits),
「乡饮酒之爵也」 for 觚 (爵, 觶 fit). A hint is none when it shows nothing but sides after its mask, when
it masks a compass side and shows only a place (門内, 堂上), when it masks a word's modifier and shows
only what its head is (a gloss the book gives of it), or when it names a kind said of a rite or a role
only (study/decks/clozehints.py). Each rule on the real terms of the book's texts, and as a property of
every term and gloss of the whole book; the sample's cards on the whole book in Anki are in
tests/test_cloze_hints.py (its ``fresh`` package)."""

from __future__ import annotations

from study.build import load_document
from study.decks.blankhints import occurrence_hint
from study.decks.clozehints import book_glosses, cloze_hint
from study.terms.senses import MASK, gloss_key, senses_at
from study.text.normalize import is_punct, normalize
from study.text.titles import CHAPTERS
from tests.conftest import TEXTS
from tests.test_cloze_hints import _terms

SIDES = frozenset(normalize("東西南北上下左右前後內外"))
COMPASS = frozenset(normalize("東西南北左右"))
SAYS_NOTHING = frozenset(normalize("也之者曰謂為所以其而于於則與乎矣焉有"))


def _hints(file: str, *words: str) -> dict[str, str]:
    terms, shared = _terms(file)
    return {w: cloze_hint(terms[w], terms[w].glosses, shared) for w in words}


def _shown(hint: str) -> str:
    """The words a hint shows: not its mask, punctuation, nor words that say nothing alone (也, 之)."""
    return "".join(ch for ch in normalize(hint) if ch != MASK and not is_punct(ch) and ch not in SAYS_NOTHING)


def test_a_mask_followed_by_nothing_but_sides_is_no_hint():
    """篚下 = 篚南 masked 「～南」: south of what? 洗南, 階下 fit; 薦右 「～西」, 席下 「～西」, 少進 「～前」
    alike. Where the side comes first the mask is the kind of thing and stays: 左房 「東～」 (東房),
    大夫介 「上～」 (上介), 阼階 「東～」 (東階), 中堂 「南北之～」."""
    assert _hints("KR1d0044_003.txt", "篚下") == {"篚下": ""}  # 鄉飲酒禮
    assert _hints("KR1d0044_004.txt", "薦右", "少進") == {"薦右": "", "少進": ""}  # 鄉射禮
    assert _hints("KR1d0044_005.txt", "席下") == {"席下": ""}  # 燕禮
    assert _hints("KR1d0044_006.txt", "左房") == {"左房": "東～"}
    assert _hints("KR1d0044_009.txt", "大夫介", "中堂") == {"大夫介": "上～", "中堂": "南北之～"}
    assert _hints("KR1d0044_001.txt", "阼階")["阼階"] == "東～"


def test_a_compass_side_masked_needs_a_compass_side_shown():
    """東塾 = 門内東堂 masked 「門内～堂」 fits 西塾: 内, 上, 下 beside the mask say where (門内, 堂上,
    堂下), which either side has; 東壁 「～堂下」, 西序 「堂上～牆」 (東序), 寢右 「魚卧俎上首向～」 (左)
    alike. A side of the compass or the hands shown tells it: 上射 「尊者立右为～」, 南陳 「自北而～」,
    左房 「東～」, 東縮 「自西而～縱設之以西為上」."""
    assert _hints("KR1d0044_001.txt", "東塾", "東壁") == {"東塾": "", "東壁": ""}
    assert _hints("KR1d0044_004.txt", "西序") == {"西序": ""}
    assert _hints("KR1d0044_007.txt", "寢右") == {"寢右": ""}
    assert _hints("KR1d0044_006.txt", "上射", "南陳") == {"上射": "尊者立右为～", "南陳": "自北而～"}
    assert _hints("KR1d0044_014.txt", "東縮") == {"東縮": "自西而～縱設之以西為上"}


def test_a_mask_over_the_modifier_showing_only_what_the_head_is_is_no_hint():
    """蒲筵 = 蒲草席 masked 「～草席」: 鄉飲酒禮 teaches 筵 = 席 (003), so the hint says a grass mat, not
    which grass (莞筵 fits); 結于面 = 結于胸前 「～胸前」 (面 = 前: 結于胸, 結于前 fit), 相間 = 相代 「～代」
    (間 = 代). A mask over the head says which: 墨車 「黑漆～」, 阼階 「主～也」, 外門 「大～」; and 小臣正
    「～之長」 stays, the book teaching 正 nothing."""
    taught = book_glosses()
    assert "席" in taught[normalize("筵")] and "前" in taught[normalize("面")]
    assert normalize("正") not in taught
    assert _hints("KR1d0044_001.txt", "蒲筵", "外門") == {"蒲筵": "", "外門": "大～"}
    assert _hints("KR1d0044_008.txt", "結于面") == {"結于面": ""}
    assert _hints("KR1d0044_009.txt", "相間") == {"相間": ""}
    assert _hints("KR1d0044_002.txt", "墨車") == {"墨車": "黑漆～"}
    assert _hints("KR1d0044_006.txt", "小臣正") == {"小臣正": "～之長"}


def test_a_kind_said_of_a_rite_only_is_no_hint():
    """觚 = 乡饮酒之爵也 (說文) names a cup of 鄉飲酒: 爵 and 觶 are that rite's cups too, as 禮器也 fits every
    vessel; 觚's other gloss 二升 stays its hint. 中 = 盛算之器 (the vessel of the tallies: what it holds
    says which) and 觶 = 乡饮酒角也 (角, a cup of its own) stay."""
    terms, shared = _terms("KR1d0044_005.txt")  # 燕禮
    gu = terms["觚"]
    assert cloze_hint(gu, [g for g in gu.glosses if g.gloss == "乡饮酒之爵也"], shared) == ""
    assert cloze_hint(gu, gu.glosses, shared) == "二升"
    assert cloze_hint(terms["觶"], terms["觶"].glosses, shared) == "乡饮酒角也"
    assert _hints("KR1d0044_004.txt", "中") == {"中": "盛算之器"}


def _stage(file: str, name: str) -> tuple[str, str]:
    """The rite and the id of the stage ``name`` of a text of the book."""
    return next((r.name, s.id) for r in load_document(TEXTS / file).rites for s in r.stages if s.name == name)


def test_the_web_quiz_asks_those_blanks_with_no_hint_either():
    """The web's cloze hint of an occurrence is the card's (study/decks/blankhints.py): 鄉飲酒禮 ·
    主人獻賔's 篚下 (the third sample's 「～南」) and 燕禮 · 主人酬賔's 觚 (「乡饮酒之爵也」) have none."""
    for file, stage, text, word in (
        ("KR1d0044_003.txt", "主人獻賔", "主人坐取爵興適洗南面坐奠爵于篚下盥洗", "篚下"),
        ("KR1d0044_005.txt", "主人酬賔", "主人盥洗升媵觚于賔酌散西階上坐奠爵拜賔", "觚"),
    ):
        terms, shared = _terms(file)
        rite, stage_id = _stage(file, stage)
        assert senses_at(terms[word], text, text.index(word), rite, stage_id), (file, word)  # glossed there
        assert occurrence_hint(terms[word], text, text.index(word), rite, stage_id, shared) == "", (file, word)


def test_no_hint_of_the_whole_book_leaves_several_words_so():
    """Every taught term of every text of the book, each gloss alone as its hint's source: no masked
    hint shows only sides after its mask, masks a compass side with none shown, or masks only a modifier
    while showing a gloss of its head; no whole gloss shown is a kind said of a rite or a role."""
    taught = book_glosses()
    rites = {*CHAPTERS, *(c[:-1] for c in CHAPTERS if c[-1] in "礼仪")}
    heads = whole = 0
    for path in sorted(TEXTS.glob("KR1d0044_*.txt")):
        terms, shared = _terms(path.name)
        for t in terms.values():
            for g in t.glosses:
                hint = cloze_hint(t, [g], shared)
                where = (path.name, t.term, g.gloss, hint)
                if hint and MASK not in hint:
                    key = gloss_key(hint)
                    whose = key[:-1].removesuffix("之")
                    assert not (key[-1] in normalize("器服爵") and len(key) > 2 and whose in rites), where
                    whole += 1
                if MASK not in hint:
                    continue
                shown, held = _shown(hint), set(t.normalized) & set(normalize(g.gloss))
                first = normalize(hint).index(MASK)
                assert not (set(shown) <= SIDES and not SIDES & set(normalize(hint)[:first])), where
                assert not held & COMPASS or set(normalize(hint)) & COMPASS, where
                k = next((i for i, ch in enumerate(t.normalized) if ch not in held), len(t.normalized))
                if 0 < k < len(t.normalized) and not held & set(t.normalized[k:]):
                    head = t.normalized[k:]
                    said = ["".join(ch for ch in x if ch not in SAYS_NOTHING) for x in taught.get(head, ())]
                    assert not any(x and x in shown for x in [head, *said]), where
                    heads += 1
    assert heads >= 40 and whole >= 500  # 小臣正 「～之長」, 墨車's kind … are still hints
