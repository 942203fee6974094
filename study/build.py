"""Use-cases shared by the CLI and the web app: loading texts, building decks."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from .decks.apkg import write_apkg
from .decks.cards import make_notes
from .decks.deckspec import DeckSpec
from .decks.export import write_csv, write_tsv
from .decks.notedata import CARD_KINDS, NoteData
from .decks.script import simplified_notes
from .decks.selection import select
from .decks.studyload import Load, study_load
from .errors import CorpusFormatError, GlossaryError, Said, TranslationsError
from .model import Corpus, Document, Term
from .paths import corpus_files, decks_dir, default_text_paths, texts_dir
from .terms.curated import CURATED_FILE, Curated, load_curated
from .terms.glossary import build_terms
from .text.align import align_document
from .text.attach import attach_translations
from .text.corrections import TRANSLATIONS_FILE, Corrections, load_corrections
from .text.formats import read_listed
from .text.kanripo_lines import is_mandoku
from .text.manifest import MANIFEST, Manifest, find_manifest


def load_document(path: Path, manifest: Manifest | None = None, *, translations: Path | None = None) -> Document:
    """Read and parse one text; the manifest beside it names the rite it opens in, whether it is
    an excerpt (节选), and which translation texts attach to it. The translations — its own and
    those attached — read as a teacher's corrections file corrects them: ``translations``, else
    ``translations.yaml`` beside the texts' folder (``decks/translations.yaml`` for the project's
    texts), if there is one (:mod:`study.text.corrections`).

    With the manifest found beside the text, the result is kept for the process (documents are
    immutable): a translation text attached to several 卷 is read and aligned once. A text,
    manifest or corrections file whose bytes changed is read again."""
    if translations is None:
        beside_texts = default_translations_path(path)
        translations = beside_texts if beside_texts.is_file() else None
    elif not translations.is_file():
        raise TranslationsError("no such corrections file", path=str(translations), line=None)
    fixes = _digest(translations) if translations is not None else None
    if manifest is None:
        text, beside = _digest(path), _digest(path.parent / MANIFEST)
        if text is None:
            return _load(path, find_manifest(path), translations)  # reports the file that cannot be read
        return _load_beside(path, text, beside, translations, fixes)
    return _load(path, manifest, translations)


def default_translations_path(text: Path) -> Path:
    """The corrections a text is read with by default: ``translations.yaml`` beside its folder."""
    return text.resolve().parent.parent / TRANSLATIONS_FILE


def _digest(path: Path) -> bytes | None:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
    except OSError:
        return None


@lru_cache(maxsize=64)
def _load_beside(
    path: Path, _text: bytes, _manifest: bytes | None, translations: Path | None, _fixes: bytes | None
) -> Document:
    return _load(path, find_manifest(path), translations)


@lru_cache(maxsize=8)
def _corrections(path: Path, _digest: bytes | None) -> Corrections:
    return load_corrections(path)


def read_corrections(path: Path | None, folder: Path) -> Corrections | None:
    """The corrections at ``path`` (read once per content), checked to name texts of ``folder``."""
    if path is None:
        return None
    corrections = _corrections(path, _digest(path))
    corrections.check_files(folder)
    return corrections


def _load(path: Path, manifest: Manifest, translations: Path | None = None) -> Document:
    corrections = read_corrections(translations, path.parent)
    entry = manifest.entry(path.name)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise CorpusFormatError(f"cannot read: {e.strerror}", path=str(path), line=None) from None
    doc = align_document(read_listed(data, path.name, manifest), corrections=corrections)
    role = entry.role if entry is not None else None
    if role in ("translation", "excerpt") or (role is None and not is_kanripo(data)):
        doc = replace(doc, excerpt=True)  # a part of its rites: never presented as a whole rite
    for name in manifest.translations_for(path.name):
        source = path.parent / name
        if source.is_file():
            doc, _ = attach_translations(doc, load_document(source, translations=translations))
    return doc


def is_kanripo(data: bytes) -> bool:
    return is_mandoku(data[:4096].decode("utf-8", "ignore"))


def default_glossary_path() -> Path:
    return decks_dir() / CURATED_FILE


def load_terms(documents: Sequence[Document], glossary: Path | None = None, *, withheld: bool = False) -> list[Term]:
    """The terms of ``documents`` merged with the curated glossary (default ``decks/glossary.yaml``);
    ``withheld``: also the glosses the precision gate does not teach (``Gloss.taught`` False)."""
    path = glossary if glossary is not None else default_glossary_path()
    curated = load_curated(path) if path.is_file() else None
    if glossary is not None and curated is None:
        raise GlossaryError("no such glossary file", path=str(glossary), line=None)
    return build_terms(documents, curated, withheld=withheld)


def load_corpus(paths: Iterable[Path] | None = None) -> Corpus:
    """Parse ``paths`` (default: the project's texts)."""
    chosen: Sequence[Path] = list(paths) if paths is not None else default_text_paths()
    return Corpus(tuple(load_document(p) for p in chosen))


# --- decks: a spec in, Anki packages and CSV/TSV out --------------------------------------

_EMPTY_KIND = {  # why a kind gives no card: the key of the reason (web/messages.py), in English
    "terms": ("why_terms", "no term is used or glossed in the chosen stages"),
    "passages": ("why_passages", "none of the chosen passages has a modern translation"),
    "cloze": ("why_cloze", "no chosen passage contains a glossed term"),
    "stages": ("why_stages", "no chosen rite has two named stages"),
    "steps": ("why_steps", "no chosen stage has two steps"),
}
FORMATS = ("apkg", "csv", "tsv")


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote: notes and cards per kind, the decks, the files."""

    name: str
    outputs: tuple[Path, ...]
    notes: dict[str, int]
    cards: dict[str, int]
    decks: tuple[str, ...]
    seconds: float
    card_kinds: dict[str, int] = field(default_factory=dict)  # 词→义, 义→词, 经→译 … → cards

    @property
    def load(self) -> Load:
        """Days to introduce the cards at 20 a day and daily review minutes after 30 and 90 days."""
        return study_load(self.total_cards)

    @property
    def total_notes(self) -> int:
        return sum(self.notes.values())

    @property
    def total_cards(self) -> int:
        return sum(self.cards.values())


class Sources:
    """Texts and terms parsed once for several builds (``study build --all`` shares them)."""

    def __init__(self) -> None:
        self._documents: dict[tuple[Path, Path | None], Document] = {}
        self._curated: dict[Path, Curated | None] = {}
        self._terms: dict[tuple[tuple[Path, ...], Path, Path | None], list[Term]] = {}

    def corpus(self, paths: Sequence[Path], translations: Path | None = None) -> Corpus:
        """The texts, their translations read with the corrections ``translations`` (default:
        those beside the texts' folder, :func:`load_document`)."""
        for p in paths:
            if (p, translations) not in self._documents:
                self._documents[(p, translations)] = load_document(p, translations=translations)
        return Corpus(tuple(self._documents[(p, translations)] for p in paths))

    def terms(self, paths: Sequence[Path], glossary: Path, translations: Path | None = None) -> list[Term]:
        key = (tuple(paths), glossary, translations)
        if key not in self._terms:
            if glossary not in self._curated:  # one read of the glossary for every text set
                self._curated[glossary] = load_curated(glossary) if glossary.is_file() else None
            documents = self.corpus(paths, translations).documents
            self._terms[key] = build_terms(documents, self._curated[glossary])
        return self._terms[key]


def confined(folder: Path | None, name: str) -> Path | None:
    """``name`` relative to the spec's folder, if it stays inside that folder or ``decks/``."""
    if Path(name).is_absolute():
        return None
    path = ((folder or decks_dir()) / name).resolve()
    roots = [decks_dir().resolve()] + ([folder.resolve()] if folder else [])
    return path if any(path.is_relative_to(root) for root in roots) else None


def spec_texts(spec: DeckSpec) -> Path:
    """The folder of a spec's texts: ``texts/`` beside it, else the project's ``decks/texts``."""
    folder = spec.folder
    return folder / "texts" if folder and (folder / "texts").is_dir() else texts_dir()


def spec_paths(spec: DeckSpec) -> tuple[list[Path], Path, list[tuple[int | None, str]]]:
    """The text files and glossary a spec uses, and a problem for each text that is not there.

    Texts are named relative to ``texts/`` beside the spec (or the project's ``decks/texts``);
    the glossary is the spec's ``glossary:`` (a file in the spec's folder or in ``decks/``, never
    an absolute or escaping path), else ``glossary.yaml`` beside it, else the project's.
    """
    folder = spec.folder
    texts = spec_texts(spec)
    problems: list[tuple[int | None, str]] = []
    available = sorted(p.name for p in texts.glob("*.txt"))
    paths = []
    for i, name in enumerate(spec.texts):
        if name in available:
            paths.append(texts / name)
        else:
            key = f"texts[{i}]" if f"texts[{i}]" in spec.lines else "texts"
            problems.append((spec.line(key), f"{key}: unknown text {name!r} (in {texts}: {', '.join(available)})"))
    if not spec.texts:
        paths = corpus_files(texts)
    if spec.glossary:
        glossary = confined(folder, spec.glossary)
        if glossary is None:  # /etc/shadow, ../../x: refused before anything is read
            where = f"{folder} or {decks_dir()}" if folder else str(decks_dir())
            problems.append((spec.line("glossary"), f"glossary: {spec.glossary!r} is not a file in {where}"))
            glossary = default_glossary_path()
        elif not glossary.is_file():
            problems.append((spec.line("glossary"), f"glossary: no such file {str(glossary)!r}"))
            glossary = default_glossary_path()
    elif folder and (folder / CURATED_FILE).is_file():
        glossary = folder / CURATED_FILE
    else:
        glossary = default_glossary_path()
    return paths, glossary, problems


def spec_translations(spec: DeckSpec) -> tuple[Path | None, list[tuple[int | None, str]]]:
    """The corrections of translations a spec reads its texts with, and a problem if it names a
    file that is not there: the spec's ``translations:`` (a file in the spec's folder or in
    ``decks/``, never an absolute or escaping path), else ``translations.yaml`` beside it, else
    None — the one beside the texts' folder (:func:`load_document`: for the project's texts,
    ``decks/translations.yaml``)."""
    folder = spec.folder
    if spec.translations:
        chosen = confined(folder, spec.translations)
        if chosen is None:
            where = f"{folder} or {decks_dir()}" if folder else str(decks_dir())
            return None, [(spec.line("translations"), f"translations: {spec.translations!r} is not a file in {where}")]
        if not chosen.is_file():
            return None, [(spec.line("translations"), f"translations: no such file {str(chosen)!r}")]
        return chosen, []
    if folder and (folder / TRANSLATIONS_FILE).is_file():
        return folder / TRANSLATIONS_FILE, []
    return None, []


def plan_deck(spec: DeckSpec, sources: Sources | None = None, unasked: Counter[str] | None = None) -> list[NoteData]:
    """The notes of ``spec``; raises :class:`DeckSpecError` with every problem of the spec at once.
    ``unasked``, if given, counts per rite the cloze cards not made for want of a hint."""
    sources = sources or Sources()
    paths, glossary, problems = spec_paths(spec)
    translations, more = spec_translations(spec)
    problems += more
    corpus = sources.corpus(paths, translations)
    # a rite's notes: its own text's terms
    by_file = {p.name: sources.terms([p], glossary, translations) for p in paths}
    selection = select(spec, corpus, sources.terms(paths, glossary, translations) if paths else [], by_file)
    texts = spec_texts(spec)
    references = sources.corpus(sorted(texts.glob("*.txt")), translations).documents if texts.is_dir() else ()
    notes = make_notes(selection, references, unasked)
    if spec.script == "simplified":
        notes = simplified_notes(notes, spec.name)
    made = {n.kind for n in notes}
    if problems or selection.problems:  # an empty kind would only echo a bad reference
        selection.raise_problems(problems)
    if "kinds" in spec.lines:  # kinds the teacher asked for must give cards
        for i, kind in enumerate(spec.kinds):
            if kind not in made:
                key = f"kinds[{i}]" if f"kinds[{i}]" in spec.lines else "kinds"
                why_key, why = _EMPTY_KIND[kind]
                said = Said(
                    "kind_empty", "{at}: {kind!r} yields no card ({why})", at=key, kind=kind, why=why, why_key=why_key
                )
                problems.append((spec.line(key), said))
    if not notes:
        problems.append((spec.line("name"), Said("no_card", "the spec selects no card")))
    selection.raise_problems(problems)
    return notes


def build_deck(
    spec: DeckSpec,
    out: Path,
    *,
    timestamp: float | None = None,
    formats: Sequence[str] = ("apkg",),
    sources: Sources | None = None,
) -> BuildReport:
    """Build the deck of ``spec``: an Anki package at ``out`` and/or CSV/TSV beside it (same stem).

    Args:
        timestamp: the package's time (default: now). Anki updates notes only from a newer package.
        formats: any of ``apkg``, ``csv`` (Anki text import), ``tsv`` (Quizlet: term TAB definition).
        sources: parsed texts to share between builds.
    """
    started = time.perf_counter()
    notes = plan_deck(spec, sources)
    out.parent.mkdir(parents=True, exist_ok=True)
    outputs = []
    for fmt in formats:
        path = out.with_suffix(f".{fmt}")
        if fmt == "apkg":
            write_apkg(notes, path, timestamp=timestamp, description=f"{spec.name} — {Path(spec.path).name}")
        elif fmt == "csv":
            write_csv(notes, path)
        elif fmt == "tsv":
            write_tsv(notes, path)
        else:
            raise ValueError(f"unknown format {fmt!r} (expected {', '.join(FORMATS)})")
        outputs.append(path)
    notes_by, cards_by, kinds = Counter(n.kind for n in notes), Counter(), Counter()
    for n in notes:
        cards_by[n.kind] += n.cards
        kinds[CARD_KINDS.get(n.model if n.model != "overlap" else n.kind, n.model)] += n.cards
    return BuildReport(
        spec.name,
        tuple(outputs),
        dict(notes_by),
        dict(cards_by),
        tuple(dict.fromkeys(n.deck for n in notes)),
        time.perf_counter() - started,
        dict(kinds),
    )


def default_specs() -> list[Path]:
    """The deck specs the project carries: ``decks/*.yaml`` except the glossary and the
    corrections of translations."""
    return sorted(p for p in decks_dir().glob("*.yaml") if p.name not in NOT_SPECS)


NOT_SPECS = (CURATED_FILE, TRANSLATIONS_FILE)  # the YAML files of decks/ that are no deck spec
