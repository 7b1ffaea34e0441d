"""Where the committed models are read from and working files are written: the checkout's
folders when the code runs from a checkout, the wheel's and the user's when it is installed.

A checkout (``pip install -e .``, what ``make`` installs) keeps the committed models in
``models/`` and its working files — the demo's store, ultralytics's settings — in ``var/``,
both at its top. An installed copy (``pip install .``) has no top of its own, only
site-packages, which is no place to write: the wheel carries the models the reading commands
load in this package's ``models/`` (``setup.py`` puts them there), and working files go to
the user's data folder.
"""

from __future__ import annotations

import os
from pathlib import Path

#: the checkout's top, where the code runs from one (site-packages where it is installed)
TOP = Path(__file__).resolve().parents[2]
#: where the wheel puts the committed models (``setup.py``)
SHIPPED = Path(__file__).resolve().parent / "models"
#: the folder in the user's data folder that an installed copy writes in
APP = "guandan-scorer"


def in_checkout() -> bool:
    """Does the code run from a checkout (an editable install, or the tests)? Its top holds
    the project's ``pyproject.toml`` and ``models/``; site-packages holds neither."""
    return (TOP / "pyproject.toml").is_file() and (TOP / "models").is_dir()


def committed_models() -> Path:
    """The folder of the committed models: the checkout's ``models/`` (every file, the
    full-precision and PyTorch ones that training starts from too), else the wheel's copy
    (the ones the reading commands load)."""
    return TOP / "models" if in_checkout() else SHIPPED


def working_folder() -> Path:
    """Where working files go (not made here): the checkout's ``var/``, else the user's
    data folder (``$XDG_DATA_HOME/guandan-scorer``, by default
    ``~/.local/share/guandan-scorer``)."""
    if in_checkout():
        return TOP / "var"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / APP
