"""A 反切 read with today's readings: the initial of the first character, the final and the tone
class of the second (厭，於豔反: 於 y- + 豔 -an falling → yàn), as a choice among the readings the
character has (pypinyin's heteronyms). The sounds have moved since 陸德明, so the match is loose
where they moved regularly — palatalised initials (古 g- → 嘏 jiǎ), a medial the initial swallowed
(之承反 zh- -eng), 鐸 -ak read -e or -uo (才各反 → zuò) — and strict on the tone class (平 = 1 or 2,
上 = 3 or 4, 去 = 4). A reading is given only when exactly one of the character's readings fits;
none or several is no answer. Measured on the 釋文 反切 the reading table cites (tests): it decides
about half and is wrong on a few (殺，所戒反 → xiè for shài), so its answers are proposals a person
signs, never readings applied unread.
"""

from __future__ import annotations

import re
from functools import lru_cache

_MARKS = {"āēīōūǖ": 1, "áéíóúǘ": 2, "ǎěǐǒǔǚ": 3, "àèìòùǜ": 4}
_PLAIN = str.maketrans("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ", "aaaaeeeeiiiioooouuuuüüüü")
_TONED = re.compile(r"[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")
_INITIALS = ("zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h")
_INITIALS += ("j", "q", "x", "r", "z", "c", "s", "y", "w")
# Where an initial may come from: labial, dental, velar, sibilant, zero … (palatals from velars
# and sibilants both, 日母 r- or none, 匣/曉 h- or none, 微母 w- from m-).
_PLACES = {
    "b": "P", "p": "P", "f": "P", "m": "M", "d": "T", "t": "T", "n": "N", "l": "L", "r": "RØ",
    "g": "K", "k": "K", "h": "K", "j": "KS", "q": "KS", "x": "KS", "z": "S", "c": "S", "s": "S",
    "zh": "ST", "ch": "ST", "sh": "S", "": "Ø",
}  # fmt: skip
_FULL = {"ui": "uei", "iu": "iou", "un": "uen", "ong": "ueng", "iong": "üeng"}
_SIBILANT = ("z", "c", "s", "zh", "ch", "sh", "r")
_VOICED_ONCE = ("b", "d", "g", "z", "zh", "j")  # unaspirated today in a 仄 tone: maybe 全濁 once


@lru_cache(maxsize=4096)
def heteronyms(char: str) -> tuple[str, ...]:
    """Every toned reading pypinyin knows for one character, its first reading first."""
    from pypinyin import Style, pinyin

    return tuple(dict.fromkeys(r for r in pinyin(char, style=Style.TONE, heteronym=True)[0] if _TONED.search(r)))


def _split(syllable: str) -> tuple[str, str, int]:
    """(initial, final, tone) of a toned syllable; y-/w- are no initial (yan = -ian, wan = -uan)."""
    tone = next((t for marks, t in _MARKS.items() if any(m in syllable for m in marks)), 0)
    plain = syllable.translate(_PLAIN)
    initial = next((i for i in _INITIALS if plain.startswith(i)), "")
    final = plain[len(initial) :]
    if initial == "y":
        final = {"u": "ü", "un": "ün", "uan": "üan", "ue": "üe"}.get(
            final, final if final.startswith("i") else "i" + final
        )
    elif initial == "w":
        final = final if final.startswith("u") else "u" + final
    elif initial in ("j", "q", "x") and final.startswith("u"):
        final = "ü" + final[1:]
    return ("" if initial in ("y", "w") else initial), final, tone


def tone(syllable: str) -> int:
    """The tone of a toned syllable (1–4; 0 without a mark)."""
    return _split(syllable)[2]


def _rime(final: str) -> str:
    """A final without its medial: 豔 -ian and 厭 -ian and 旦 -an all rime in -an."""
    final = _FULL.get(final, final)
    core = final.lstrip("iuü") or final[-1:]
    core = "e" + core if core in ("n", "ng") else core  # -in, -ün, -ing rime as -en, -eng
    return "e" if core == "o" else core


def _fits(reading: str, upper: str, lower: str, *, doubt: bool = False) -> bool:
    r_initial, r_final, r_tone = _split(reading)
    u_initial = _split(upper)[0]
    l_initial, l_final, l_tone = _split(lower)
    if not set(_PLACES[r_initial]) & set(_PLACES[u_initial]):
        return False
    rimes = {_rime(l_final)}
    if l_initial in ("j", "q", "x") and l_final == "ie":  # 皆/佳 rimes: 戒 jiè, but 殺 (所戒反) shài
        rimes.add("ai")
    if r_initial in _SIBILANT:  # 側居反 → zū: after a sibilant the rounded -ü is -u
        rimes = {r.replace("ü", "u") for r in rimes}
    if _rime(r_final) not in rimes:
        return False
    if doubt and l_tone == 4 and l_initial in _VOICED_ONCE:  # 濁上 became 去: 丁丈反 may be zhǎng
        return r_tone in (3, 4)
    return {1: r_tone in (1, 2), 2: r_tone in (1, 2), 3: r_tone in (3, 4), 4: r_tone == 4}.get(l_tone, False)


def fanqie(char: str, upper: str, lower: str) -> tuple[str, ...]:
    """The readings of ``char`` that 「upper lower 反」 fits (one: the answer; none or several: none).

    The upper and lower characters are read in their first reading. A lower character read in the
    falling tone today with an unaspirated initial may have been 濁上 (丈 zhàng, once rising): that
    doubt adds the rising reading to a falling one that fits (長，丁丈反: zhǎng or zhàng, no answer)
    but never stands alone (枕，之鴆反 gives no answer where pypinyin knows only zhěn)."""
    u, low = heteronyms(upper)[:1], heteronyms(lower)[:1]
    if not u or not low:
        return ()
    sure = tuple(r for r in heteronyms(char) if _fits(r, u[0], low[0]))
    doubtful = tuple(r for r in heteronyms(char) if _fits(r, u[0], low[0], doubt=True))
    return doubtful if sure else ()
