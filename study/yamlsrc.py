"""YAML with line numbers: every value keeps the line it was written on, for file:line errors.

Deck specs, glossaries and manifests may come from anyone (a teacher's file, a pasted spec), so
the reader has limits: at most :data:`MAX_CHARS` characters, no aliases (``*name``: a kilobyte of
nested aliases expands to gigabytes), no control characters (each reported as ``path:line``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Path_ = tuple[Any, ...]
MAX_CHARS = 4 * 1024 * 1024
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


class _NoAliases(yaml.SafeLoader):
    """A safe loader that refuses aliases instead of expanding them."""

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"aliases (*{event.anchor}) are not allowed: write the value out", event.start_mark
            )
        return super().compose_node(parent, index)


def check_text(text: str, path: str, error: type[Exception]) -> None:
    """Refuse text that is too long or holds control characters, naming the first one's line."""
    if len(text) > MAX_CHARS:
        raise error(f"too large ({len(text)} characters; at most {MAX_CHARS})", path=path, line=None)
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        shown = f"U+{ord(bad.group()):04X}"
        raise error(f"control character {shown} is not allowed (remove it)", path=path, line=line)


@dataclass
class YamlDoc:
    """Plain Python data from a YAML file plus the 1-based line of each value, keyed by path."""

    data: Any
    path: str
    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, *keys: Any) -> int:
        """The line of the value at ``keys``, or of its nearest enclosing value."""
        keys_t = tuple(keys)
        while keys_t and keys_t not in self.lines:
            keys_t = keys_t[:-1]
        return self.lines.get(keys_t, 1)


def _convert(node: yaml.Node, at: Path_, lines: dict[Path_, int], loader: yaml.SafeLoader) -> Any:
    lines[at] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, list | dict):
                key = str(key)  # an unhashable key is reported as unknown, not a crash
            lines[(*at, key)] = key_node.start_mark.line + 1
            out[key] = _convert(value_node, (*at, key), lines, loader)
            lines[(*at, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*at, i), lines, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def read_source(path: Path, error: type[Exception]) -> str:
    """The text of a YAML file, or ``error`` naming the file (too large, unreadable, not UTF-8)."""
    try:
        size = path.stat().st_size
        if size > 4 * MAX_CHARS:
            raise error(f"too large ({size} bytes; at most {MAX_CHARS} characters)", path=str(path), line=None)
        return path.read_text("utf-8")
    except OSError as e:
        raise error(f"cannot read: {e.strerror or e}", path=str(path), line=None) from None
    except UnicodeDecodeError as e:
        raise error(f"not UTF-8 text (byte {e.start})", path=str(path), line=None) from None


def load_yaml(text: str, path: str, error: type[Exception]) -> YamlDoc:
    """Parse ``text``; a syntax error becomes ``error(message, path=, line=)``."""
    check_text(text, path, error)
    loader = _NoAliases(text)
    try:
        node = loader.get_single_node()
        lines: dict[Path_, int] = {}
        data = _convert(node, (), lines, loader) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise error(f"invalid YAML: {e.problem or e}", path=path, line=(mark.line + 1) if mark else None) from None
    except yaml.YAMLError as e:
        raise error(f"invalid YAML: {e}", path=path, line=None) from None
    finally:
        loader.dispose()
    return YamlDoc(data, path, lines)
