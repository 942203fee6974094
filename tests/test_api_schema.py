"""The JSON API against its OpenAPI description, checked by schemathesis on the running app:
no server error, every status and body as documented, bad input refused."""

from __future__ import annotations

import pytest
import requests
import schemathesis
import yaml
from hypothesis import HealthCheck, settings

from tests.conftest import ROOT, SEED_PATHS, serving

SPEC = yaml.safe_load((ROOT / "web" / "openapi.yaml").read_text("utf-8"))
schema = schemathesis.openapi.from_dict(SPEC)


@pytest.fixture
def server(database_url):
    from web import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "schema",
            "DATABASE_URL": database_url,
            "RANDOM_SEED": 5,
            "TEXTS": [str(p) for p in SEED_PATHS],  # the API, not the book: the seed texts are enough
            "RATE_LIMITS": {"sign_in": "1000 per minute", "sign_in_name": "1000 per minute"},
        }
    )
    with serving(app) as base:
        yield base


@pytest.fixture
def signed_in(server):
    """A learner's session cookie and CSRF token, after one item has been asked."""
    session = requests.Session()
    token = session.get(f"{server}/api/session").json()["csrf_token"]
    body = {"name": "模式", "password": "口令-12345678"}
    r = session.post(f"{server}/api/session", json=body, headers={"X-CSRFToken": token})
    assert r.status_code == 200
    token = r.json()["csrf_token"]
    assert session.get(f"{server}/api/next").status_code == 200
    return session.cookies.get("session"), token


def test_the_description_is_served_by_the_app(server):
    assert requests.get(f"{server}/api/openapi.json").json()["paths"].keys() == SPEC["paths"].keys()


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms_to_its_openapi_description(case, server, signed_in):
    cookie, token = signed_in
    # Where the case sends the session cookie or the CSRF header, send the real ones; where it
    # leaves them out (a negative case), they stay out.
    if case.cookies and "session" in case.cookies:
        case.cookies["session"] = cookie
    if case.headers and "X-CSRFToken" in case.headers:
        case.headers["X-CSRFToken"] = token
    case.call_and_validate(base_url=server)
