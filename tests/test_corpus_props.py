"""Property tests: any text parses or raises CorpusFormatError, and loses no character."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from study.errors import CorpusFormatError
from study.model import Document, LineKind
from study.text.corpus import parse_corpus

ALPHABET = list("甲乙丙丁也之曰者賔髙右译的了是说【】　。，：「」")
ALPHABET += ["【句】", "\n", "\n", "郝仲舆曰", "燕礼", "礼经本义卷五"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join)

_DROP = set(" \t\u3000\n【】")


def _strip(text: str) -> str:
    return "".join(ch for ch in text if ch not in _DROP)


def _stream(doc: Document) -> str:
    """Every classical character the document holds, in source order."""
    items: list[tuple[int, str]] = [(t.line, t.text) for t in doc.titles]
    for rite in doc.rites:
        items += [(s.line, s.text) for s in rite.commentary]
        for stage in rite.stages:
            for p in stage.passages:
                items.append((p.pieces[0].line, "".join(pc.text for pc in p.pieces)))
            if stage.name is not None:
                items.append((stage.line, stage.heading))
    items.sort(key=lambda item: item[0])  # stable: same-line items keep document order
    return _strip("".join(text for _, text in items))


def _classical_side(text: str, doc: Document) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    classical = (LineKind.CLASSICAL, LineKind.TITLE)
    keep = [line for line, kind in zip(lines, doc.line_kinds, strict=True) if kind in classical]
    return _strip("".join(keep))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_any_text_parses_or_raises_the_corpus_error(text):
    try:
        parse_corpus(text, "h.txt", first_rite="乡射礼")
    except CorpusFormatError as e:
        assert str(e).startswith("h.txt:")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_every_classical_character_appears_exactly_once_in_order(text):
    try:
        doc = parse_corpus(text, "h.txt", first_rite="乡射礼")
    except CorpusFormatError:
        return
    assert _stream(doc) == _classical_side(text, doc)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_passages_and_headings_sit_on_the_lines_they_name(text):
    try:
        doc = parse_corpus(text, "h.txt", first_rite="乡射礼")
    except CorpusFormatError:
        return
    lines = text.split("\n")
    for rite in doc.rites:
        for stage in rite.stages:
            if stage.name is not None:
                assert "右" + stage.name in lines[stage.line - 1]
            for p in stage.passages:
                for piece in p.pieces:
                    if piece.kind == "text":
                        assert piece.text in lines[piece.line - 1]
                assert set(p.lines) >= {pc.line for pc in p.pieces}


def test_the_seed_texts_lose_no_character(corpus):
    from tests.conftest import SEED_PATHS

    for path, doc in zip(SEED_PATHS, corpus.documents, strict=True):
        text = path.read_text("utf-8")
        assert _stream(doc) == _classical_side(text, doc), doc.file
