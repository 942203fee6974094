"""Title lines of 《礼经本义》: book, collection, author, category (五礼) and chapter (rite)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .normalize import normalize

# The seventeen chapters of the 仪礼, in normalised form; a line that is exactly one of these
# (or a rite the manifest names) opens a new rite.
CHAPTERS = (
    "士冠礼",
    "士昏礼",
    "士相见礼",
    "乡饮酒礼",
    "乡射礼",
    "燕礼",
    "大射仪",
    "大射",
    "聘礼",
    "公食大夫礼",
    "觐礼",
    "丧服",
    "士丧礼",
    "既夕礼",
    "士虞礼",
    "特牲馈食礼",
    "少牢馈食礼",
    "有司彻",
    "有司",
)
CATEGORIES = ("吉礼", "凶礼", "宾礼", "军礼", "嘉礼")
_NUMERAL = "一二三四五六七八九十百〇零"


def title_kind(line: str, *, book: str = "礼经本义", rites: Iterable[str] = ()) -> str | None:
    """The kind of title ``line`` is (book, collection, author, category, chapter), or None."""
    text = normalize(line.strip().rstrip("。"))
    if not text or len(text) > 16:
        return None
    if re.fullmatch(rf"{re.escape(normalize(book))}(卷[{_NUMERAL}]+)?", text):
        return "book"
    if re.fullmatch(r"钦定四库全书|四库全书", text):
        return "collection"
    if len(text) <= 10 and text.endswith("撰") and not re.search(r"[，。：、]", text):
        return "author"
    if text in CATEGORIES:
        return "category"
    if text in CHAPTERS or text in {normalize(r) for r in rites}:
        return "chapter"
    return None
