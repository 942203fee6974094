"""The baseline for bench/web.py: one trivial JSON route, served by gunicorn the same way as the quiz.

Run: gunicorn -w 2 'bench.trivial_app:create_app()'
"""

from __future__ import annotations

from flask import Flask, jsonify


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/hello")
    def hello():  # type: ignore[no-untyped-def]
        return jsonify(hello="world")

    return app
