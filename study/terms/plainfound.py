"""What the reader of unpunctuated commentary (study/terms/plain.py) finds: :class:`Found`, one
headword and its definiens as written, with the formula that joins them, the commentator who says
it and the rule that read it; and :data:`FORMULA`, the formula each marker (謂, 猶, 即, 者 …) names.
"""

from __future__ import annotations

from dataclasses import dataclass

FORMULA = {"谓": "wei", "犹": "you", "犹言": "you", "即": "ji", "者": "ye", "盖": "ye", "": "ye"}


@dataclass(frozen=True)
class Found:
    term: str  # as written
    gloss: str  # as written
    formula: str
    offset: int  # in the segment text
    speaker: str | None = None  # a commentator named inside the segment (「髙紫超謂…」)
    how: str = ""  # where the definiens ended (end: at 也; anchor: at the next word of the text; zhe: at 者)
    path: str = ""  # which reading found it (yue, marker after yue, walk with its marker, …)

    @property
    def rule(self) -> str:
        """The rule that read it: path and boundary (study/terms/gate.py measures each)."""
        return f"{self.path}:{self.how}" if self.how else self.path
