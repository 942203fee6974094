"""HTML for card fields: every piece of text is escaped here, once, as it is wrapped, and shown
as a reader sees it (:mod:`study.text.display`).

Pinyin is static ``<ruby>`` (every Anki client renders it, unlike the add-on filters); a term in
a sentence is highlighted by matching normalised text, so 賔 in the text still matches 宾.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from ..text.display import shown
from ..text.normalize import normalize

MASK = "～"


def esc(text: str | None) -> str:
    """``text`` as HTML text, as a reader sees it (:func:`~study.text.display.shown`: the book's
    sentence marks as 「，」): ``<``, ``>``, ``&`` and quotes escaped, line breaks kept."""
    return html.escape(shown(text or "")).replace("\n", "<br>")


def cloze_text(text: str) -> str:
    """Escaped text that also cannot open, close or split a cloze (``{{``, ``}}``, ``::``)."""
    return esc(text).replace("{", "&#123;").replace("}", "&#125;").replace(":", "&#58;")


def span(cls: str, text: str | None) -> str:
    return f'<span class="{cls}">{esc(text)}</span>' if text else ""


def ruby(word: str, reading: str) -> str:
    """``word`` with its pinyin above each character (above the whole word if they do not pair up)."""
    syllables = reading.split()
    chars = list(word)
    if len(syllables) == len(chars):
        return "".join(f"<ruby>{esc(c)}<rt>{esc(s)}</rt></ruby>" for c, s in zip(chars, syllables, strict=True))
    return f"<ruby>{esc(word)}<rt>{esc(reading)}</rt></ruby>" if reading else esc(word)


def find_all(text: str, word: str) -> list[tuple[int, int]]:
    """Non-overlapping ``(start, end)`` of ``word`` in ``text``, comparing normalised forms."""
    key, norm = normalize(text), normalize(word)
    out: list[tuple[int, int]] = []
    at = key.find(norm) if norm else -1
    while at != -1:
        out.append((at, at + len(norm)))
        at = key.find(norm, at + len(norm))
    return out


def wrap(text: str, spans: Iterable[tuple[int, int]], before: str, after: str, *, escape=esc) -> str:
    """``text`` escaped, with ``before``/``after`` (HTML) around each of the sorted ``spans``."""
    out, pos = [], 0
    for start, end in sorted(spans):
        out += [escape(text[pos:start]), before, escape(text[start:end]), after]
        pos = end
    out.append(escape(text[pos:]))
    return "".join(out)


def highlight(text: str, word: str) -> str:
    """``text`` with every occurrence of ``word`` in ``<b class="hl">``."""
    return wrap(text, find_all(text, word), '<b class="hl">', "</b>")


def mask(text: str, words: Iterable[str]) -> str:
    """Plain ``text`` with each of ``words`` replaced by ～ (so a clue does not give the answer)."""
    for word in sorted(set(words), key=len, reverse=True):
        spans = find_all(text, word)
        for start, end in reversed(spans):
            text = text[:start] + MASK + text[end:]
    return text


def leave_out(context: str, words: Iterable[str], stand_in: str | None = None, *, restated: Iterable[str] = ()) -> str:
    """A card's context line (``士昏禮 · 納采``) without the parts that hold one of ``words`` (a
    card's answers), as they are or spelt apart (:func:`spelt_apart`) — not masked: 「士昏禮 · 納～」
    or 「～昏禮」 would give a card's answer (采, 士) away. ``restated``: words the front shows itself
    (a 词→义 card's term), which a part may use as they are (筮日 on 筮's card, 納吉 on 納吉's: the
    word asked, nothing said of it) but not spell apart (:func:`restates`: 遭主國喪 on 遭喪's card
    puts in whose mourning, 夕陳幣授使者 on 夕幣's what is done with the gifts). ``stand_in`` takes
    the place of a stage left out (its number: 「第二節」), so that two cards stay apart."""
    words = [w for w in words if w]
    restated = [w for w in restated if w]
    parts = []
    for n, part in enumerate(context.split(" · ")):
        if not any(find_all(part, w) or spelt_apart(part, w) for w in words) and not any(
            restates(part, w) for w in restated
        ):
            parts.append(part)
        elif n and stand_in:
            parts.append(stand_in)
    return " · ".join(parts)


SPREAD = 2  # characters a name may put between those of a word it still spells (遭主國喪: 遭…喪)


def spelt_apart(text: str, word: str) -> bool:
    """Whether ``text`` holds the characters of a word of two or more in order, at most
    :data:`SPREAD` others between them in all (the stage 遭主國喪 spells 遭喪; 西階上北面 is no 西面)."""
    key, norm = normalize(text), normalize(word)
    if len(norm) < 2:
        return False
    for start in (i for i, ch in enumerate(key) if ch == norm[0]):
        at = start
        for ch in norm[1:]:
            at = key.find(ch, at + 1)
            if at == -1:
                break
        if at != -1 and at - start + 1 - len(norm) <= SPREAD:
            return True
    return False


def restates(text: str, word: str) -> bool:
    """Whether ``text`` spells ``word`` apart other than where it holds it as it is: the word with
    other characters put in (the stage 遭主國喪 restates 遭喪; 筮日 and 執幣 only use 筮, 執幣)."""
    return spelt_apart(mask(text, [word]), word)


def items(values: Iterable[str], cls: str, *, tag: str = "ul") -> str:
    """An HTML list of already-escaped ``values``."""
    inner = "".join(f"<li>{v}</li>" for v in values)
    return f'<{tag} class="{cls}">{inner}</{tag}>' if inner else ""


def plain(text: str) -> str:
    """One line of text as a reader sees it, without tabs or line breaks (for CSV/TSV cells)."""
    return re.sub(r"[\t\r\n]+", " ", shown(text)).strip()
