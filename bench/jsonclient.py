"""A learner's side of the JSON API for the benchmarks: one keep-alive connection, the session
cookie and the CSRF token, timed requests."""

from __future__ import annotations

import http.client
import json
import socket
import time


def find_free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JsonClient:
    def __init__(self, port: int, *, timeout: float = 10) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, path: str, body: object = None) -> tuple[int, object, float]:
        """(status, JSON body, seconds); POSTs carry the CSRF token, the cookie is kept."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method == "POST":
            headers["X-CSRFToken"] = self.csrf
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        seconds = time.perf_counter() - start
        for value in response.headers.get_all("Set-Cookie") or []:
            if value.startswith("session="):
                self.cookie = value.split(";", 1)[0]
        return response.status, json.loads(raw) if raw else None, seconds

    def close(self) -> None:
        self.conn.close()
