"""``guandan highlights RECORD``: a video's chapter list from the demo match's record."""

from __future__ import annotations

import re
import subprocess
import sys

from scorer.cli import DEMO_RECORD

CHAPTER = re.compile(r"(?:\d+:)?\d\d:\d\d \S.*")


def guandan(*args):
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True, timeout=120)


def seconds(stamp: str) -> int:
    parts = [int(p) for p in stamp.split(":")]
    return parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) == 3 else 0)


def test_the_demo_matchs_chapters_in_chinese_to_a_file(tmp_path):
    out = tmp_path / "chapters.txt"
    done = guandan("highlights", str(DEMO_RECORD), "--out", str(out))
    assert done.returncode == 0, done.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "00:00 第1把 · 打2"
    assert all(CHAPTER.fullmatch(line) for line in lines), lines
    times = [seconds(line.split(" ", 1)[0]) for line in lines]
    assert times == sorted(times) and all(b - a >= 10 for a, b in zip(times, times[1:], strict=False))
    for moment in ("01:12 南家4张炸弹", "11:15 南家同花顺", "10:14 第2把 · 打3，东西方抗贡", "08:50 东家接风"):
        assert moment in lines
    assert any("南北方双下" in line for line in lines)
    assert lines[-1] == "1:00:12 比赛时间到，结果：胜方：东西方（时间到，级数领先）"
    assert f"{len(lines)} chapters" in done.stderr


def test_the_chapters_in_english_on_standard_output_from_a_later_start():
    done = guandan("highlights", str(DEMO_RECORD), "--lang", "en", "--start", "60")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "00:00 Hand 1 · playing 2"  # the video opens in hand 1
    assert lines[1] == "00:12 South: 4-card bomb"  # 01:12 into the record
    assert "North-South: double down (双下); Hand 3 · playing 5; East-West: tribute resisted (抗贡)" in done.stdout
    assert not re.search(r"[\u4e00-\u9fff]{3}", done.stdout.replace("双下", "").replace("抗贡", "").replace(
        "接风", "").replace("上游", ""))


def test_a_record_that_is_not_there():
    done = guandan("highlights", "no-such.jsonl", "--lang", "en")
    assert done.returncode == 2 and "no-such.jsonl: no such file" in done.stderr


def test_a_video_that_started_before_the_record():
    done = guandan("highlights", str(DEMO_RECORD), "--start", "-30")
    assert done.stdout.splitlines()[:2] == ["00:00 开场", "00:33 第1把 · 打2"]
