"""The package layout: imports run one way along the pipeline, and no module imports itself back.

base (model, errors, paths, atomic, yamlsrc) → text → terms → decks → learn → build → web → cli
(``study serve`` starts the web app, so the CLI is the outermost edge).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "study"
STAGES = ["text", "terms", "decks", "learn"]
RANK = {"base": 0, "text": 1, "terms": 2, "decks": 3, "learn": 4, "build": 5, "web": 6, "cli": 7, "__main__": 7}
BASE = {"model", "errors", "paths", "atomic", "yamlsrc", "__init__"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "web":
        return "web"
    if len(parts) == 1:  # the package `study` itself: its __init__ re-exports lazily, importing nothing
        return "base"
    if parts[1] in STAGES:
        return parts[1]
    if parts[1] in BASE:
        return "base"
    return parts[1]


def _sources() -> list[Path]:
    return sorted(p for p in [*STUDY.rglob("*.py"), *(ROOT / "web").glob("*.py")] if "migrations" not in p.parts)


def _imports(path: Path) -> set[str]:
    """Every module of study/web that ``path`` imports, wherever the import stands (functions and
    ``if TYPE_CHECKING`` blocks included)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in ("study", "web") and _resolves(name):
                found.add(name)
    return found


def _resolves(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_every_module_belongs_to_a_known_layer():
    for path in _sources():
        assert _layer(_module_name(path)) in RANK, path


def test_no_import_runs_backwards_along_the_pipeline():
    backwards = []
    for path in _sources():
        module = _module_name(path)
        for target in _imports(path):
            if RANK[_layer(target)] > RANK[_layer(module)]:
                backwards.append(f"{module} imports {target}")
    assert not backwards, "\n".join(backwards)


def test_no_import_cycles():
    graph = {_module_name(p): {t for t in _imports(p) if t != _module_name(p)} for p in _sources()}
    # packages are entered through their __init__, which only documents (stage packages) or re-exports
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt in ("study", "web"):  # the top packages' re-exports are entry points, not layers
                continue
            if state.get(nxt) == 1:
                cycles.append(" → ".join([*trail[trail.index(nxt) :], nxt]) if nxt in trail else nxt)
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "\n".join(cycles)


@pytest.mark.parametrize("stage", STAGES)
def test_importing_a_stage_loads_nothing_from_later_stages(stage):
    modules = sorted(p.stem for p in (STUDY / stage).glob("*.py") if p.stem != "__init__")
    code = (
        "import sys\n"
        + "".join(f"import study.{stage}.{m}\n" for m in modules)
        + "print('\\n'.join(m for m in sys.modules if m.startswith(('study', 'web'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = out.stdout.split()
    later = [m for m in loaded if RANK[_layer(m)] > RANK[stage]]
    assert not later, f"importing study.{stage} loads {later}"
    assert f"study.{stage}.{modules[0]}" in loaded
