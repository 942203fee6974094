"""YAML with line numbers: every value keeps the line it was written on, for file:line errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

Path_ = tuple[Any, ...]


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


def load_yaml(text: str, path: str, error: type[Exception]) -> YamlDoc:
    """Parse ``text``; a syntax error becomes ``error(message, path=, line=)``."""
    loader = yaml.SafeLoader(text)
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
