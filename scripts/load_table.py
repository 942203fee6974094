"""The README's study-load table, from what `study build` prints.

    study build --all -o /tmp/b | python3 scripts/load_table.py
    python3 scripts/load_table.py build.log            # a saved printout

`study build` prints per package a line ``<spec>.yaml: N notes, M cards -> …`` and a line
``卡片：词→义 80，义→词 80，…；每天 20 张新卡需 35 天学完；30 天后每天复习约 12 分钟，90 天后…``.
This turns them into one markdown row per package: the cards, the cards of each kind (– where a
package has none), the share of order cards (仪节次序, 步骤次序 and a spec's 上下·第几), the days to
introduce them at 20 new cards a day and the daily review minutes after 30 and 90 days.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from study.decks.notedata import CARD_KINDS  # noqa: E402

ORDER_KINDS = (CARD_KINDS["stages"], CARD_KINDS["steps"], CARD_KINDS["order"])
_HEAD = re.compile(r"^(?P<spec>\S+?)\.ya?ml: (?P<notes>\d+) notes, (?P<cards>\d+) cards")
_KINDS = re.compile(
    r"^\s+卡片：(?P<kinds>[^；]*)；每天 (?P<per_day>\d+) 张新卡需 (?P<days>\d+) 天学完；(?P<minutes>.*)$"
)
_KIND = re.compile(r"^\s*(.+?) (\d+)\s*$")  # one of the 卡片 line's 「，」-separated kinds
_MINUTES = re.compile(r"(\d+) 天后每天复习约 (\d+) 分钟")


def rows(printout: str) -> list[dict[str, object]]:
    """One dict per package of the printout: spec, cards, kinds {name: cards}, days, minutes {day: min}."""
    out: list[dict[str, object]] = []
    for line in printout.splitlines():
        if m := _HEAD.match(line):
            out.append({"spec": m["spec"], "cards": int(m["cards"]), "kinds": {}, "days": None, "minutes": {}})
        elif (m := _KINDS.match(line)) and out:
            row = out[-1]
            pairs = (_KIND.match(part) for part in m["kinds"].split("，"))
            row["kinds"] = {p[1]: int(p[2]) for p in pairs if p}
            row["days"], row["per_day"] = int(m["days"]), int(m["per_day"])
            row["minutes"] = {int(d): int(n) for d, n in _MINUTES.findall(m["minutes"])}
    missing = [r["spec"] for r in out if r["days"] is None]
    if not out or missing:
        raise SystemExit(f"not a `study build` printout (no 卡片 line for: {', '.join(map(str, missing)) or 'any'})")
    return out


def table(found: list[dict[str, object]]) -> str:
    kinds = [k for k in CARD_KINDS.values() if any(k in r["kinds"] for r in found)]  # type: ignore[operator]
    kinds += sorted({k for r in found for k in r["kinds"]} - set(kinds))  # type: ignore[attr-defined]
    days = sorted({d for r in found for d in r["minutes"]})  # type: ignore[attr-defined]
    per_day = found[0].get("per_day", 20)
    head = ["package", "cards", *kinds, "order share", f"days at {per_day}/day"]
    head += [f"min/day after {d} d" if i == 0 else f"after {d} d" for i, d in enumerate(days)]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for r in found:
        k: dict[str, int] = r["kinds"]  # type: ignore[assignment]
        cards = int(r["cards"])  # type: ignore[arg-type]
        order = sum(k.get(name, 0) for name in ORDER_KINDS)
        cells = [str(r["spec"]), str(cards), *(str(k[name]) if k.get(name) else "–" for name in kinds)]
        cells += [f"{round(100 * order / cards) if cards else 0} %", str(r["days"])]
        cells += [str(r["minutes"].get(d, "–")) for d in days]  # type: ignore[attr-defined]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("printout", nargs="?", type=Path, help="a saved printout (default: standard input)")
    args = parser.parse_args()
    text = args.printout.read_text("utf-8") if args.printout else sys.stdin.read()
    print(table(rows(text)))


if __name__ == "__main__":
    main()
