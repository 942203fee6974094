"""Moodle XML: the sequencing items as "ordering" questions (qtype_ordering) and the vocabulary
as multiple-choice questions, for schools whose courses live in Moodle.

Each question carries the elements Moodle's XML importer reads: name, questiontext with its
format, generalfeedback, defaultgrade, penalty, hidden, and per type: ``single``,
``shuffleanswers``, ``answernumbering`` and answers with ``fraction`` (multichoice); ``layouttype``,
``selecttype``, ``selectcount``, ``gradingtype``, ``showgrading``, ``numberingstyle`` and the
answers in the right order (ordering).
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from .catalog import ORDER_MODES, Catalog, Family, Kind, QuizItem
from .grading import OrderMode
from .quiz import present

GRADING = {
    OrderMode.ALL_OR_NOTHING: "ALL_OR_NOTHING",
    OrderMode.ABSOLUTE_POSITION: "ABSOLUTE_POSITION",
    OrderMode.RELATIVE_NEXT: "RELATIVE_NEXT_EXCLUDE_LAST",
    OrderMode.LONGEST_SUBSEQUENCE: "LONGEST_ORDERED_SUBSET",
}
BOOK = "礼经本义"


_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """``value`` without the characters XML 1.0 cannot hold (the file would not parse)."""
    return _NOT_XML.sub("", value)


def _text(parent: ET.Element, tag: str, value: str, *, fmt: str | None = None) -> ET.Element:
    el = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
    ET.SubElement(el, "text").text = xml_text(value)
    return el


def _simple(parent: ET.Element, tag: str, value: str) -> None:
    ET.SubElement(parent, tag).text = xml_text(value)


def _header(quiz: ET.Element, qtype: str, name: str, question: str) -> ET.Element:
    q = ET.SubElement(quiz, "question", {"type": qtype})
    _text(q, "name", name)
    _text(q, "questiontext", question, fmt="html")
    _text(q, "generalfeedback", "", fmt="html")
    _simple(q, "defaultgrade", "1.0000000")
    _simple(q, "penalty", "0.3333333")
    _simple(q, "hidden", "0")
    _simple(q, "idnumber", "")
    return q


def _feedback(q: ET.Element) -> None:
    _text(q, "correctfeedback", "正确。", fmt="html")
    _text(q, "partiallycorrectfeedback", "部分正确。", fmt="html")
    _text(q, "incorrectfeedback", "不正确。", fmt="html")
    _simple(q, "shownumcorrect", "1")


def _category(quiz: ET.Element, rite: str) -> None:
    q = ET.SubElement(quiz, "question", {"type": "category"})
    _text(q, "category", f"$course$/top/{BOOK}/{rite}")


def _esc(text: str) -> str:
    """Question texts are HTML in Moodle: markup in the source is shown as text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def moodle_xml(items: Iterable[QuizItem], catalog: Catalog, *, seed: int = 0) -> bytes:
    """Moodle XML for ``items``: term → gloss multiple choice and ordering questions."""
    rng = random.Random(seed)
    quiz = ET.Element("quiz")
    current_rite = None
    for item in items:
        wanted = (item.family == Family.VOCAB and item.direction == "t2g") or (item.kind == Kind.ORDER)
        if not wanted:
            continue
        if item.rite != current_rite:
            _category(quiz, item.rite)
            current_rite = item.rite
        question = present(item, catalog, rng)
        if item.family == Family.VOCAB:
            q = _header(
                quiz, "multichoice", f"{question.subject} · 词义", f"<p>「{_esc(question.subject)}」的意思是？</p>"
            )
            _simple(q, "single", "true")
            _simple(q, "shuffleanswers", "true")
            _simple(q, "answernumbering", "abc")
            _simple(q, "showstandardinstruction", "0")
            _feedback(q)
            for option in question.options:
                answer = ET.SubElement(
                    q, "answer", {"fraction": "100" if option in question.accepted else "0", "format": "html"}
                )
                ET.SubElement(answer, "text").text = _esc(option)
                _text(answer, "feedback", "", fmt="html")
            continue
        start, size = item.window
        what = "各节" if item.direction in ("stages", "rite") else "步骤"
        title = f"{question.subject} · {what} {start + 1}–{start + size}"
        q = _header(quiz, "ordering", title, f"<p>把「{_esc(question.subject)}」的{what}按顺序排列。</p>")
        _simple(q, "layouttype", "VERTICAL")
        _simple(q, "selecttype", "ALL")
        _simple(q, "selectcount", str(size))
        _simple(q, "gradingtype", GRADING[ORDER_MODES[item.direction]])
        _simple(q, "showgrading", "SHOW")
        _simple(q, "numberingstyle", "none")
        _feedback(q)
        for n, text in enumerate(question.right_order, 1):
            answer = ET.SubElement(q, "answer", {"fraction": f"{n}.0000000", "format": "moodle_auto_format"})
            ET.SubElement(answer, "text").text = text
    ET.indent(quiz)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="utf-8") + b"\n"
