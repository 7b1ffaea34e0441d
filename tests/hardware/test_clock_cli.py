"""``guandan clock`` as a club would run it: a real process on a real pty."""

import os
import selectors
import signal
import subprocess
import sys
import time

from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair


def start(*args):
    return subprocess.Popen([sys.executable, "-m", "scorer.cli", "clock", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def read_until(proc, *texts: str, timeout: float = 10.0) -> list[str]:
    """Read lines until every one of ``texts`` has been printed, in any order."""
    lines = []
    waiting = set(texts)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sel.select(timeout=0.1):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            waiting = {t for t in waiting if t not in line}
            if not waiting:
                return lines
    raise AssertionError(f"{waiting} not printed; got {lines}")


def stop(proc) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(timeout=10)


def test_turns_overruns_and_out_of_turn_presses_are_printed(tmp_path):
    profile = tmp_path / "fast.toml"
    profile.write_text('extends = "linyi_notice"\n[time]\nplay = 1\n', encoding="utf-8")
    with PtyPair() as pair:
        proc = start("--port", pair.host_end, "--profile", str(profile), "--lang", "en")
        try:
            with DeviceEmulator(pair.device_end) as box:
                read_until(proc, "East · first lead · 20 s")
                box.press("E")
                read_until(proc, "North · play · 1 s")
                box.press("W")
                read_until(proc, "West pressed out of turn", "over time: play limit 1 s")
        finally:
            assert stop(proc) == 0


def test_chinese_by_default_with_the_emulated_box():
    proc = start("--port", "emulator")
    try:
        read_until(proc, "东 · 首出 · 限时30秒", "计时器已连接")
    finally:
        assert stop(proc) == 0


def test_bad_usb_ids_are_a_clear_error():
    proc = start("--usb", "zz:top")
    assert proc.wait(timeout=30) == 2
    err = proc.stderr.read()
    assert "VID:PID" in err and "Traceback" not in err
