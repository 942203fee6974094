"""The curated glossary (decks/glossary.yaml): a teacher's terms the text uses without glossing
them, each gloss with its source and where it applies (rites, a pattern around the occurrence),
and the exclusions — headwords never shown, or one commentary gloss dropped at its line. Read
with every problem reported at once as ``path:line: …``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GlossaryError
from ..model import CATEGORIES, Gloss
from ..text.normalize import normalize
from ..yamlsrc import load_yaml, read_source
from .senses import pattern_spans

CURATED_FILE = "glossary.yaml"


@dataclass(frozen=True)
class CuratedTerm:
    term: str
    category: str
    glosses: tuple[tuple[str, str], ...]  # (gloss, source)
    pinyin: str | None = None
    line: int = field(default=0, compare=False)
    rites: tuple[str, ...] = ()  # where: rites the glosses apply in (normalised); empty: all
    pattern: str | None = None  # where: a regular expression the text around an occurrence matches
    # Each gloss's own where (aligned with ``glosses``), its rites and pattern each falling back to
    # the term's: 个 is the arrow at 「一个」 and the target's side-piece at 「左个」 in the same rites.
    wheres: tuple[tuple[tuple[str, ...], str | None], ...] = ()

    def where(self, i: int) -> tuple[tuple[str, ...], str | None]:
        """Where gloss ``i`` applies: (rites, pattern)."""
        return self.wheres[i] if i < len(self.wheres) else (self.rites, self.pattern)

    @property
    def scoped(self) -> bool:
        """Whether the teacher said where (some of) its glosses apply."""
        return any(rites or pattern for rites, pattern in map(self.where, range(len(self.glosses))))


@dataclass(frozen=True)
class Curated:
    """The curated glossary: terms the text uses without glossing them, and exclusions."""

    terms: tuple[CuratedTerm, ...] = ()
    exclude: frozenset[str] = frozenset()  # normalised headwords
    path: str = CURATED_FILE
    # Commentary glosses a teacher found wrong: (normalised headword, file, line, definiens),
    # the definiens None for every gloss of the headword at that line.
    dropped: frozenset[tuple[str, str, int, str | None]] = frozenset()

    def drops(self, g: Gloss) -> bool:
        """Whether a teacher dropped this commentary gloss."""
        if not self.dropped:
            return False
        at = (normalize(g.context), g.file or "", g.line or 0)
        return (*at, None) in self.dropped or (*at, g.gloss) in self.dropped


def parse_curated(text: str, path: str) -> Curated:
    """Read a curated glossary; every problem is reported at once as ``path:line: …``."""
    doc = load_yaml(text, path, GlossaryError)
    data = doc.data if doc.data is not None else {}
    problems: list[tuple[int | None, str]] = []
    if not isinstance(data, dict):
        raise GlossaryError("the glossary must be a mapping with 'terms'", path=path, line=1)
    for key in data:
        if key not in ("version", "terms", "exclude"):
            problems.append((doc.line(key), f"unknown key {key!r} (expected version, terms, exclude)"))
    raw_terms = data.get("terms") or []
    if not isinstance(raw_terms, list):
        problems.append((doc.line("terms"), "terms must be a list"))
        raw_terms = []
    terms: list[CuratedTerm] = []
    for i, entry in enumerate(raw_terms):
        at = ("terms", i)
        if not isinstance(entry, dict):
            problems.append((doc.line(*at), "each term must be a mapping with term, category, glosses"))
            continue
        for key in entry:
            if key not in ("term", "pinyin", "category", "glosses", "where"):
                problems.append((doc.line(*at, key), f"unknown key {key!r} in a term"))
        term = entry.get("term")
        if not isinstance(term, str) or not term.strip():
            problems.append((doc.line(*at, "term"), "term: must be a non-empty headword"))
            continue
        category = entry.get("category", "other")
        if category not in CATEGORIES:
            problems.append(
                (doc.line(*at, "category"), f"{term}: category {category!r} is not one of {', '.join(CATEGORIES)}")
            )
        reading = entry.get("pinyin")
        if reading is not None and not isinstance(reading, str):
            problems.append((doc.line(*at, "pinyin"), f"{term}: pinyin must be text"))
            reading = None
        glosses: list[tuple[str, str]] = []
        own: list[tuple[object, int | None]] = []  # each gloss's own where, if any, and its line
        raw_glosses = entry.get("glosses") or []
        if not isinstance(raw_glosses, list) or not raw_glosses:
            problems.append(
                (doc.line(*at, "glosses"), f"{term}: glosses must be a non-empty list of {{gloss, source}}")
            )
            raw_glosses = []
        for j, g in enumerate(raw_glosses):
            gat = (*at, "glosses", j)
            if not isinstance(g, dict):
                problems.append((doc.line(*gat), f"{term}: a gloss is a mapping {{gloss, source, where?}}"))
                continue
            unknown = [k for k in g if k not in ("gloss", "source", "where")]
            for key in unknown:
                problems.append((doc.line(*gat, key), f"{term}: unknown key {key!r} in a gloss (gloss, source, where)"))
            if unknown:
                continue
            gloss, source = g.get("gloss"), g.get("source")
            if not isinstance(gloss, str) or not gloss.strip():
                problems.append(
                    (doc.line(*gat, "gloss"), f"{term}: a gloss without its text (gloss: empty or missing)")
                )
            elif not isinstance(source, str) or not source.strip():
                problems.append(
                    (doc.line(*gat), f"{term}: gloss {gloss!r} names no source (a text line or a reference work)")
                )
            else:
                glosses.append((gloss.strip(), source.strip()))
                own.append((g.get("where"), doc.line(*gat, "where")))
        rites, pattern = _where(entry.get("where"), term, doc.line(*at, "where"), problems)
        wheres = []
        for raw_where, where_line in own:
            g_rites, g_pattern = _where(raw_where, term, where_line, problems)
            given = raw_where if isinstance(raw_where, dict) else {}
            wheres.append((g_rites if "rites" in given else rites, g_pattern if "pattern" in given else pattern))
        terms.append(
            CuratedTerm(
                term.strip(), str(category), tuple(glosses), reading, doc.line(*at), rites, pattern, tuple(wheres)
            )
        )
    exclude = data.get("exclude") or []
    if not isinstance(exclude, list):
        problems.append((doc.line("exclude"), "exclude must be a list of headwords"))
        exclude = []
    dropped = [_dropped(x, doc.line("exclude", i), problems) for i, x in enumerate(exclude) if not isinstance(x, str)]
    headwords = frozenset(normalize(x) for x in exclude if isinstance(x, str))
    if problems:
        raise GlossaryError.many(problems, path=path)
    return Curated(tuple(terms), headwords, path, frozenset(d for d in dropped if d))


def _dropped(
    raw: object, line: int | None, problems: list[tuple[int | None, str]]
) -> tuple[str, str, int, str | None] | None:
    """``{term: 嘏, source: KR1d0044_015.txt:272, reason: …}``: the gloss of that headword read at
    that line is wrong (a teacher's one-line reason required); with ``gloss: 貳嫡``, only that one
    of the headword's glosses at that line."""
    ok = (
        isinstance(raw, dict)
        and all(isinstance(raw.get(k), str) and raw[k].strip() for k in ("term", "source", "reason"))
        and set(raw) <= {"term", "source", "reason", "gloss"}
        and (raw.get("gloss") is None or (isinstance(raw["gloss"], str) and raw["gloss"].strip() != ""))
    )
    m = re.fullmatch(r"(\S+\.txt):(\d+)", str(raw.get("source", "")).strip()) if ok and isinstance(raw, dict) else None
    if not (ok and m and isinstance(raw, dict)):
        problems.append((line, "exclude: an entry is a headword or {term, source: FILE:LINE, gloss?, reason}"))
        return None
    gloss = raw.get("gloss")
    return normalize(str(raw["term"]).strip()), m[1], int(m[2]), gloss.strip() if gloss else None


def _where(
    raw: object, term: str, line: int | None, problems: list[tuple[int | None, str]]
) -> tuple[tuple[str, ...], str | None]:
    """``where: {rites: [...], pattern: REGEX}``: the places a curated gloss fits."""
    if raw is None:
        return (), None
    if not isinstance(raw, dict) or set(raw) - {"rites", "pattern"}:
        unknown = ", ".join(repr(k) for k in raw if k not in ("rites", "pattern")) if isinstance(raw, dict) else ""
        problems.append(
            (
                line,
                f"{term}: where must be a mapping with rites and/or pattern" + (f" (not {unknown})" if unknown else ""),
            )
        )
        return (), None
    rites = raw.get("rites") or []
    if not isinstance(rites, list) or not all(isinstance(r, str) for r in rites):
        problems.append((line, f"{term}: where.rites must be a list of rite names"))
        rites = []
    pattern = raw.get("pattern")
    if pattern is not None:
        try:
            re.compile(normalize(str(pattern)))
        except re.error as e:
            problems.append((line, f"{term}: where.pattern is not a regular expression ({e})"))
            pattern = None
        else:
            if normalize(term) not in re.sub(r"[^\u4e00-\u9fff]", "", normalize(str(pattern))):
                problems.append((line, f"{term}: where.pattern must contain the term"))
    return tuple(normalize(r) for r in rites), normalize(str(pattern)) if pattern is not None else None


def occurrences(norm: str, text: str, scopes: Sequence[tuple[Sequence[str], str | None]], rite: str) -> int:
    """How often the term ``norm`` occurs in ``text`` (the normalised text of ``rite``) at a place
    one of the curated ``scopes`` (rites, pattern) fits — each of its glosses' where."""
    spans: list[tuple[int, int]] = []
    for rites, pattern in scopes or [((), None)]:
        if rites and normalize(rite) not in rites:
            continue
        if pattern is None:
            return text.count(norm)
        spans += pattern_spans(pattern, text)
    n, at = 0, text.find(norm)
    while at >= 0:
        n += any(a <= at and at + len(norm) <= b for a, b in spans)
        at = text.find(norm, at + 1)
    return n


def load_curated(path: Path) -> Curated:
    return parse_curated(read_source(path, GlossaryError), str(path))
