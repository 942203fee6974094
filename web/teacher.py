"""The teacher's pages: account, classes, the deck builder (preview, downloads, assignment to a
class), the class report and the Moodle export. The builder writes a deck spec of the same format
as ``decks/*.yaml`` and builds it with the same code as ``study build``."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from urllib.parse import quote

from flask import Blueprint, Response, abort, redirect, render_template, request, session, url_for
from werkzeug.datastructures import MultiDict

from study.build import build_deck, plan_deck
from study.decks.deckspec import KINDS
from study.decks.preview import STYLE, card_previews
from study.decks.termlist import TermListError, parse_csv, parse_rows
from study.errors import DeckSpecError, Said
from study.learn.classdeck import DeckChoice, class_catalog, spec_from_yaml, spec_yaml
from study.learn.classes import AccountError
from study.learn.db import now
from study.learn.moodle import moodle_xml
from study.learn.report import class_report, report_csv
from study.model import CATEGORIES

from .buildslot import build_slot
from .i18n import category, t
from .messages import localize, say, term_list_errors
from .ratelimit import rate_limited
from .state import get_state

bp = Blueprint("teacher", __name__, url_prefix="/teacher")
TABLE_ROWS = 5
ACTIONS = ("preview", "apkg", "csv", "yaml", "moodle", "assign")


def _teacher():  # type: ignore[no-untyped-def]
    teacher_id = session.get("teacher_id")
    return get_state().classes.teacher(teacher_id) if isinstance(teacher_id, int) else None


def _require_teacher():  # type: ignore[no-untyped-def]
    teacher = _teacher()
    if teacher is None:
        abort(403, description=t("err_teacher_only"))
    return teacher


def _own_class(class_id: int):  # type: ignore[no-untyped-def]
    """The class, if the signed-in teacher is its teacher; 403 for anyone else."""
    teacher = _teacher()
    room = get_state().classes.class_room(class_id)
    if teacher is None or room is None or room.teacher_id != teacher.id:
        abort(403, description=t("err_not_your_class"))
    return room


@bp.get("/")
def home():  # type: ignore[no-untyped-def]
    teacher = _teacher()
    rooms = get_state().classes.classes_of(teacher.id) if teacher else []
    return render_template("teacher/home.html", teacher=teacher, rooms=rooms, error=None)


@bp.post("/signup")
@rate_limited("teacher_login")
def signup():  # type: ignore[no-untyped-def]
    try:
        teacher = get_state().classes.sign_up(request.form.get("name", ""), request.form.get("password", ""), now())
    except AccountError as e:
        return render_template("teacher/home.html", teacher=None, rooms=[], error=localize(e.args[0])), 400
    session["teacher_id"] = teacher.id
    return redirect(url_for("teacher.home"))


@bp.post("/login")
@rate_limited("teacher_login")
def login():  # type: ignore[no-untyped-def]
    teacher = get_state().classes.log_in(request.form.get("name", ""), request.form.get("password", ""))
    if teacher is None:
        return render_template("teacher/home.html", teacher=None, rooms=[], error=t("err_login")), 400
    session["teacher_id"] = teacher.id
    return redirect(url_for("teacher.home"))


@bp.post("/logout")
def logout() -> Response:
    session.pop("teacher_id", None)
    return redirect(url_for("teacher.home"))


@bp.post("/classes")
def create_class() -> Response:
    teacher = _require_teacher()
    get_state().classes.create_class(teacher.id, request.form.get("name", ""), now())
    return redirect(url_for("teacher.home"))


# --- the deck builder ----------------------------------------------------------------------


def _rites() -> list[dict[str, object]]:
    """The texts' rites and their named stages, for the form."""
    out = []
    for doc in get_state().documents:
        for rite in doc.rites:
            stages = [{"id": s.id, "name": s.name, "modern": s.modern_name} for s in rite.stages if s.name]
            out.append({"text": doc.file, "rite": rite.name, "key": f"{doc.file}|{rite.name}", "stages": stages})
    return out


def _stages(form: MultiDict, rite: dict[str, object]) -> tuple[str, ...]:
    ids = [s["id"] for s in rite["stages"]]  # type: ignore[union-attr]
    chosen = [i for i in form.getlist("stage") if i in ids]
    if chosen:
        return tuple(chosen)
    # every rite has its own from/to selects: take the ones that name a stage of the chosen rite
    start = next((v for v in form.getlist("from") if v in ids), "")
    end = next((v for v in form.getlist("to") if v in ids), "")
    if start in ids or end in ids:
        a = ids.index(start) if start in ids else 0
        b = ids.index(end) if end in ids else len(ids) - 1
        a, b = min(a, b), max(a, b)
        return tuple(ids[a : b + 1])
    return ()


def _terms(form: MultiDict):  # type: ignore[no-untyped-def]
    rows = []
    for k in range(1, TABLE_ROWS + 1):
        cells = [form.get(f"{field}_{k}", "") for field in ("term", "gloss", "pinyin", "category")]
        rows.append(cells if any(c.strip() for c in cells[:3]) else [])
    from_table = parse_rows(rows) if any(rows) else []
    pasted = form.get("csv", "")
    return tuple(from_table) + (tuple(parse_csv(pasted)) if pasted.strip() else ())


def _choice(form: MultiDict) -> DeckChoice:
    rites = {r["key"]: r for r in _rites()}
    rite = rites.get(form.get("rite", ""))
    if rite is None:
        raise DeckSpecError(Said("choose_rite", "choose a text and a rite"), path="<teacher page>", line=None)
    kinds = tuple(k for k in KINDS if k in form.getlist("kind")) or KINDS
    limit = form.get("limit", "").strip()
    if limit and not (limit.isdigit() and 1 <= int(limit) <= 2000):
        raise DeckSpecError(
            Said("term_limit", "the term limit is a number from 1 to 2000"), path="<teacher page>", line=None
        )
    name = (form.get("name") or "").strip()[:100] or str(rite["rite"])
    return DeckChoice(
        name,
        str(rite["text"]),
        str(rite["rite"]),
        _stages(form, rite),
        kinds,
        int(limit) if limit else None,
        _terms(form),
    )


def _form_page(form: MultiDict, *, errors: list[str] | None = None, previews=None, spec_text=None, status=200):  # type: ignore[no-untyped-def]
    teacher = _require_teacher()
    rooms = get_state().classes.classes_of(teacher.id)
    return (
        render_template(
            "teacher/deck.html",
            teacher=teacher,
            rooms=rooms,
            rites=_rites(),
            form=form,
            kinds=KINDS,
            categories=[(c, category(c)) for c in CATEGORIES],
            rows=range(1, TABLE_ROWS + 1),
            errors=errors or [],
            previews=previews or [],
            spec_text=spec_text,
        ),
        status,
    )


@bp.get("/deck")
def deck():  # type: ignore[no-untyped-def]
    return _form_page(request.args)


def scoped_css(css: str, scope: str = ".anki-preview") -> str:
    """The note types' CSS limited to the previews, so it does not restyle the page around them."""

    def scope_rule(m: re.Match[str]) -> str:
        selectors = ", ".join(f"{scope} {sel.strip()}" for sel in m.group(1).split(","))
        return f"{selectors} {{{m.group(2)}}}"

    return re.sub(r"([^{}]+)\{([^{}]*)\}", scope_rule, css)


@bp.get("/card.css")
def card_css() -> Response:
    """The note types' CSS, so that previews look as they will in Anki."""
    return Response(scoped_css(STYLE), mimetype="text/css")


def _download(data: bytes | str, filename: str, mimetype: str) -> Response:
    body = data.encode("utf-8") if isinstance(data, str) else data
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(filename, safe='')}"
    return response


@bp.post("/deck")
def deck_post():  # type: ignore[no-untyped-def]
    teacher = _require_teacher()
    with build_slot(teacher.id):  # one build at a time on the machine, a rate per teacher (429)
        return _deck_post()


def _deck_post():  # type: ignore[no-untyped-def]
    form = request.form
    action = form.get("action", "preview")
    if action not in ACTIONS:
        abort(400, description=say("unknown_action"))
    try:
        choice = _choice(form)
        text = spec_yaml(choice)
        spec = spec_from_yaml(text)
        notes = plan_deck(spec)
    except TermListError as e:
        return _form_page(form, errors=[f"{t('own_terms')}: {line}" for line in term_list_errors(e)], status=400)
    except DeckSpecError as e:  # a spec made from the form: its line numbers mean nothing to the teacher
        return _form_page(form, errors=[localize(message) for _, message in e.problems], status=400)
    stem = "".join(ch for ch in choice.name if ch.isalnum() or ch in "-_·") or "deck"
    if action == "preview":
        seen, previews = set(), []
        for note in notes:
            if note.kind not in seen:
                seen.add(note.kind)
                previews.append((note.kind, card_previews(note)[:2]))
        return _form_page(form, previews=previews, spec_text=text)
    if action == "yaml":
        return _download(text, f"{stem}.yaml", "application/x-yaml")
    if action in ("apkg", "csv"):
        with tempfile.TemporaryDirectory() as tmp:
            report = build_deck(spec, Path(tmp) / "deck", formats=(action,))
            data = report.outputs[0].read_bytes()
        mimetype = "application/apkg" if action == "apkg" else "text/csv"
        return _download(data, f"{stem}.{action}", mimetype)
    state = get_state()
    if action == "moodle":
        catalog = class_catalog(spec, state.documents, state.terms)
        return _download(moodle_xml(catalog.items, catalog), f"{stem}.moodle.xml", "application/xml")
    class_id = form.get("class_id", "")
    if not class_id.isdigit():
        abort(400, description=t("err_choose_class"))
    room = _own_class(int(class_id))
    class_catalog(spec, state.documents, state.terms)  # refuse what the quiz could not use
    state.classes.assign(room.id, text, now())
    return redirect(url_for("teacher.report", class_id=room.id, assigned=1))


# --- the class report ----------------------------------------------------------------------


@bp.get("/classes/<int:class_id>/report")
def report(class_id: int):  # type: ignore[no-untyped-def]
    room = _own_class(class_id)
    state = get_state()
    store = state.classes
    catalog = state.catalog_for(room.id)
    learners = store.learners_of(room.id)
    result = class_report(
        [x.name for x in learners], store.class_logs(room.id), store.class_cards(room.id), catalog, now()
    )
    if request.args.get("format") == "csv":
        return _download(report_csv(result), f"class-{room.code}.csv", "text/csv")
    assigned = store.assignment(room.id)
    return render_template(
        "teacher/report.html",
        teacher=_teacher(),
        room=room,
        report=result,
        assigned=assigned,
        just_assigned=request.args.get("assigned") == "1",
    )


@bp.get("/classes/<int:class_id>/moodle.xml")
def class_moodle(class_id: int) -> Response:
    room = _own_class(class_id)
    state = get_state()
    catalog = state.catalog_for(room.id)
    return _download(moodle_xml(catalog.items, catalog), f"class-{room.code}.moodle.xml", "application/xml")
