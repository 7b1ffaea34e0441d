"""Fixtures shared by the packages' tests: a real PostgreSQL server (tests/pg.py), started
once per session and only when a test asks for it, the store targets to run a test on
both engines, and a headless Chromium (one per session: Playwright runs one at a time).
Also: the commands the tests start stop on SIGINT (Ctrl-C), however the test run itself
was started; and the markers ``make check`` leaves out (pyproject.toml), ``browser`` and
``broker`` put on each test that uses the browser or starts Mosquitto (``pytest_collection_modifyitems``)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hall.broker import needs_mosquitto
from tests.pg import MISSING, Postgres, bin_dir

# A shell starting a command in the background without job control (``make test &`` in a
# script) makes it ignore SIGINT, and every process it starts inherits that: a server the
# tests stop with SIGINT would then never stop. Catching it here gives children the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``browser``: the test uses headless Chromium (the ``browser`` fixture, itself or through
    another fixture); ``broker``: it starts Mosquitto (the hall's ``broker`` fixture, or it is
    marked ``needs_mosquitto``, tests/hall/broker.py). The ``slow`` and ``video`` tests are
    marked in their modules."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if "broker" in names or any(mark == needs_mosquitto.mark for mark in item.iter_markers("skipif")):
            item.add_marker(pytest.mark.broker)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    binaries = bin_dir()
    if binaries is None:
        pytest.fail(MISSING, pytrace=False)  # CI installs it: a missing server is a failure, never a skip
    server = Postgres(binaries).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A fresh, empty PostgreSQL database of its own."""
    return postgres.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path) -> str:
    """Where a store lives: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    (Path(__file__).parent / "artifacts").mkdir(exist_ok=True)  # the pages' screenshots
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        yield b
        b.close()
