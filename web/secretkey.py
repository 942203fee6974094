"""The secret key that signs cookies and tokens: from config or the environment, refused in
production when missing or weak, else created once in the instance folder and shared by workers
that start together."""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from flask import Flask

MIN_SECRET_BYTES = 32


def _strong(key: str) -> bool:
    return len(key.encode("utf-8")) >= MIN_SECRET_BYTES and len(set(key)) >= 10


def secret_key(app: Flask, *, production: bool) -> str:
    """The secret key from config or the environment.

    In production the app refuses to start without one, or with one shorter than 32 bytes (make
    one with ``python -c 'import secrets; print(secrets.token_hex(32))'``). Elsewhere a random key
    is kept in the instance folder: created once, atomically (written to a temporary file, then
    linked to its name only if no key is there yet), so workers that start together share one key.
    """
    key = app.config.get("SECRET_KEY") or os.environ.get("STUDY_SECRET_KEY") or os.environ.get("SECRET_KEY")
    if production and not (key and _strong(str(key))):
        raise RuntimeError(
            "STUDY_SECRET_KEY is not set or too weak: refusing to start in production without a secret key "
            f"of at least {MIN_SECRET_BYTES} random bytes (python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    if key:
        return str(key)
    return _key_file(Path(app.instance_path) / "secret_key")


def _key_file(path: Path) -> str:
    for _ in range(50):
        try:
            text = path.read_text("utf-8").strip()
            if text:
                return text
        except FileNotFoundError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # atomic, and fails if another worker's key is already there
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        finally:
            os.unlink(tmp)
    raise RuntimeError(f"{path}: cannot create the secret key file")
