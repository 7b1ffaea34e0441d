"""The examples in the engine's docstrings run, and say what the engine really does.

Every module of the package is run through ``doctest``. Examples that need a rule
profile (a hand, a match, a replay) find one as ``profile``: the engine builds none
itself, since reading a profile's TOML file is I/O (``rulebook.profiles.load``).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine
from rulebook import profiles

MODULES = ["engine", *sorted(f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs={"profile": profiles.load("jiangsu")}, report=False)
    assert result.failed == 0, f"{result.failed} of {name}'s docstring examples failed: see the captured output"


def test_the_main_modules_have_examples() -> None:
    """The package docstring and the main modules teach by example; a module losing all of
    its examples (or doctest finding none) is caught here rather than passing quietly."""
    finder = doctest.DocTestFinder()
    for name in ("engine", "engine.plays", "engine.legal", "engine.hand", "engine.match", "engine.record",
                 "engine.events"):
        examples = sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
        assert examples > 0, f"{name} has no docstring examples"
