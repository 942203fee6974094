"""The checks every input passes: form fields and JSON bodies without control characters or lone
surrogates, the API's small bodies, JSON nested at most :data:`MAX_JSON_DEPTH` levels with strings
of at most :data:`MAX_JSON_STRING` characters (:class:`SafeJSONProvider`, which also writes the
app's JSON responses); each refusal a 400 with a localized message."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, abort, current_app, request
from flask.json.provider import DefaultJSONProvider

from .i18n import lang

MAX_JSON_DEPTH = 16
MAX_JSON_STRING = 4096  # characters of one string in a JSON body (answers are at most 200)
# C0 and C1 controls (tab, newline and carriage return allowed) and lone surrogates
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
TEXT_FIELDS = ("name", "class_code", "password", "item_id", "answer", "answer_id", "token", "time_zone")

MESSAGES = {
    "control": {"zh": "输入含有不允许的控制字符", "en": "The input contains a control character that is not allowed"},
    "depth": {"zh": "JSON 嵌套太深（最多 {n} 层）", "en": "The JSON is nested too deeply (at most {n} levels)"},
    "string": {
        "zh": "JSON 中的文字太长（最多 {n} 个字符）",
        "en": "A text in the JSON is too long (at most {n} characters)",
    },
    "json": {"zh": "请求体不是有效的 JSON", "en": "The body is not valid JSON"},
}


def message(key: str, **values: object) -> str:
    try:
        chosen = lang()
    except RuntimeError:  # outside a request
        chosen = "zh"
    return MESSAGES[key][chosen].format(**values)


def limit_body() -> None:
    """The JSON API takes small bodies; only the teacher's forms may carry a pasted term list."""
    if request.path.startswith("/api/"):
        request.max_content_length = current_app.config["API_MAX_CONTENT_LENGTH"]


def check_text_input() -> None:
    """Refuse control characters in form fields (400): nothing stored or shown carries one.
    (Query parameters only select things, and ``next`` is checked by :func:`safe_next`.)"""
    if request.method not in ("POST", "PUT", "PATCH") or request.mimetype not in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        return
    if any(CONTROL.search(v) for v in request.form.values()):
        abort(400, description=message("control"))


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (before parsing anything)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_strings(value: Any) -> None:
    """Every string at most :data:`MAX_JSON_STRING` long; the fields the app stores or shows
    (:data:`TEXT_FIELDS`) without control characters or lone surrogates. Fields it does not know
    are ignored, as the API description allows."""
    if isinstance(value, dict):
        for key in TEXT_FIELDS:
            field = value.get(key)
            texts = field if isinstance(field, list) else [field]
            if any(isinstance(x, str) and CONTROL.search(x) for x in texts):
                abort(400, description=message("control"))
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_JSON_STRING:
                abort(400, description=message("string", n=MAX_JSON_STRING))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class SafeJSONProvider(DefaultJSONProvider):
    """Request bodies: at most :data:`MAX_JSON_DEPTH` levels, strings of at most
    :data:`MAX_JSON_STRING` characters, no control characters or lone surrogates — each a 400
    with a localized message instead of a RecursionError or a database encoding error (500).

    Responses: UTF-8 rather than \\u escapes (a Chinese character in 3 bytes, not 6, for the
    phone to receive and parse), keys in the order the app gives them."""

    ensure_ascii = False
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return self._encoded(obj, **kwargs)[0]

    def _encoded(self, obj: Any, **kwargs: Any) -> tuple[str, bytes]:
        text = super().dumps(obj, **kwargs)
        try:
            return text, text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from somewhere: escaped, as JSON allows
            text = super().dumps(obj, **kwargs | {"ensure_ascii": True})
            return text, text.encode("ascii")

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """Flask's ``jsonify``, with the body encoded once (the check above already encodes it)."""
        obj = self._prepare_response_obj(args, kwargs)
        if (self.compact is None and self._app.debug) or self.compact is False:
            _, body = self._encoded(obj, indent=2)
        else:
            _, body = self._encoded(obj, separators=(",", ":"))
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        text = s.decode("utf-8", "replace") if isinstance(s, bytes) else s
        # (no deeper than the number of brackets: the usual small body needs no scan)
        if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(text) > MAX_JSON_DEPTH:
            abort(400, description=message("depth", n=MAX_JSON_DEPTH))
        try:
            data = json.loads(text, **kwargs)
        except RecursionError:  # pragma: no cover - the depth check comes first
            abort(400, description=message("depth", n=MAX_JSON_DEPTH))
        _check_strings(data)
        return data
