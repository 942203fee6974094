"""The ``study`` command: argument parsing and printing only; the work is in :mod:`study.build`."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import click

from .build import load_document, load_terms
from .errors import StudyError
from .glossary import filter_terms
from .model import Document


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
def inspect(path: Path, as_json: bool) -> None:
    """Show the rites, stages and passages of a text.

    Example: study inspect decks/texts/004_b33f8e7c4f66e3ba.txt --json
    """
    doc = load_document(path)
    _warn(doc)
    if as_json:
        json.dump(doc.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        click.echo()
        return
    click.echo(doc.file)
    for rite in doc.rites:
        click.echo(f"{rite.name}  ({len(rite.stages)} stages)")
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
@click.option("--csv", "fmt", flag_value="csv", help="Print CSV: term, pinyin, category, gloss, source.")
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
    found = filter_terms(load_terms(documents, glossary), rite=rite)
    if fmt == "json":
        json.dump([t.to_dict() for t in found], sys.stdout, ensure_ascii=False, indent=1)
        click.echo()
    elif fmt == "csv":
        out = csv.writer(sys.stdout)
        out.writerow(["term", "normalized", "pinyin", "category", "frequency", "gloss", "source"])
        for t in found:
            for g in t.glosses:
                where = f"{g.file}:{g.line}" if g.line else (g.speaker or g.file or "")
                out.writerow([t.term, t.normalized, t.pinyin, t.category, t.total_frequency, g.gloss, where])
    else:
        for t in found:
            glosses = "；".join(g.gloss for g in t.glosses[:3])
            click.echo(f"{t.term}\t{t.pinyin}\t{t.category}\t{t.total_frequency}\t{glosses}")


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
