"""The ``study`` command: argument parsing and printing only; the work is in :mod:`study.build`."""

from __future__ import annotations

import contextlib
import csv
import json
import sys
from pathlib import Path

import click

from .build import FORMATS, BuildReport, Sources, build_deck, default_specs, load_document, load_terms
from .decks.deckspec import load_deckspec
from .decks.notedata import CARD_KINDS
from .errors import StudyError
from .model import Document
from .terms.glossary import filter_terms


class _Group(click.Group):
    """Turns every :class:`StudyError` into ``Error: path:line: message`` and exit status 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except StudyError as e:
            raise click.ClickException(str(e)) from None


@click.group(cls=_Group)
@click.version_option(package_name="study")
def cli() -> None:
    """Study the ritual texts of 《礼经本义》: inspect them, list their terms, build Anki decks,
    and serve the web quiz."""


def _existing(path_type: type = Path) -> click.Path:
    return click.Path(exists=True, dir_okay=False, path_type=path_type)


def _warn(doc: Document) -> None:
    for w in doc.warnings:
        click.echo(f"warning: {w}", err=True)


@cli.command()
@click.argument("path", type=_existing())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (the fixed interface).")
@click.option(
    "--translations",
    type=_existing(),
    help="Corrections of the translations (default: translations.yaml beside the texts' folder, decks/translations.yaml).",
)
def inspect(path: Path, as_json: bool, translations: Path | None) -> None:
    """Show the rites, stages and passages of a text.

    Example: study inspect decks/texts/004_b33f8e7c4f66e3ba.txt --json
    """
    doc = load_document(path, translations=translations)
    _warn(doc)
    if as_json:
        json.dump(doc.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        click.echo()
        return
    click.echo(doc.file + ("  (节选 excerpt: part of its rites only)" if doc.excerpt else ""))
    for rite in doc.rites:
        if not rite.stages:
            note = "".join(s.text for s in rite.commentary)
            click.echo(f"{rite.name}  (no stages: title only{'，' + note if note else ''})")
            continue
        label = "节选, " if doc.excerpt else ""
        click.echo(f"{rite.name}  ({label}{len(rite.stages)} stages)")
        for n, stage in enumerate(rite.stages, 1):
            name = stage.name or "(unnamed, the excerpt ends here)"
            modern = f" — {stage.modern_name}" if stage.modern_name else ""
            where = f"line {stage.line}" if stage.line else "no heading"
            click.echo(f"  {n:>2}. {name}{modern}  [{len(stage.passages)} passages, {where}]")
    if doc.translation:
        click.echo(f"{len(doc.translation)} lines of modern translation")


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=_existing())
@click.option("--rite", help="Only the terms used or glossed in this rite.")
@click.option("--json", "fmt", flag_value="json", help="Print a JSON list (the fixed interface).")
@click.option(
    "--csv",
    "fmt",
    flag_value="csv",
    help="Print CSV: term, pinyin, category, gloss, source, taught (no: withheld by the precision gate), rule.",
)
@click.option(
    "--glossary",
    type=_existing(),
    help="Curated glossary to merge (default: decks/glossary.yaml).",
)
def terms(paths: tuple[Path, ...], rite: str | None, fmt: str | None, glossary: Path | None) -> None:
    """List the terms of texts: headword, reading, category, glosses with their sources.

    Example: study terms decks/texts/*.txt --rite 乡射礼 --json
    """
    documents = [load_document(p) for p in paths]
    for doc in documents:
        _warn(doc)
    if rite is not None and not any(r.name == rite for d in documents for r in d.rites):
        known = "、".join(r.name for d in documents for r in d.rites)
        raise click.ClickException(f"unknown rite {rite!r} (known: {known})")
    found = filter_terms(load_terms(documents, glossary, withheld=fmt == "csv"), rite=rite)
    if fmt == "json":
        json.dump([t.to_dict() for t in found], sys.stdout, ensure_ascii=False, indent=1)
        click.echo()
    elif fmt == "csv":
        out = csv.writer(sys.stdout)
        out.writerow(["term", "normalized", "pinyin", "category", "frequency", "gloss", "source", "taught", "rule"])
        for t in found:
            for g in t.glosses:
                where = f"{g.file}:{g.line}" if g.line else (g.speaker or g.file or "")
                taught = "yes" if g.taught else "no"  # no: withheld by the precision gate, for review
                row = [t.term, t.normalized, t.pinyin, t.category, t.total_frequency, g.gloss, where, taught, g.rule]
                out.writerow(row)
    else:
        for t in found:
            glosses = "；".join(g.gloss for g in t.glosses[:3])
            click.echo(f"{t.term}\t{t.pinyin}\t{t.category}\t{t.total_frequency}\t{glosses}")


def _targets(specs: list[Path], output: Path | None, default_dir: Path | None) -> list[Path]:
    """Where each spec's package goes: ``output`` itself for one spec, else a folder of ``<stem>.apkg``."""
    if len(specs) == 1 and default_dir is None and output is not None and not output.is_dir():
        return [output if output.suffix else output.with_suffix(".apkg")]
    folder = output or default_dir or Path.cwd()
    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(f"{folder} is a file; several packages need a folder", param_hint="-o")
    return [folder / f"{p.stem}.apkg" for p in specs]


@cli.command()
@click.argument("specs", nargs=-1, type=_existing())
@click.option("--all", "all_specs", is_flag=True, help="Build every deck spec in decks/, one package each.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="The package (one SPEC) or a folder (several, or --all). Default: SPEC's name here; build/ for --all.",
)
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(FORMATS),
    default=("apkg",),
    show_default=True,
    help="apkg: Anki package; csv: Anki text import; tsv: term TAB definition (Quizlet). Repeatable.",
)
def build(specs: tuple[Path, ...], all_specs: bool, output: Path | None, formats: tuple[str, ...]) -> None:
    """Build Anki packages (and CSV/TSV) from deck specs.

    Example: study build decks/xiangshe.yaml -o xiangshe.apkg -f apkg -f tsv
    """
    if all_specs == bool(specs):
        raise click.UsageError("give deck spec files or --all (not both)")
    paths = default_specs() if all_specs else list(specs)
    if not paths:
        raise click.UsageError("no deck specs in decks/")
    targets = _targets(paths, output, Path("build") if all_specs else None)
    sources = Sources()
    reports: list[tuple[BuildReport, Path]] = []
    jobs = list(zip(paths, targets, strict=True))
    bar = click.progressbar(
        jobs,
        label="Building decks",
        file=sys.stderr,
        item_show_func=lambda item: item[0].name if item else None,
    )
    with (
        bar if len(jobs) > 1 and sys.stderr.isatty() else contextlib.nullcontext(jobs) as items
    ):  # a bar on a terminal only
        for spec_path, target in items:
            target.parent.mkdir(parents=True, exist_ok=True)
            report = build_deck(load_deckspec(spec_path), target, formats=formats, sources=sources)
            reports.append((report, spec_path))
    for report, spec_path in reports:
        files = ", ".join(str(p) for p in report.outputs)
        click.echo(f"{spec_path.name}: {report.total_notes} notes, {report.total_cards} cards -> {files}")
        load = report.load
        kinds = "，".join(f"{k} {n}" for k, n in sorted(report.card_kinds.items(), key=_kind_rank))
        minutes = "，".join(f"{d} 天后每天复习约 {m:.0f} 分钟" for d, m in load.minutes.items())
        click.echo(f"  卡片：{kinds}；每天 20 张新卡需 {load.days} 天学完；{minutes}")


def _kind_rank(item: tuple[str, int]) -> int:
    order = list(CARD_KINDS.values())
    return order.index(item[0]) if item[0] in order else len(order)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
def serve(host: str, port: int) -> None:
    """Serve the web quiz (SQLite file in the instance folder unless DATABASE_URL is set).

    Example: study serve --port 5000
    """
    from web import create_app

    app = create_app()
    click.echo(f"Serving the quiz on http://{host}:{port}/ (database: {app.config['DATABASE_URL']})")
    app.run(host=host, port=port, debug=False, use_reloader=False)


def _database(url: str | None) -> str:
    import os

    from .paths import ROOT

    return url or os.environ.get("DATABASE_URL") or f"sqlite:///{ROOT / 'instance' / 'study.sqlite'}"


def _engine(database: str | None, *, create: bool):  # type: ignore[no-untyped-def]
    """An engine on the database, migrated to the newest schema (created only if ``create``)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .learn.db import make_engine, upgrade

    engine = make_engine(_database(database))
    try:
        upgrade(engine, create=create)
    except SQLAlchemyError as e:
        shown = engine.url.render_as_string(hide_password=True)
        raise StudyError(f"{shown}: cannot open the database: {str(e.orig or e).splitlines()[0]}") from None
    return engine


@cli.group()
def db() -> None:
    """The review database (DATABASE_URL): create or migrate it."""


@db.command("upgrade")
@click.option("--database", help="SQLAlchemy URL (default: $DATABASE_URL or the web app's SQLite file).")
def db_upgrade(database: str | None) -> None:
    """Create the database (a SQLite file) or its tables, or migrate them to the newest schema.

    The web app in production (STUDY_ENV=production) never does this itself.

    Example: study db upgrade --database postgresql+psycopg://study@127.0.0.1/study
    """
    from .learn.db import head_revision

    engine = _engine(database, create=True)
    click.echo(f"{engine.url.render_as_string(hide_password=True)}: schema {head_revision()}")
    engine.dispose()


@cli.command("export-progress")
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path), help="JSON file to write."
)
@click.option("--database", help="SQLAlchemy URL (default: $DATABASE_URL or the web app's SQLite file).")
def export_progress_cmd(output: Path, database: str | None) -> None:
    """Back up the whole database (teachers, classes, assignments, learners, cards, reviews) to a
    JSON file, read in one consistent snapshot.

    Example: study export-progress -o progress.json --database sqlite:///instance/study.sqlite
    """
    from .learn.backup import write_export

    engine = _engine(database, create=False)
    report = write_export(engine, output)
    click.echo(f"{report.summary()} -> {output}")


@cli.command("import-progress")
@click.argument("path", type=_existing())
@click.option("--database", help="SQLAlchemy URL (default: $DATABASE_URL or the web app's SQLite file).")
def import_progress_cmd(path: Path, database: str | None) -> None:
    """Restore a backup into a database (created if it is a new SQLite file), in one transaction:
    rows already there are skipped, a conflicting row stops the import and nothing changes.

    Example: study import-progress progress.json --database postgresql+psycopg://study@127.0.0.1/study
    """
    from .learn.backup import read_import

    engine = _engine(database, create=True)
    report = read_import(engine, path)
    click.echo(f"imported {report.summary()} from {path}")
