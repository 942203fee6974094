"""The shipped packages as a learner meets them in real Anki (the `anki` package): packages that
coexist, cards that can be answered, and new cards in the order of the text under the defaults."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest

from study.build import Sources, build_deck, default_specs, plan_deck
from study.decks.apkg import NAMES, note_guid
from study.decks.deckspec import load_deckspec, parse_deckspec
from study.decks.notedata import BOOK, NoteData
from study.text.normalize import normalize
from tests.conftest import ROOT

T0 = 1_800_000_000.0
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}")
TEACHER = """\
name: 教师 · 射
rites: [乡射礼]
stages: [请射..取矢]
order: [next, position]
limits: {cloze: 3, terms: 20}
"""


def visible(html: str) -> str:
    return re.sub(r"<[^>]+>|\s", "", _STYLE.sub("", html))


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("specs")
    teacher = folder / "teacher.yaml"
    teacher.write_text(TEACHER, "utf-8")
    return [*default_specs(), teacher]


def _spec(path: Path):
    spec = load_deckspec(path)
    if path.name == "teacher.yaml":  # built against the project's texts
        spec = parse_deckspec(path.read_text("utf-8"), str(path))
    return spec


@pytest.fixture(scope="module")
def notes(specs, sources) -> dict[str, list[NoteData]]:
    return {p.stem: plan_deck(_spec(p), sources) for p in specs}


def _import(col: Collection, path: Path):
    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path))).log


def _snapshot(col: Collection) -> dict[str, tuple[str, ...]]:
    return {col.get_note(nid).guid: tuple(col.get_note(nid).fields) for nid in col.find_notes("")}


ORDERS = {
    "rites_then_all_then_teacher": ["xiangshe", "tesheng", "yanli", "all", "teacher"],
    "teacher_then_all_then_rites": ["teacher", "all", "yanli", "xiangshe", "tesheng"],
    "all_then_teacher_then_rites": ["all", "teacher", "tesheng", "xiangshe", "yanli"],
}


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_importing_every_package_in_any_order_changes_no_note_and_leaves_no_empty_card(order, specs, sources, tmp_path):
    by_stem = {p.stem: p for p in specs}
    col = Collection(str(tmp_path / "c.anki2"))
    try:
        seen: dict[str, tuple[str, ...]] = {}
        for i, stem in enumerate(order):
            out = tmp_path / f"{stem}.apkg"
            build_deck(_spec(by_stem[stem]), out, timestamp=T0 + 60 * i, sources=sources)  # each newer
            _import(col, out)
            now = _snapshot(col)
            changed = [g for g in seen if now.get(g) != seen[g]]
            assert not changed, (stem, changed[:3])
            seen = now
        assert not col.get_empty_cards().notes
        # no headword twice in one rite's deck
        for name in col.decks.all_names():
            if name.startswith(BOOK + "::"):
                words = [
                    visible(col.get_note(n)["Term"]) for n in col.find_notes(f'"deck:{name}" "note:{NAMES["term"]}"')
                ]
                assert len(words) == len(set(words)), name
    finally:
        col.close()


def test_the_same_note_is_the_same_in_every_package(notes):
    by_guid: dict[str, tuple] = {}
    for stem, mine in notes.items():
        for n in mine:
            got = (n.model, n.fields, n.cards)
            assert by_guid.setdefault(note_guid(n), got) == got, (stem, n.identity)


@pytest.fixture(scope="module")
def everything(tmp_path_factory, sources):
    """A collection holding every shipped package, rendered: (front, back, note type, fields) per card."""
    folder = tmp_path_factory.mktemp("all")
    col = Collection(str(folder / "c.anki2"))
    try:
        for i, spec in enumerate(default_specs()):
            out = folder / f"{spec.stem}.apkg"
            build_deck(load_deckspec(spec), out, timestamp=T0 + i, sources=sources)
            _import(col, out)
        cards = []
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            note = card.note()
            cards.append(
                (visible(card.question()), visible(card.answer()), note.note_type()["name"], dict(note.items()))
            )
        yield cards
    finally:
        col.close()


def test_no_two_cards_have_the_same_front_and_different_backs(everything):
    backs = defaultdict(set)
    for front, back, _, _ in everything:
        backs[front].add(back)
    clashes = {f: b for f, b in backs.items() if len(b) > 1}
    assert not clashes, list(clashes.items())[:2]


def _plain(html: str) -> str:
    return normalize(re.sub(r"<[^>]+>", "", html))


def test_no_cloze_hint_gives_its_answer_or_ends_mid_word(everything):
    hints = 0
    for _, _, model, fields in everything:
        if model != NAMES["cloze"]:
            continue
        glosses = [
            _plain(g) for x in re.findall(r'class="gloss">(.*?)</span>', fields["Glosses"]) for g in x.split("；")
        ]
        for answer, hint in _CLOZE.findall(fields["Text"]):
            if not hint:
                continue
            hints += 1
            h, a = _plain(hint.replace("&#58;", ":")), _plain(answer)
            assert not set(a) & set(h), (answer, hint)
            # the hint is a gloss of the answer, whole or cut after a clause
            assert any(g.rstrip("。") == h or (g.startswith(h) and g[len(h)] in "，、；") for g in glosses), (
                hint,
                glosses,
            )
    assert hints > 50


def test_no_gloss_prompt_contains_its_term(everything):
    prompts = 0
    for front, _, model, fields in everything:
        if model == NAMES["term_reverse"]:
            prompts += 1
            term = normalize(visible(fields["Term"]))
            assert term not in normalize(visible(fields["Clue"])) and term not in normalize(fields["Context"]), front
    assert prompts > 50


@pytest.mark.parametrize("spec", default_specs(), ids=lambda p: p.stem)
def test_order_cards_are_at_most_35_percent_of_each_rites_cards(spec, notes):
    per_rite: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for n in notes[spec.stem]:
        rite = n.tags[-1].split("::")[0]
        per_rite[rite][1] += n.cards
        if n.kind in ("stages", "steps"):
            per_rite[rite][0] += n.cards
    for deck, (order, total) in per_rite.items():
        assert order <= 0.35 * total, (deck, order, total)


def test_the_first_60_new_cards_follow_the_text_under_the_default_options(tmp_path, notes, sources):
    out = tmp_path / "all.apkg"
    build_deck(load_deckspec(ROOT / "decks" / "all.yaml"), out, timestamp=T0, sources=sources)
    by_guid = {note_guid(n): n for n in notes["all"]}
    col = Collection(str(tmp_path / "c.anki2"))
    try:
        _import(col, out)
        col.decks.select(col.decks.id_for_name(BOOK))
        new_queue = col.db.all("select id, did from cards where queue = 0 order by due, ord")
        today = []
        for _ in range(20):
            card = col.sched.getCard()
            today.append(card.id)
            col.sched.answerCard(card, 4)
        assert col.sched.getCard() is None or col.sched.getCard().type != 0  # the day's 20 new cards
        # Anki gathers deck by deck (names in book order), by position: the next days continue there
        first_deck = col.get_card(today[0]).did
        queue = [cid for cid, did in new_queue if did == first_deck]
        assert set(queue[:20]) == set(today)  # (shown sorted by card type within the day)
        shown = [(i // 20, by_guid[col.get_card(cid).note().guid]) for i, cid in enumerate(queue[:60])]
        day = 2
    finally:
        col.close()
    assert [d for d, _ in shown].count(0) == 20
    first = [n for _, n in shown if n.later_than is None]
    # the stages come in the order of the text, day by day
    days = defaultdict(list)
    for d, n in shown:
        if n.later_than is None:
            days[d].append(n.order[:2])
    for d in range(day):
        if days[d] and days[d + 1]:
            assert max(days[d]) <= min(days[d + 1]), d
    # a stage's terms before the clozes that blank them; its steps after its passages
    terms_seen: set[str] = set()
    words = {_plain(n.field("Term")): n for n in notes["all"] if n.model == "term"}
    for i, n in enumerate(first):
        if n.model == "term":
            terms_seen.add(_plain(n.field("Term")))
        if n.model == "cloze":
            for answer, _ in _CLOZE.findall(n.field("Text")):
                if _plain(answer) in words and words[_plain(answer)].deck == n.deck:
                    assert _plain(answer) in terms_seen, (answer, n.identity)
        if n.kind == "steps":
            stage = n.tags[-1]
            assert not [m for m in first[i:] if m.kind in ("passages", "cloze") and m.tags[-1] == stage]
    # two cards of one fact never on one day
    day_of: dict[str, set[int]] = defaultdict(set)
    for d, n in shown:
        day_of[n.later_than or n.fact].add(d)
        if n.later_than:
            assert d not in {dd for dd, m in shown if m.fact == n.later_than}, n.identity
    assert any(n.model == "term" for n in first) and any(n.model == "cloze" for n in first)
