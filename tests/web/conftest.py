"""Fixtures for the web tests: a store with a recorded match, the Flask app, a referee, and
(for the browser tests) the real server as a process on a free loopback port."""

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from engine.record import parse_lines
from scorer.cli import DEMO_RECORD
from store.event_store import Store
from tests.ports import free_port
from web import create_app

PASSWORD = "s3cret-pass"
ARTIFACTS = Path(__file__).parents[1] / "artifacts"


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "hall.db")
    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    store.add_table("1", record.header.to_json())
    store.append("1", [e.to_json() for e in record.events[1:]])
    store.add_user("li", PASSWORD)
    return store


@pytest.fixture
def app(store):
    app = create_app(store, start_hub=False)
    app.config["TESTING"] = True
    yield app
    app.config["HUB"].stop()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def token(store):
    return store.new_token("li")


def header_json(table: str = "t9", profile: str = "linyi") -> dict:
    return {"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": profile, "table": table}


def start_serve(db: str, threads: int = 40, *options: str,
                env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """``guandan serve`` as users run it (waitress) on ``db`` with ``options`` (in ``env``:
    the process's environment, by default the tests'), answering: (process, base URL)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", db, "--port", str(port),
                             "--threads", str(threads), *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/tables", timeout=2).read()
            return proc, base
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                output = proc.stdout.read().decode(errors="replace")
                raise RuntimeError("the server did not start: " + output) from None
            time.sleep(0.1)


@pytest.fixture
def server(store, tmp_path):
    """``guandan serve`` as users run it (waitress), on the fixture's store."""
    proc, base = start_serve(store.path)
    yield base
    proc.terminate()
    proc.wait(timeout=10)
