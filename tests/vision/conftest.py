"""Fixtures shared by the vision tests."""

from pathlib import Path

import pytest

from vision.synth.build import build

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def smoke(tmp_path_factory) -> Path:
    """The smoke recipe's dataset, built once for the session (the tests only read it): its
    ``data.yaml``."""
    folder = tmp_path_factory.mktemp("smoke")
    build(ROOT / "datasets" / "smoke.yaml", folder, progress=False, workers=1)
    return folder / "data.yaml"


@pytest.fixture(scope="module")
def detector():
    """The committed detector as the live loop runs it, for the table runtime's tests
    (tests/vision/test_table_runtime*.py); a test module may define its own."""
    from tests.vision.table_rig import MODEL
    from vision.live.detector import CardDetector

    return CardDetector(MODEL, boxes=False)  # as the live loop runs it
