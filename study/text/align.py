"""Align each chunk's translation block with the classical lines it renders.

Per chunk, a monotone alignment in the manner of Gale–Church: dynamic programming over the
chunk's classical lines (rows) and the block's translation lines, where a bead pairs one
translation line with one to three consecutive rows (or two lines with one row), or leaves a
row or a line unpaired. A pair scores by the share of the rows' classical characters (weighted
by rarity, after normalisation) that the translation keeps, less a penalty when the lengths do
not fit; leaving a line or a row of text unpaired costs a little, so that a line between two
firm pairs still pairs on length. Each pair then gets a confidence from its score and from how
well its block, and the whole document, pair up: a block that belongs to another chunk pairs
few of its lines well, so even its best-looking pairs are not trusted.

This module makes the rows of a document, runs the dynamic programming and weighs the pairs;
how a translation scores against rows is study/text/alignscore.py's job.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..model import Document, LineKind, Segment, Stage
from .alignscore import _SKIP_TEXT, Scorer
from .corrections import Corrections, Place, apply_corrections
from .normalize import search_key
from .renderings import Renderings
from .translation import Ref, Row, strip_prefix

CONFIDENT = 0.5  # pairs below this confidence do not reach the document
_MAX_GROUP = 3  # rows one translation line may render
_GROUP_COST = 0.03  # per extra row or line in a bead, so that one-to-one wins ties
_ELSEWHERE = 0.1  # a pair this much worse than the line's best match anywhere is no evidence
_SCORE_SCALE = 0.1  # how fast confidence grows with a pair's score
# The share of lines that pair well in a block that renders its chunk, and in one that does not
# (text 000 with its blocks shuffled pairs well about 1 line in 20); both kept on the cautious side.
_GOOD_IF_RIGHT = 0.85
_GOOD_IF_WRONG = 0.15


@dataclass(frozen=True)
class Link:
    """A bead of the alignment: translation lines rendering a run of classical lines."""

    chunk: int
    translation_lines: tuple[int, ...]
    classical_lines: tuple[int, ...]
    score: float
    confidence: float


def owner_segments(doc: Document) -> dict[Ref, tuple[Segment, ...]]:
    """Every commentary segment of the document, by owner."""
    out: dict[Ref, tuple[Segment, ...]] = {}
    for ri, rite in enumerate(doc.rites):
        out[(ri, -1, -1)] = rite.commentary
        for si, stage in enumerate(rite.stages):
            out[(ri, si, -1)] = stage.note_commentary
            for pi, passage in enumerate(stage.passages):
                out[(ri, si, pi)] = passage.commentary
    return out


def segment_lines(segment: Segment) -> dict[int, str]:
    """The parts of a segment on each line it runs across (it is cut where a chunk ends)."""
    cuts = [(0, segment.line), *segment.breaks, (len(segment.text), 0)]
    parts: dict[int, str] = {}
    for (a, n), (b, _) in zip(cuts, cuts[1:], strict=False):
        parts[n] = parts.get(n, "") + segment.text[a:b]
    return parts


def document_rows(doc: Document) -> dict[int, Row]:
    """A row for every line that holds classical text, a heading, commentary or a title."""
    rows: dict[int, Row] = {}

    def row(n: int) -> Row:
        return rows.setdefault(n, Row(n))

    for t in doc.titles:
        row(t.line).full.append(t.text)
    for ri, rite in enumerate(doc.rites):
        for si, stage in enumerate(rite.stages):
            for pi, passage in enumerate(stage.passages):
                for piece in passage.pieces:
                    if piece.kind != "commentary":
                        r = row(piece.line)
                        r.text.append(piece.text)
                        r.full.append(piece.text)
                        if (ri, si, pi) not in r.passages:
                            r.passages.append((ri, si, pi))
            if stage.line is not None:
                _heading_rows((ri, si), stage, row)
    for owner, segments in owner_segments(doc).items():
        for k, segment in enumerate(segments):
            for n, part in segment_lines(segment).items():
                row(n).full.append(part)
                row(n).segments[(owner, k)] = part
    return rows


def _heading_rows(ref: tuple[int, int], stage: Stage, row: Callable[[int], Row]) -> None:
    assert stage.line is not None
    head = row(stage.line)
    head.stage = ref
    first = stage.heading.split("【")[0]
    head.text.append(first)
    head.full.append(first)
    # The notes' words after the first 【 stand where the heading's commentary ends.
    on_line = first[1 + len(stage.name or "") :].lstrip("，。：\u3000")
    rest = stage.note_text[len(on_line) :] if stage.note_text.startswith(on_line) else ""
    if rest:
        last = row(max([stage.line, *(n for s in stage.note_commentary for n in segment_lines(s))]))
        last.text.append(rest)
        last.full.append(rest)


Pair = tuple[list[int], list[int], float]  # rows, translation lines, score
Step = tuple[int, int, float]  # rows consumed, lines consumed, score


def align_chunk(
    scorer: Scorer, run: list[int], texts: list[str], copies: list[bool], *, cut: bool = False
) -> list[Step]:
    """The beads of one chunk (rows ``run``) with its block (``texts``), by dynamic programming.

    Each bead is (rows consumed, lines consumed, score); unpaired rows and lines are beads too.
    ``cut`` says the block's last line may be cut short by the end of the excerpt.
    """
    last = len(texts) - 1
    probes = [scorer.probe(t, cut=cut and j == last) for j, t in enumerate(texts)]
    merged = [scorer.probe(texts[j] + texts[j + 1], cut=cut and j + 1 == last) for j in range(last)]
    n, m = len(run), len(texts)
    skip = [scorer.skip_cost(r) for r in run]
    single = [[scorer.score(p, [r]) for r in run] for p in probes]
    best = [[-math.inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[Step]] = [[(0, 0, 0.0)] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = best[i][j]
            steps = []
            if i < n:
                steps.append((1, 0, -skip[i], 0.0))
            if j < m:
                steps.append((0, 1, 0.0 if copies[j] else -_SKIP_TEXT, 0.0))
                if not copies[j]:
                    if i < n:
                        steps.append((1, 1, single[j][i], single[j][i]))
                    # A line cut short renders the beginning of one row at most.
                    for k in range(2, 1 if probes[j].cut else min(_MAX_GROUP, n - i) + 1):
                        # A group must beat its best row alone with the others skipped (or all skipped).
                        skipped = sum(skip[i : i + k])
                        alone = max(single[j][r] - skipped + skip[r] for r in range(i, i + k))
                        cost = _GROUP_COST * (k - 1)
                        if scorer.bound(probes[j], run[i : i + k]) - cost <= max(alone, -skipped - _SKIP_TEXT):
                            continue
                        score = scorer.score(probes[j], run[i : i + k])
                        steps.append((k, 1, score - cost, score))
                    if j + 1 < m and i < n and not copies[j + 1]:
                        score = scorer.score(merged[j], run[i : i + 1])
                        steps.append((1, 2, score - _GROUP_COST, score))
            for di, dj, gain, score in steps:
                if here + gain > best[i + di][j + dj]:
                    best[i + di][j + dj] = here + gain
                    back[i + di][j + dj] = (di, dj, score)
    # Rows after the last line of a block cut by the excerpt's end were never reached: skip them freely.
    i, j = (max(range(n + 1), key=lambda a: best[a][m]), m) if cut else (n, m)
    beads: list[Step] = [(1, 0, 0.0)] * (n - i)
    while i or j:
        di, dj, score = back[i][j]
        beads.append((di, dj, score))
        i, j = i - di, j - dj
    return beads[::-1]


class _Alignment:
    """The rows, the scorer and the links of one document."""

    def __init__(self, doc: Document) -> None:
        self.rows = document_rows(doc)
        self.scorer = Scorer(self.rows)
        self.texts = {t.line: strip_prefix(t.text) for t in doc.translation}
        blocks: dict[int, list[int]] = {}
        for t in doc.translation:
            blocks.setdefault(t.chunk, []).append(t.line)
        # An excerpt that ends inside a block may cut its last line short.
        ends_in_block = next((k for k in reversed(doc.line_kinds) if k != LineKind.BLANK), None) == LineKind.TRANSLATION
        self.cut = doc.translation[-1].line if ends_in_block and doc.translation else None
        found: list[tuple[int, list[Pair], int, int]] = []  # chunk, pairs, good lines, open lines
        for k, chunk in enumerate(doc.chunks):
            run = [n for n in chunk if n in self.rows]
            block = blocks.get(k, [])
            if run and block:
                texts = [self.texts[n] for n in block]
                copies = [self.scorer.is_copy(t, run) for t in texts]
                beads = align_chunk(self.scorer, run, texts, copies, cut=self.cut in block)
                pairs = self._pairs(run, block, beads)
                found.append((k, pairs, self._good(pairs), copies.count(False)))
        prior = (sum(f[2] for f in found) + 1) / (sum(f[3] for f in found) + 2)
        self.links: list[Link] = []
        for k, pairs, good, lines in found:
            trust = _block_trust(prior, good, lines)
            for classical, tlines, score in pairs:
                confidence = trust * _sigmoid((score + 2 * _SKIP_TEXT) / _SCORE_SCALE)
                self.links.append(Link(k, tuple(tlines), tuple(classical), score, confidence))

    @staticmethod
    def _pairs(run: list[int], block: list[int], beads: list[Step]) -> list[Pair]:
        pairs: list[Pair] = []
        i = j = 0
        for di, dj, score in beads:
            if di and dj:
                pairs.append((run[i : i + di], block[j : j + dj], score))
            i, j = i + di, j + dj
        return pairs

    def _good(self, pairs: list[Pair]) -> int:
        """Lines whose pair beats leaving them alone and comes near their best match anywhere."""
        return sum(
            1
            for _, lines, score in pairs
            for n in lines
            if score > 0
            and score >= self.scorer.best_anywhere(self.scorer.probe(self.texts[n], cut=n == self.cut)) - _ELSEWHERE
        )


def _block_trust(prior: float, good: int, lines: int) -> float:
    """The probability that a block renders its chunk, given how many of its lines pair well.

    ``prior`` is the share of well-paired lines in the whole document: a document whose blocks
    were shuffled pairs few lines anywhere, so one lucky block in it is not believed either.
    """
    right = prior * _GOOD_IF_RIGHT**good * (1 - _GOOD_IF_RIGHT) ** (lines - good)
    wrong = (1 - prior) * _GOOD_IF_WRONG**good * (1 - _GOOD_IF_WRONG) ** (lines - good)
    return right / (right + wrong) if right + wrong else 0.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def align_links(doc: Document) -> tuple[Link, ...]:
    """Every pair the alignment makes, confident or not, in text order."""
    return tuple(_Alignment(doc).links) if doc.translation else ()


def line_places(doc: Document, links: Sequence[Link], rows: Mapping[int, Row]) -> dict[int, Place]:
    """What each translation line renders (the rows of its confident pair), for the scope of a
    teacher's correction; a line that pairs with nothing is placed in its chunk's stages."""
    places: dict[int, Place] = {}

    def place(classical: Sequence[int], texts: bool) -> Place:
        rites, stages, shown = set(), set(), []
        for n in classical:
            row = rows.get(n)
            if row is None:
                continue
            owners = [*row.passages, *(owner for owner, _ in row.segments)]  # its text's, its commentary's
            owners += [(*row.stage, -1)] if row.stage is not None else []
            for ri, si, pi in owners:
                rite = doc.rites[ri]
                rites.add(search_key(rite.name))
                if si < 0:
                    continue
                stage = rite.stages[si]
                stages.add(search_key(stage.name or ""))
                if texts:
                    shown.append(search_key(stage.passages[pi].text if pi >= 0 else stage.heading))
        return Place(frozenset(rites), frozenset(stages), tuple(dict.fromkeys(shown)))

    chunk_of = {t.line: t.chunk for t in doc.translation}
    for link in links:
        for n in link.translation_lines:
            places[n] = place(link.classical_lines, texts=True)
    for n, chunk in chunk_of.items():
        if (n not in places or not places[n].rites) and chunk < len(doc.chunks):
            around = place(doc.chunks[chunk], texts=False)  # unpaired, or a heading's notes' words
            here = places.get(n, Place())
            places[n] = Place(around.rites, around.stages | here.stages, here.texts)
    return places


def align_document(doc: Document, *, threshold: float = CONFIDENT, corrections: Corrections | None = None) -> Document:
    """The document with translations, commentary translations and modern stage names attached.

    Only pairs whose confidence reaches ``threshold`` are used; everything else stays None.
    ``corrections`` (a teacher's, :mod:`study.text.corrections`) of this file are applied to its
    translation lines once they are paired, so the pairs are those of the text as written and
    what each line renders — and the document's translation lines — read corrected.
    """
    fixes = corrections.for_file(doc.file) if corrections is not None else ()
    if not doc.translation:
        if fixes:  # every one of them matches nothing
            apply_corrections(fixes, {}, {}, path=corrections.path if corrections else "")
        return doc
    alignment = _Alignment(doc)
    scorer = alignment.scorer
    texts = alignment.texts
    confident = [link for link in alignment.links if link.confidence >= threshold]
    if fixes and corrections is not None:
        texts = apply_corrections(fixes, texts, line_places(doc, confident, alignment.rows), path=corrections.path)
        lines = tuple(replace(t, text=_with_prefix(t.text, texts[t.line])) for t in doc.translation)
        doc = replace(doc, translation=lines)

    def similar(translation: str, classical: str) -> float:
        return scorer.similarity(scorer.probe(translation).bag, scorer.bag(search_key(classical)))

    found = Renderings(doc, owner_segments(doc), similar)
    for link in confident:
        text = "".join(texts[n] for n in link.translation_lines)
        found.add(link.translation_lines[0], text, [alignment.rows[n] for n in link.classical_lines])
    return found.attach()


def _with_prefix(line: str, text: str) -> str:
    """A corrected line's text with the 「译」 its line opened with."""
    return line[: len(line) - len(strip_prefix(line))] + text
