"""View models for the progress page: inline-SVG bar charts and the rite timeline, as plain data
(coordinates, labels, colours) so the templates only draw."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from study.learn.progress import RiteProgress, TimelineStage

WIDTH, HEIGHT, PAD = 360, 140, 24


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: str
    title: str


def bars(values: list[tuple[str, float, str]], *, maximum: float | None = None) -> list[Bar]:
    """Bars for (label, value, shown value) across the chart's width."""
    top = maximum if maximum is not None else max([v for _, v, _ in values] + [1])
    n = max(len(values), 1)
    slot = (WIDTH - 2 * PAD) / n
    out = []
    for k, (label, value, shown) in enumerate(values):
        h = 0 if top <= 0 else (HEIGHT - 2 * PAD) * value / top
        out.append(
            Bar(PAD + k * slot + slot * 0.15, HEIGHT - PAD - h, slot * 0.7, h, label, shown, f"{label}: {shown}")
        )
    return out


def forecast_bars(days: list[tuple[datetime, int]]) -> list[Bar]:
    return bars([(d.strftime("%m-%d"), float(n), str(n)) for d, n in days])


def accuracy_bars(days: list[tuple[datetime, int, int]]) -> list[Bar]:
    return bars(
        [(d.strftime("%m-%d"), (right / n) if n else 0.0, f"{right}/{n}" if n else "–") for d, n, right in days],
        maximum=1.0,
    )


def recall_bars(stats: list[RiteProgress]) -> list[Bar]:
    return bars([(s.rite, s.mastered_share, f"{s.mastered_share:.0%}") for s in stats], maximum=1.0)


def mastery_colour(mastery: float | None) -> str:
    """Grey when unseen, then red → amber → green with retrievability."""
    if mastery is None:
        return "#c8c8c8"
    if mastery >= 0.9:
        return "#2e8b57"
    if mastery >= 0.7:
        return "#d4a017"
    return "#c0392b"


@dataclass(frozen=True)
class TimelineCell:
    name: str
    modern_name: str | None
    colour: str
    mastery: str


def timeline_cells(stages: list[TimelineStage], unseen: str) -> list[TimelineCell]:
    return [
        TimelineCell(
            s.name, s.modern_name, mastery_colour(s.mastery), f"{s.mastery:.0%}" if s.mastery is not None else unseen
        )
        for s in stages
    ]
