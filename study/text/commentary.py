"""Split a commentary body (the inside of 【…】) into segments, one per commentator."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import yaml

from ..model import Segment
from .normalize import normalize

SEPARATOR = "\u3000"  # a full-width space separates independent notes inside one 【…】


@lru_cache(maxsize=1)
def commentators() -> tuple[str, ...]:
    """Known commentators' names in normalised form, longest first."""
    raw = resources.files("study").joinpath("data/commentators.yaml").read_text("utf-8")
    names = {normalize(str(name)) for name in (yaml.safe_load(raw) or {})}
    return tuple(sorted(names, key=len, reverse=True))


@lru_cache(maxsize=1)
def _speaker_re() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in commentators())
    return re.compile(rf"({names})(曰|谓)")


NEW_NOTE = "○"  # the book's mark before a further note (often another commentator's)
OWN_NOTE = "愚按"  # the author's own remark (蔡德晉), after whatever note stands before it


def speaker_of(text: str) -> str | None:
    """The commentator a segment opens with (as written), if it opens with NAME曰 / NAME谓
    (after a ○ mark, if any)."""
    skip = 1 if text.startswith(NEW_NOTE) else 0
    m = _speaker_re().match(normalize(text[skip:]))
    return text[skip : skip + len(m.group(1))] if m else None


def split_commentary(
    body: str, *, line: int = 0, truncated: bool = False, breaks: tuple[tuple[int, int], ...] = ()
) -> tuple[Segment, ...]:
    """Segments of one commentary body, split at full-width spaces, at each NAME曰 and at 愚按.

    ``breaks`` lists the offsets where a commentary cut by a chunk runs on to a later line; each
    segment keeps its own start line and run-ons.
    """
    segments: list[Segment] = []
    base = 0
    for part in body.split(SEPARATOR):
        offset, base = base, base + len(part) + 1
        if not part.strip():
            continue
        norm = normalize(part)
        cuts = [0, *(i for i, ch in enumerate(part) if ch == NEW_NOTE and i > 0)]
        # 愚按 (「I note」) opens 蔡德晉's own words wherever it stands, as a NAME曰 opens another's:
        # 「…然又為小君服則亦異於民矣愚按此亦宜齊衰五月」 ends 敖君善's note (卷十一).
        cuts += [m.start() for m in re.finditer(OWN_NOTE, norm) if m.start() > 0 and part[m.start() - 1] != NEW_NOTE]
        # A commentator's words end where another's NAME曰 opens, wherever it stands: after a
        # sentence end (「…之仪也髙紫超曰…」) or not (「…此詳之敖君善曰賔不言…」, the book's
        # unpunctuated notes). A name right after ○ opens the note the ○ already cuts.
        for m in _speaker_re().finditer(norm):
            start = m.start()
            if m.group(2) == "曰" and norm[:start].rstrip()[-1:] not in ("", NEW_NOTE):
                cuts.append(start)
        cuts = sorted(set(cuts))
        cuts.append(len(part))
        for a, b in zip(cuts, cuts[1:], strict=False):
            raw = part[a:b]
            text = raw.strip()
            if not text:
                continue
            start = offset + a + (len(raw) - len(raw.lstrip()))
            seg_line = line
            local: list[tuple[int, int]] = []
            for at, n in breaks:
                if at <= start:
                    seg_line = n
                elif at < start + len(text):
                    local.append((at - start, n))
            segments.append(Segment(text, speaker_of(text), seg_line, truncated, breaks=tuple(local)))
    return tuple(segments)
