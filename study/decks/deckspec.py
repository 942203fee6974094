"""Deck specs: the YAML a teacher writes to say what goes into a deck.

```yaml
name: 乡射礼                      # shown in the deck description and the build report
texts: [000_5ea6dcd6bccc2da6.txt]  # file names under decks/texts (default: every text)
rites: [乡射礼]                    # default: every rite of the texts
stages: [速賔..再射, 乡射礼.初射]   # by name, id or range a..b (default: every stage)
kinds: [terms, passages, cloze, stages, steps]
order: [overlap]                  # default; next, previous, position on request
limits: {terms: 150, cloze: 6}    # the N most frequent terms; deletions per passage
terms:
  extra: [{term: 乏, gloss: 获者所蔽, pinyin: fá, category: implement}]
  exclude: [賔许]
overlap: {before: 2, window: 6}  # items shown before the asked one; items per note
```

Parsing collects every problem of the file (unknown key, wrong type, bad value) with its line;
the references to texts, rites and stages are checked against the corpus by
:func:`study.selection.select`, which reports them together with these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DeckSpecError, Said
from ..model import CATEGORIES
from ..text.normalize import normalize
from ..yamlsrc import YamlDoc, load_yaml, read_source

KINDS = ("terms", "passages", "cloze", "stages", "steps")
ORDER_CARDS = ("next", "previous", "position", "overlap")
DEFAULT_ORDER = ("overlap",)  # one card per fact: the windows; the others only when a spec asks
MAX_PROMPTS = 20  # cloze fields of the overlapping-cloze note type (frozen in study.apkg)
_ALIASES = {"term": "terms", "passage": "passages", "stage": "stages", "step": "steps", "prev": "previous"}
_KEYS = (
    "name",
    "texts",
    "rites",
    "stages",
    "kinds",
    "order",
    "limits",
    "terms",
    "overlap",
    "glossary",
    "translations",
    "script",
)
SCRIPTS = ("original", "simplified")  # the text as written, or in simplified characters (study.decks.script)

Problem = tuple[int | None, str]


@dataclass(frozen=True)
class Overlap:
    """Overlapping clozes over an ordered list, as the Cloze Overlapper add-on makes them: each
    card asks one item, with the ``before`` items that precede it shown."""

    before: int = 2  # items shown before the asked one (neighbouring windows share as many)
    prompt: int = 1  # items asked on one card (only 1: one card per fact)
    after: int = 0  # items shown after (only 0: the card asks what comes next)
    window: int = 6  # items per note; long lists are cut into overlapping windows


@dataclass(frozen=True)
class StageRef:
    """A stage by name or id, or a range ``start..end`` of them (both ends included)."""

    start: str
    end: str | None = None
    key: str = field(default="stages", compare=False)
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ExtraTerm:
    """A term the teacher adds (or whose gloss the teacher puts first)."""

    term: str
    glosses: tuple[str, ...]
    pinyin: str | None = None
    category: str = "other"
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class DeckSpec:
    """What to put in a deck; empty selections mean "all"."""

    name: str
    texts: tuple[str, ...] = ()
    rites: tuple[str, ...] = ()
    stages: tuple[StageRef, ...] = ()
    kinds: tuple[str, ...] = KINDS
    order: tuple[str, ...] = DEFAULT_ORDER
    max_terms: int | None = None
    max_cloze: int = 6
    extra_terms: tuple[ExtraTerm, ...] = ()
    exclude_terms: tuple[str, ...] = ()
    overlap: Overlap = Overlap()
    glossary: str | None = None  # relative to the spec's folder
    translations: str | None = None  # the corrections of translations, relative to the spec's folder
    script: str = "original"  # or "simplified": cards in simplified characters, in the spec's own deck
    path: str = field(default="<spec>", compare=False)
    folder: Path | None = field(default=None, compare=False)  # where texts/ and the glossary are
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    problems: tuple[Problem, ...] = field(default=(), compare=False, repr=False)  # from parsing

    def line(self, key: str) -> int | None:
        """The line of ``key`` (``"kinds[1]"``, ``"limits.terms"``) or of its nearest parent."""
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key.rpartition("[")[0] if key.endswith("]") else key.rpartition(".")[0]
        return self.lines.get("", 1) if self.lines else None


def _key(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Reader:
    """Typed access to a YAML document that records a problem (with line and key) for every misfit."""

    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.problems: list[Problem] = []

    def problem(self, at: tuple[Any, ...], message: str) -> None:
        placed = f"{_key(at)}: {message}" if at else message
        self.problems.append((self.doc.line(*at), message.worded(placed) if isinstance(message, Said) else placed))

    def mapping(self, value: Any, at: tuple[Any, ...], keys: tuple[str, ...]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.problem(at, f"must be a mapping with keys {', '.join(keys)}")
            return {}
        for k in value:
            if k not in keys:
                self.problem((*at, k), f"unknown key {k!r} (expected {', '.join(keys)})")
        return value

    def strings(self, value: Any, at: tuple[Any, ...]) -> tuple[str, ...]:
        """A list of text (a single text is a list of one)."""
        if value is None:
            return ()
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.problem(at, "must be a list of text")
            return ()
        out = []
        for i, item in enumerate(items):
            if isinstance(item, str) and item.strip():
                out.append(item.strip())
            else:
                self.problem((*at, i) if items is value else at, f"must be non-empty text, not {item!r}")
        return tuple(out)

    def integer(self, value: Any, at: tuple[Any, ...], low: int, high: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.problem(at, f"must be a whole number {bound}, not {value!r}")
            return None
        return value

    def choices(self, value: Any, at: tuple[Any, ...], allowed: tuple[str, ...], label: str) -> tuple[str, ...]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items:
            self.problem(at, f"must list at least one of {', '.join(allowed)}")
            return ()
        out: list[str] = []
        for i, item in enumerate(items):
            name = _ALIASES.get(item, item) if isinstance(item, str) else None
            if name not in allowed:
                self.problem(
                    (*at, i) if items is value else at, f"unknown {label} {item!r} (expected {', '.join(allowed)})"
                )
            elif name not in out:
                out.append(name)
        return tuple(out)


def _stage_refs(r: _Reader, value: Any) -> tuple[StageRef, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out: list[StageRef] = []
    for i, item in enumerate(items):
        at = ("stages", i) if isinstance(value, list) else ("stages",)
        line, key = r.doc.line(*at), _key(at)
        if isinstance(item, dict):
            m = r.mapping(item, at, ("from", "to"))
            start, end = m.get("from"), m.get("to")
            if not isinstance(start, str) or not isinstance(end, str):
                r.problem(at, "a range needs 'from' and 'to', each a stage name or id")
                continue
            out.append(StageRef(start.strip(), end.strip(), key, line))
        elif isinstance(item, str) and item.strip():
            start, sep, end = item.partition("..")
            if sep and not (start.strip() and end.strip()):
                r.problem(at, f"a range {item!r} needs a stage on each side of '..'")
                continue
            out.append(StageRef(start.strip(), end.strip() or None, key, line))
        else:
            r.problem(at, f"must be a stage name or id, a range a..b, or {{from, to}}, not {item!r}")
    return tuple(out)


def _extra_terms(r: _Reader, value: Any) -> tuple[ExtraTerm, ...]:
    if value is None:
        return ()
    at0 = ("terms", "extra")
    if not isinstance(value, list):
        r.problem(at0, "must be a list of {term, gloss, pinyin, category}")
        return ()
    out = []
    for i, entry in enumerate(value):
        at = (*at0, i)
        e = r.mapping(entry, at, ("term", "gloss", "glosses", "pinyin", "category"))
        if not e:
            if not entry:
                r.problem(at, "a term needs at least 'term' and 'gloss'")
            continue
        term = e.get("term")
        if not isinstance(term, str) or not term.strip():
            r.problem((*at, "term"), f"must be non-empty text, not {term!r}")
            continue
        glosses = r.strings(e.get("gloss"), (*at, "gloss")) + r.strings(e.get("glosses"), (*at, "glosses"))
        if not glosses:
            r.problem(at, f"{term}: needs a gloss")
        reading = e.get("pinyin")
        if reading is not None and not isinstance(reading, str):
            r.problem((*at, "pinyin"), f"must be text, not {reading!r}")
            reading = None
        category = e.get("category", "other")
        if category not in CATEGORIES:
            r.problem((*at, "category"), f"{category!r} is not one of {', '.join(CATEGORIES)}")
            category = "other"
        if any(normalize(x.term) == normalize(term.strip()) for x in out):
            r.problem((*at, "term"), Said("extra_twice", "{term} is already an extra term", term=term))
            continue
        out.append(ExtraTerm(term.strip(), glosses, reading, str(category), r.doc.line(*at)))
    return tuple(out)


def read_deckspec(text: str, path: str, *, folder: Path | None = None) -> DeckSpec:
    """The spec in ``text``, with every problem found recorded in :attr:`DeckSpec.problems`.

    A YAML syntax error (which leaves nothing to read) raises :class:`DeckSpecError` at once.
    """
    doc = load_yaml(text, path, DeckSpecError)
    r = _Reader(doc)
    data = doc.data
    if not isinstance(data, dict):
        raise DeckSpecError("a deck spec is a mapping with at least 'name'", path=path, line=1)
    r.mapping(data, (), _KEYS)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        r.problem(("name",), f"must be non-empty text, not {name!r}" if "name" in data else "is required")
        name = Path(path).stem
    limits = r.mapping(data.get("limits"), ("limits",), ("terms", "cloze"))
    max_terms = r.integer(limits["terms"], ("limits", "terms"), 1) if "terms" in limits else None
    max_cloze = r.integer(limits["cloze"], ("limits", "cloze"), 1, MAX_PROMPTS) if "cloze" in limits else None
    terms = r.mapping(data.get("terms"), ("terms",), ("extra", "exclude"))
    raw_overlap = r.mapping(data.get("overlap"), ("overlap",), ("before", "prompt", "after", "window"))
    defaults = Overlap()
    ov = {}
    for k, low, high in (("before", 0, 5), ("prompt", 1, 1), ("after", 0, 0), ("window", 2, MAX_PROMPTS)):
        got = r.integer(raw_overlap[k], ("overlap", k), low, high) if k in raw_overlap else None
        ov[k] = got if got is not None else getattr(defaults, k)
    overlap = Overlap(**ov)
    if overlap.window - overlap.before - overlap.after < 1:
        r.problem(("overlap", "window"), f"must be larger than before + after ({overlap.before + overlap.after})")
        overlap = defaults
    glossary = data.get("glossary")
    if glossary is not None and not (isinstance(glossary, str) and glossary.strip()):
        r.problem(("glossary",), f"must be a file name, not {glossary!r}")
        glossary = None
    translations = data.get("translations")
    if translations is not None and not (isinstance(translations, str) and translations.strip()):
        r.problem(("translations",), f"must be a file name, not {translations!r}")
        translations = None
    script = data.get("script", "original")
    if script not in SCRIPTS:
        r.problem(("script",), f"must be one of {', '.join(SCRIPTS)}, not {script!r}")
        script = "original"
    spec = DeckSpec(
        name=name.strip(),
        texts=r.strings(data.get("texts"), ("texts",)),
        rites=r.strings(data.get("rites"), ("rites",)),
        stages=_stage_refs(r, data.get("stages")),
        kinds=r.choices(data.get("kinds"), ("kinds",), KINDS, "kind") if "kinds" in data else KINDS,
        order=r.choices(data.get("order"), ("order",), ORDER_CARDS, "order card") if "order" in data else DEFAULT_ORDER,
        max_terms=max_terms,
        max_cloze=max_cloze or 6,
        extra_terms=_extra_terms(r, terms.get("extra")),
        exclude_terms=r.strings(terms.get("exclude"), ("terms", "exclude")),
        overlap=overlap,
        glossary=glossary,
        translations=translations,
        script=script,
        path=path,
        folder=folder,
        lines={_key(k): v for k, v in doc.lines.items()},
        problems=tuple(r.problems),
    )
    return spec


def parse_deckspec(text: str, path: str, *, folder: Path | None = None) -> DeckSpec:
    """The spec in ``text``; raises :class:`DeckSpecError` listing every problem of its own."""
    spec = read_deckspec(text, path, folder=folder)
    if spec.problems:
        raise DeckSpecError.many(list(spec.problems), path=path)
    return spec


def load_deckspec(path: Path) -> DeckSpec:
    """Read a spec file leniently: its problems are reported with the corpus checks at build time."""
    text = read_source(path, DeckSpecError)
    return read_deckspec(text, str(path), folder=path.resolve().parent)
