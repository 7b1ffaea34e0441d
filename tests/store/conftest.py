"""Fixtures for the store tests."""

from __future__ import annotations

import pytest

from store.event_store import Store


@pytest.fixture
def store(db_target):
    """An event store on each backend (a test file about another store names its own)."""
    store = Store(db_target)
    yield store
    store.close()
