"""Operator alerts: every one the runtime can raise is worded in Chinese and English alike."""

import re
import string
from pathlib import Path

import numpy as np
import pytest

from rulebook.alerts import Alert
from rulebook.i18n import ALERTS, alert_text
from table.pace import CODES as PACE_CODES
from vision.live.calibration import Calibration, CalibrationError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = {"seat": "E", "seconds": 5.0, "found": 1, "missing": "2, 3, 4", "px": 5.3, "least": 6.0, "good": 8.0,
          "read": "SA SA", "taken": "SK", "dropped": "S3", "confidence": 0.31, "act": "tribute", "n": 2,
          "cards": "HR H2", "was": "CQ CQ", "now": "SQ SQ", "target": 12, "on": "SK", "seq": 40,
          "why": "a deal while the previous hand is still being played", "card": "HR", "fps": 4.2,
          "camera_fps": 30.0}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("code", sorted(ALERTS))
def test_each_alert_has_the_same_blanks_in_both_languages_and_chinese_words(code):
    zh, en = ALERTS[code]
    assert fields(zh) == fields(en)
    assert re.search(r"[\u4e00-\u9fff]", zh) and not re.search(r"[\u4e00-\u9fff]", en)
    values = {k: SAMPLE[k] for k in fields(en)}
    assert alert_text(code, "zh", **values) != alert_text(code, "en", **values)


def test_every_code_the_runtime_the_camera_and_calibration_use_is_worded():
    used = set()
    for path in ("table/runtime.py", "table/mending.py", "table/handovers.py", "vision/live/seat_reading.py",
                 "vision/live/camera.py", "vision/live/calibration.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        used |= set(re.findall(r'Alert\.of\("(\w+)"', source))
        used |= set(re.findall(r'_status\((?:True|False), "(\w+)"\)', source))
        used |= set(re.findall(r'CalibrationError\(\s*"(\w+)"', source))
    used |= set(PACE_CODES)  # the runtime raises what its pace watch reports
    assert len(used) >= 15 and used <= set(ALERTS), used - set(ALERTS)


def test_seats_and_acts_are_worded_as_players_say_them():
    covered = Alert.of("zone_covered", seat="E")
    assert covered.text("zh").startswith("东家：") and covered.text("en").startswith("seat E:")
    assert covered.text() == covered.text("zh")  # Chinese by default
    two = Alert.of("one_card_expected", act="return", seat="N", n=2, cards="H5 C7")
    assert two.text("zh") == "还贡：北家亮出2张牌（H5 C7），应为一张；请裁判录入还贡"
    assert two.text("en").startswith("return: seat N showed 2 cards (H5 C7)")
    assert len({covered, Alert.of("zone_covered", seat="E"), two}) == 2  # alerts compare and hash by value
    # where the zone is stuck, and over which recorded cards; a note recorded without them still reads
    stuck = Alert.of("zone_covered", seat="E", seconds=3.0, cards="S5 H9")
    assert stuck.text("zh").endswith("。此区停在“被遮住”3秒，压着已记录的S5 H9")
    assert stuck.text("en").endswith(". The zone has been held as covered for 3 s, over the recorded S5 H9")
    assert "被遮住" not in covered.text("zh") and "held as covered" not in covered.text("en")
    unread = Alert.of("unread_card", seat="S", card="HR", confidence=0.064)
    assert "按它的标记和未出的牌推断为大王（置信度0.06）" in unread.text("zh")
    assert "make it big joker (confidence 0.06)" in unread.text("en")
    assert "推断为S7" in Alert.of("unread_card", seat="S", card="S7", confidence=0.1).text("zh")


def test_a_calibration_failure_carries_its_code_for_the_console():
    with pytest.raises(CalibrationError) as caught:
        Calibration.from_image(np.zeros((480, 640, 3), np.uint8))
    error = caught.value
    assert "found 0 of the 4 table markers" in str(error)  # the exception reads on its own too
    worded = Alert.of(error.code, **error.values)
    assert worded.text("zh").startswith("摄像头：只找到0个桌面标记（共4个，缺0, 1, 2, 3号）")
