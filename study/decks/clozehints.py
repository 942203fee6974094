"""The hint of a cloze's blank: a gloss of that occurrence's sense that lets a student answer it.

A blank that several words of the rite fill (【祝】盥升取苴: 祝, 主人, 佐食) asks nothing without a hint.
The hint is a gloss of the sense of that occurrence, cut at a clause to at most :data:`HINT_CHARS`
characters, with every character of the answer masked (～), as the 义→词 cards mask theirs:

- a gloss sharing no character with the answer is shown as it is (徹 「去」), the shortest first;
- else the gloss masked: its leading headword dropped (「袒，露左臂也」 → 「露左臂也」), from the
  clause that holds the headword whole on, not one holding a part of it only (「射中曰获，报中之人曰
  获者」 → 「报中之人曰～」), each character of the answer masked (祝 「～接神佐食接尸」, 洗 「～以盥濯」);
- a masked gloss must still say something: two words beside the mask, or a definition (「左为～」,
  「吹～者」), or a word for a character of the answer it does not hold (阼階 「主～也」: 主 for 阼).
  「礼～也」 (俎 = 礼俎也) only repeats the answer with an epithet; a mask over a side or a number
  of the answer leaves a hint that fits every side or number unless it shows one to tell it from
  (西面 「～向陳之」, 北面 「～首」, 三耦 「大夫、士～」 are none; 上射 「尊者立右为～」 is one);
  A compass side (東西南北左右) masked needs one of those shown: 上, 下, 内 beside it name a place
  (堂上, 門内), which every side has (東塾 「門内～堂」, 西序 「堂上～牆」, 寢右 「魚卧俎上首向～」 are
  none). A mask followed by nothing but sides (篚下 「～南」, 席下 「～西」, 少進 「～前」) gives only the
  side of a thing it hides: no hint (「東～」 for 左房, 「上～」 for 大夫介 stay: the side is given, the
  mask the kind of thing). A mask over a word's modifier whose shown words hold a gloss the book or
  the glossary gives of its head (蒲筵 「～草席」: 筵 = 席; 結于面 「～胸前」: 面 = 前) says what kind of
  thing, not which (莞筵 fits): no hint (:func:`book_glosses`);
- no hint is a gloss that glosses another term of the rite's text too (楹 and 楔 「柱也」; not a
  gloss naming both, which tells them apart: 「祝接神佐食接尸」), nor a gloss naming only the kind
  of thing (禮器也 fits 爵, 觚 and 觶 alike; 酒器也 every wine vessel; 禮服 爵弁, 皮弁 and 朝服), nor
  the kind qualified only by a rite or a role (觚 = 「乡饮酒之爵也」: 爵 and 觶 are cups of that rite too).

A term with no such hint in a unit is not blanked there (:func:`study.decks.cards.cloze_note`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..model import Gloss, Term
from ..terms.lexicon import category_of
from ..terms.senses import MASK, gloss_key
from ..text.normalize import is_punct, normalize, search_key
from ..text.titles import CHAPTERS

HINT_CHARS = 12  # a cloze hint is a gloss (or its clauses) of at most this many characters
_CUTS = "，、；"
_STRIP = "。；，、 "
_CLAUSE = re.compile(r"(?<=[，；。])")
_FUNCTION = frozenset(normalize("也之者曰謂為所以其而于於則與乎矣焉有"))  # words that say nothing alone
_DEFINES = frozenset(normalize("曰謂為者"))  # 「左为～」「吹～者」: the gloss defines the masked word
_KINDS = frozenset(normalize("器服"))  # 禮器, 酒器, 禮服: a gloss of two characters ending so names a kind
_KIND_OF = frozenset(normalize("器服爵"))  # 乡饮酒之爵 (觚): a kind said of a rite or a role only
_RITES = frozenset({*CHAPTERS, *(c[:-1] for c in CHAPTERS if c[-1] in "礼仪")})  # 乡饮酒, 大射 …
# which side and how many: masked, the rest of the gloss fits every side or number (西面 「～向陳之」)
_WHICH = (frozenset(normalize("東西南北上下左右前後內外")), frozenset(normalize("一二三四五六七八九十百兩")))
_COMPASS = frozenset(normalize("東西南北左右"))  # which way: 上, 下, 内 beside a mask name a place (堂上, 門内)


@dataclass
class RiteHints:
    """What the clozes of a rite need to hint their blanks, and what they could not ask."""

    shared: Mapping[str, frozenset[str]]  # :func:`shared_glosses` of the rite's text
    unasked: int = 0  # cloze cards its units offered whose term has no hint (not made)


def shared_glosses(pool: Iterable[Term]) -> dict[str, frozenset[str]]:
    """For each gloss (by :func:`gloss_key`), the terms (normalised) of ``pool`` it glosses."""
    out: dict[str, set[str]] = defaultdict(set)
    for t in pool:
        for g in t.glosses:
            out[gloss_key(g.gloss)].add(t.normalized)
    return {k: frozenset(v) for k, v in out.items()}


def cloze_hint(term: Term, glosses: Sequence[Gloss], shared: Mapping[str, frozenset[str]]) -> str:
    """The hint of a blank of ``term`` whose sense ``glosses`` give: unmasked glosses first, then
    the shortest; empty if no gloss makes one (see the module's rules)."""
    hints = [h for g in glosses if _honest(term, g.gloss, shared) for h in [_hint(term, g.gloss)] if h]
    hints = [h for h in hints if MASK in h or _honest(term, h, shared)]  # 算，筹也 → 筹也, 矢's gloss
    return min(hints, key=lambda h: (MASK in h, len(h)), default="")


def _honest(term: Term, gloss: str, shared: Mapping[str, frozenset[str]]) -> bool:
    """A gloss (or the part of it a hint shows) that glosses no other term of the text — but those it
    names — and names more than a kind."""
    key, said = gloss_key(gloss), normalize(gloss)
    others = {x for x in shared.get(key, ()) if x != term.normalized and x not in said}
    return not others and not _names_a_kind(key)


def _names_a_kind(key: str) -> bool:
    """Whether a gloss (:func:`gloss_key`) names only a kind of thing: 禮器, 酒器, 禮服; or the kind
    said of a rite or a role alone (觚 = 乡饮酒之爵: 爵 and 觶 are that rite's cups too)."""
    if len(key) <= 2:
        return key[-1:] in _KINDS
    whose = key[:-1].removesuffix("之")
    rite = whose in _RITES or (len(whose) >= 2 and any(r.startswith(whose) for r in _RITES))  # 乡饮 = 乡饮酒
    return key[-1] in _KIND_OF and (rite or category_of(whose) == "role")


def _hint(term: Term, gloss: str) -> str:
    """``gloss`` as the hint of ``term``: cut to a clause, the answer's characters masked; empty if
    nothing worth saying is left."""
    text = _cut(term, gloss)
    chars = set(term.normalized)
    if not text or not chars & set(normalize(text)):
        return text
    hint = re.sub(f"{MASK}+", MASK, "".join(MASK if normalize(ch) in chars else ch for ch in text))
    words = [ch for ch in normalize(hint) if ch != MASK and not is_punct(ch) and ch not in _FUNCTION]
    explains = not chars <= set(normalize(text))  # 主阶 for 阼階: 主 says what 阼 is
    defines = any(ch in _DEFINES for ch in normalize(hint))
    masked = chars & set(normalize(text))
    says = _says_which(masked, hint) and not _side_of_the_hidden(hint, words)
    says = says and not _only_its_head(term.normalized, masked, "".join(words))
    return hint if words and (len(words) >= 2 or explains or defines) and says else ""


def _says_which(masked: set[str], hint: str) -> bool:
    """Whether a hint that masks a side or a number of its answer still shows one of that kind to
    tell it from (「尊者立右为～」 上射, 「東～」 左房, 「自北陳而～」 南陳); 「～向陳之」 (西面), 「～首」
    (北面), 「大夫、士～」 (三耦) fit every side or number."""
    shown = set(normalize(hint))
    if masked & _COMPASS and not shown & _COMPASS:
        return False  # 東塾 「門内～堂」, 西序 「堂上～牆」: 内, 上 say where, not which side
    return all(not masked & kind or bool(shown & kind) for kind in _WHICH)


def _side_of_the_hidden(hint: str, words: Sequence[str]) -> bool:
    """Whether a hint shows nothing but sides, after its mask: 篚下 「～南」 (south of what? 洗南,
    階下 fit), 席下 「～西」; not 「東～」 (左房), 「上～」 (大夫介), where the mask is the kind of thing."""
    before = normalize(hint)[: normalize(hint).index(MASK)]
    return bool(words) and all(ch in _WHICH[0] for ch in words) and not any(ch in _WHICH[0] for ch in before)


def _only_its_head(word: str, masked: set[str], shown: str) -> bool:
    """Whether a hint masks only the modifier of ``word`` (its first characters) and its shown words
    (``shown``) hold the head itself or a gloss the book or the glossary gives it
    (:func:`book_glosses`): 蒲筵 「～草席」 (筵 = 席) says what kind of mat, not which (莞筵 fits)."""
    k = next((i for i, ch in enumerate(word) if ch not in masked), len(word))
    if not 0 < k < len(word) or masked & set(word[k:]):
        return False
    head = word[k:]
    said = ("".join(ch for ch in g if ch not in _FUNCTION) for g in (head, *book_glosses().get(head, ())))
    return any(g and g in shown for g in said)


@lru_cache(maxsize=4)
def book_glosses(texts: Path | None = None, glossary: Path | None = None) -> Mapping[str, frozenset[str]]:
    """What the book teaches each of its terms: normalised term → the glosses (:func:`gloss_key`) of
    it in any text of ``texts`` (default: the project's), each read alone as its rite's deck reads it,
    with the curated ``glossary`` (default: the project's). The same for every deck and the web
    quiz, whichever texts they hold: 筵 = 席 is taught in 鄉飲酒禮 and tells 蒲筵's hint in 士冠禮."""
    # read as study.build.load_document reads a text (which the decks may not import: study.build
    # reads them), without the translations, which teach no gloss
    from ..paths import corpus_files, decks_dir, texts_dir
    from ..terms.curated import CURATED_FILE, load_curated
    from ..terms.glossary import build_terms
    from ..text.formats import read_listed
    from ..text.manifest import find_manifest

    path = glossary or decks_dir() / CURATED_FILE
    curated = load_curated(path) if path.is_file() else None
    out: dict[str, set[str]] = defaultdict(set)
    for text in corpus_files(texts or texts_dir()):
        doc = read_listed(text.read_bytes(), text.name, find_manifest(text))
        for t in build_terms([doc], curated):
            out[t.normalized].update(gloss_key(g.gloss) for g in t.glosses)
    return {k: frozenset(v) for k, v in out.items()}


def _cut(term: Term, gloss: str) -> str:
    """The clauses of ``gloss`` a hint shows, as they run in it: a leading headword dropped
    (「袒，露左臂也」); where a clause holds the headword whole, from that clause on, up to one that
    holds only a part of it (「射中曰获，报中之人曰获者」 → 「报中之人曰获者」); cut after a clause to
    at most :data:`HINT_CHARS` characters; empty if the first clause is longer."""
    key, chars = search_key(term.term), set(term.normalized)
    clauses = [c for c in _CLAUSE.split(gloss.strip(_STRIP)) if c]
    if len(clauses) > 1 and search_key(clauses[0]) == key:
        clauses = clauses[1:]
    first = next((i for i, c in enumerate(clauses) if key in search_key(c)), None)
    if first is not None:
        run = [clauses[first]]
        for c in clauses[first + 1 :]:
            if key not in search_key(c) and chars & set(normalize(c)):
                break  # 「大夫、士三耦，谓之正耦」: 正耦 is another word
            run.append(c)
        clauses = run
    return _leading("".join(clauses).strip(_STRIP))


def _leading(text: str) -> str:
    """``text`` cut at a clause to at most :data:`HINT_CHARS` characters (empty if it cannot be)."""
    while len(text) > HINT_CHARS:
        cut = max(text.rfind(c, 0, HINT_CHARS + 1) for c in _CUTS)
        if cut <= 0:
            return ""
        text = text[:cut]
    return text
