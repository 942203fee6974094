"""Tell classical lines from modern-Chinese translation lines.

A translation block starts at a line opening with 「译」 and runs until the classical text resumes.
Where it ends is not marked, so each later line is weighed: modern function words (的, 了, 是, 说 …)
and modern quotes “” against classical particles (曰, 也, 矣 …), 「」 quotes, variant characters
the translators never use, and a 】 that closes a commentary left open by the chunk cut. A line
that repeats a classical line of the chunk (an untranslated copy) stays in the block.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from ..model import LineKind
from .normalize import is_variant, search_key

# Weights are per occurrence; a line leaves the block when classical evidence beats modern
# evidence by SWITCH_MARGIN (per 10 characters, with a floor so that short lines stay put).
_MODERN = {
    "的": 3.0,
    "了": 2.0,
    "们": 3.0,
    "着": 1.5,
    "这": 2.0,
    "那": 1.5,
    "么": 2.0,
    "吗": 3.0,
    "呢": 3.0,
    "把": 1.5,
    "被": 1.0,
    "没": 2.0,
    "很": 2.0,
    "说": 1.5,
    "是": 1.0,
    "就": 1.0,
    "都": 0.5,
    "给": 2.0,
    "让": 2.0,
    "跟": 1.5,
    "“": 3.0,
    "”": 3.0,
    "‘": 3.0,
    "’": 3.0,
}
_MODERN_WORDS = {
    "已经": 2.0,
    "一样": 2.0,
    "因为": 2.0,
    "所以": 1.5,
    "如果": 2.0,
    "然后": 2.0,
    "起身": 1.5,
    "回到": 1.5,
    "走到": 1.5,
    "站在": 1.5,
    "面向": 1.0,
    "面朝": 1.5,
    "台阶": 1.5,
    "宾客": 1.5,
    "拿着": 2.0,
    "进行": 2.0,
    "表示": 1.5,
    "意思": 2.0,
    "可以": 1.0,
    "没有": 1.5,
    "时候": 2.0,
    "右边": 2.0,
    "右侧": 2.0,
    "右方": 1.5,
    "以上是": 2.0,
    "之后": 0.5,
    "之间": 0.5,
}
_CLASSICAL = {
    "曰": 3.0,
    "也": 1.0,
    "之": 0.7,
    "者": 0.5,
    "矣": 2.0,
    "焉": 2.0,
    "乎": 1.5,
    "哉": 2.0,
    "其": 0.5,
    "于": 0.5,
    "谓": 0.7,
    "犹": 1.0,
    "皆": 0.7,
    "遂": 0.5,
    "乃": 0.7,
    "亦": 0.7,
    "「": 2.0,
    "」": 2.0,
    "『": 2.0,
    "』": 2.0,
}
_VARIANT_WEIGHT = 1.5
_OPEN_CLOSE_WEIGHT = 6.0  # a leading 】 that closes a commentary left open before the block
COPY_SIMILARITY = 0.9
_COPY_WEIGHT = 10.0  # an untranslated copy of a line of the chunk belongs to the block


def modern_score(line: str) -> float:
    """Evidence that ``line`` is modern Chinese."""
    score = sum(_MODERN.get(ch, 0.0) for ch in line)
    score += sum(w * line.count(word) for word, w in _MODERN_WORDS.items())
    return score


def classical_score(line: str, *, commentary_open: bool = False) -> float:
    """Evidence that ``line`` is classical text (or a continuation of a classical commentary)."""
    score = sum(_CLASSICAL.get(ch, 0.0) for ch in line)
    score += _VARIANT_WEIGHT * sum(1 for ch in line if "\u4e00" <= ch <= "\u9fff" and is_variant(ch))
    if commentary_open:
        close, open_ = line.find("】"), line.find("【")
        if close != -1 and (open_ == -1 or close < open_):
            score += _OPEN_CLOSE_WEIGHT
    return score


def _commentary_open(lines: Sequence[str]) -> bool:
    depth = 0
    for line in lines:
        for ch in line:
            if ch == "【":
                depth = 1
            elif ch == "】":
                depth = 0
    return depth > 0


def _starts_block(line: str) -> bool:
    return line.startswith("译") and modern_score(line) >= classical_score(line)


def line_evidence(line: str, *, commentary_open: bool = False) -> float:
    """Modern minus classical evidence: positive for translation, negative for classical.

    While the chunk before the block left a commentary open, a line whose first bracket opens a
    new 【 cannot be that commentary's continuation, which counts as modern evidence.
    """
    evidence = modern_score(line) - classical_score(line, commentary_open=commentary_open)
    if commentary_open:
        close, open_ = line.find("】"), line.find("【")
        if open_ != -1 and (close == -1 or open_ < close):
            evidence += _OPEN_CLOSE_WEIGHT
    return evidence


def _is_copy(key: str, chunk_keys: Sequence[str]) -> bool:
    """True if ``key`` repeats a line of the chunk, allowing a corrected character or two."""
    if not key:
        return False
    for other in chunk_keys:
        if key == other:
            return True
        if min(len(key), len(other)) >= 8 and abs(len(key) - len(other)) <= 2:
            if SequenceMatcher(None, key, other, autojunk=False).ratio() >= COPY_SIMILARITY:
                return True
    return False


def _block_end(evidence: Sequence[float]) -> int:
    """Where a block's translation ends: the split maximising modern evidence before it.

    ``evidence[0]`` is the 译 line itself, always translation. Ties go to the earliest split, so
    a line without evidence either way right after the block counts as classical.
    """
    best, best_k, total = evidence[0], 1, evidence[0]
    for k in range(1, len(evidence)):
        total += evidence[k]
        if total > best + 1e-9:
            best, best_k = total, k + 1
    return best_k


def classify_lines(lines: Sequence[str]) -> list[LineKind]:
    """Label each physical line as blank, classical or translation (titles are found later).

    Lines before the first 「译」 line are classical; from each 「译」 line on, a block of
    translation runs until the split point chosen by :func:`_block_end`, and the classical
    text resumes until the next 「译」 line.
    """
    stripped = [raw.strip().lstrip("\u3000").strip() for raw in lines]
    kinds = [LineKind.BLANK if not s else LineKind.CLASSICAL for s in stripped]
    content = [i for i, s in enumerate(stripped) if s]
    starts = [pos for pos, i in enumerate(content) if _starts_block(stripped[i])]
    previous_end = 0
    for n, pos in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(content)
        chunk = [stripped[i] for i in content[previous_end:pos]]
        chunk_keys = [search_key(line) for line in chunk]
        is_open = _commentary_open(chunk)
        evidence = []
        for i in content[pos:stop]:
            copy = _is_copy(search_key(stripped[i]), chunk_keys)
            evidence.append(_COPY_WEIGHT if copy else line_evidence(stripped[i], commentary_open=is_open))
        end = pos + _block_end(evidence)
        for i in content[pos:end]:
            kinds[i] = LineKind.TRANSLATION
        previous_end = end
    return kinds
