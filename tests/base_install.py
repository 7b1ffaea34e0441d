"""A process that sees only what ``pip install .`` installs: the project's base dependencies
(``pyproject.toml``) and what they need in turn, nothing from its extras.

The test machine has every extra installed (the tests train models), so a base install is
imitated rather than made: ``blocked_env`` puts a ``sitecustomize.py`` first on the child's
``PYTHONPATH`` that makes importing any other installed package fail as if it were absent
(``ModuleNotFoundError``). What the base commands still import from torch, ultralytics or
another extra's package then fails in the test as it would on a table node. With
``installed``, a copy installed from the wheel (``pip install --target``) is imported
instead of the checkout, which the child then cannot see at all: nothing found beside the
code in a checkout is found by accident.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[1]
#: installed beside any package by the virtual environment itself
TOOLS = ("pip", "setuptools", "wheel")

SITECUSTOMIZE = '''\
"""Packages a base install lacks are not found here, as there (tests/base_install.py)."""
import sys
from importlib.machinery import PathFinder

BLOCKED = frozenset({blocked!r})


class _WithoutExtras:
    """The path finder, blind to the blocked packages: importing one raises
    ``ModuleNotFoundError`` and ``importlib.util.find_spec`` says None, as where it is absent."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            return None
        return PathFinder.find_spec(name, path, target)

    @staticmethod
    def invalidate_caches():
        PathFinder.invalidate_caches()


sys.meta_path[:] = [_WithoutExtras if finder is PathFinder else finder for finder in sys.meta_path]
if {hide_checkout!r}:  # the editable install's finders, which find the checkout's packages
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
    sys.path_hooks[:] = [h for h in sys.path_hooks if not getattr(h, "__module__", "").startswith("__editable__")]
'''


def base_distributions() -> set[str]:
    """The distributions ``pip install .`` installs: the base dependencies and theirs, each
    with the extras asked of it (``psycopg[binary]``), by their canonical names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {canonicalize_name(project["name"])} | {canonicalize_name(tool) for tool in TOOLS}
    todo = [Requirement(line) for line in project["dependencies"]]
    while todo:
        wanted = todo.pop()
        name = canonicalize_name(wanted.name)
        if name in found:
            continue
        found.add(name)
        try:
            requires = metadata.distribution(wanted.name).requires or []
        except metadata.PackageNotFoundError:
            continue
        extras = {"", *wanted.extras}
        for line in requires:
            need = Requirement(line)
            if need.marker is None or any(need.marker.evaluate({"extra": extra}) for extra in extras):
                todo.append(need)
    return found


def blocked_modules() -> set[str]:
    """The top-level modules installed here that come only from distributions a base install
    does not have (torch, ultralytics, nncf, pytest …)."""
    base = base_distributions()
    return {module for module, dists in metadata.packages_distributions().items()
            if not any(canonicalize_name(dist) in base for dist in dists)}


def blocked_env(folder: Path, installed: Path | None = None) -> dict[str, str]:
    """The environment of a child process that imports as on a base install, its
    ``sitecustomize.py`` written into ``folder``: the project from the checkout, or from
    ``installed``, a folder it was installed into, with the checkout hidden."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(
        SITECUSTOMIZE.format(blocked=sorted(blocked_modules()), hide_checkout=installed is not None),
        encoding="utf-8")
    paths = [str(folder), str(installed or ROOT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
