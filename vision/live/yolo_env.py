"""Ultralytics, made to work offline (DESIGN §9).

Call ``prepare()`` before importing ultralytics: it turns off every download and
auto-install, points the settings at the project's working folder (``vision.live.places``:
``var/`` in a checkout), and gives the font check the fonts it would otherwise fetch (it
runs on every train and val, even offline). OpenVINO's usage telemetry is switched off too:
a user's machine has no ``CI`` variable to do it.

ultralytics is imported inside the functions that use it: heavy to load, and needed only
when a model is trained, quantized or run through it, not for ``guandan --help`` or at a
table, whose base install has none of it (the ``train`` extra, ``vision.cli.extras``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from vision.live.places import working_folder

CONFIG_DIR = working_folder() / "ultralytics"
_FONTS = ("Arial.ttf", "Arial.Unicode.ttf")


def _a_font() -> Path | None:
    for candidate in (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),):
        if candidate.exists():
            return candidate
    try:
        import matplotlib

        bundled = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        return bundled if bundled.exists() else None
    except ImportError:
        return None


def prepare() -> None:
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ.setdefault("YOLO_CONFIG_DIR", str(CONFIG_DIR))
    os.environ.setdefault("YOLO_VERBOSE", "false")
    fonts = Path(os.environ["YOLO_CONFIG_DIR"]) / "Ultralytics"
    fonts.mkdir(parents=True, exist_ok=True)
    source = _a_font()
    for name in _FONTS:
        target = fonts / name
        if not target.exists() and source is not None:
            shutil.copyfile(source, target)
    _openvino_opt_out()


def _openvino_opt_out() -> None:
    """Decline OpenVINO's usage telemetry, as its ``opt_in_out --opt_out`` would: a consent
    file saying 0. A user who has already decided keeps their decision."""
    try:
        from openvino_telemetry.utils.opt_in_checker import OptInChecker
    except ImportError:
        return
    checker = OptInChecker()
    try:
        path = Path(checker.consent_file())
    except TypeError:  # no home folder to keep the decision in
        return
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("0", encoding="ascii")
        except OSError:
            pass
