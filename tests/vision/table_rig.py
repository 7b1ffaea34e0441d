"""What the table runtime's tests (tests/vision/test_table_runtime*.py) share: the committed
detector they run, frames of a rendered table, the alerts as the console words them and a
runtime on the Linyi rules. Their ``detector`` fixture is in tests/vision/conftest.py."""

from rulebook import profiles
from table.record_link import KeptInList
from table.runtime import TableRuntime
from vision.live.camera import Frame
from vision.live.detector import committed_finder
from vision.synth.table_canvas import camera_homography, camera_view

MODEL = committed_finder()  # the live loop's backend


def frames_of(canvas, turn: float, start: float, n: int, first: int = 0):
    size = (1280, 720)
    image = camera_view(canvas, camera_homography(canvas.shape[0], size, tilt=0.1, turn_deg=turn), size)
    return [Frame(image, start + i / 30, first + i) for i in range(n)]


def said(alerts, lang="en") -> list[str]:
    """The alerts as the console words them."""
    return [a.text(lang) for a in alerts]


def runtime(detector, alerts, recorded=None):
    return TableRuntime(detector, profiles.load("linyi"), link=KeptInList(recorded) if recorded is not None else None,
                        alert=alerts.append)
