"""``guandan clock`` as a club would run it: a real process on a real pty."""

import os
import signal
import subprocess
import sys
import threading
import time
from queue import Empty, Queue

from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair


def start(*args, **env: str):
    return subprocess.Popen([sys.executable, "-m", "scorer.cli", "clock", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1", **env})


def read_until(proc, *texts: str, timeout: float = 10.0) -> list[str]:
    """Read lines until every one of ``texts`` has been printed, in any order.

    A thread does the reading: select() on the pipe cannot see lines already pulled into the
    text wrapper's buffer, so a burst of lines read in one chunk would wait for the next write."""
    lines = []
    waiting = set(texts)
    queue = _lines_of(proc)
    deadline = time.monotonic() + timeout
    while waiting and time.monotonic() < deadline:
        try:
            line = queue.get(timeout=0.1)
        except Empty:
            continue
        if line is None:
            break
        lines.append(line)
        waiting = {t for t in waiting if t not in line}
    if waiting:
        raise AssertionError(f"{waiting} not printed; got {lines}")
    return lines


def _lines_of(proc) -> Queue:
    """One queue of ``proc``'s output lines per process (None at end of output)."""
    if not hasattr(proc, "line_queue"):
        proc.line_queue = Queue()

        def pump() -> None:
            for line in proc.stdout:
                proc.line_queue.put(line.rstrip("\n"))
            proc.line_queue.put(None)

        threading.Thread(target=pump, daemon=True).start()
    return proc.line_queue


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


def test_chinese_by_default_with_the_emulated_box(tmp_path):
    proc = start("--port", "emulator", TMPDIR=str(tmp_path))
    try:
        read_until(proc, "东 · 首出 · 限时30秒", "计时器已连接")
        assert list(tmp_path.glob("guandan-pty-*/host"))  # the emulated box's serial pair
    finally:
        assert stop(proc) == 0
    assert not list(tmp_path.iterdir())  # the pair and its folder are gone with the clock


def test_bad_usb_ids_are_a_clear_error():
    proc = start("--usb", "zz:top")
    assert proc.wait(timeout=30) == 2
    err = proc.stderr.read()
    assert "VID:PID" in err and "Traceback" not in err


def test_a_terminated_clock_takes_its_emulated_box_and_serial_pair_with_it(tmp_path):
    """SIGTERM, as a service manager stops a program: the exit handlers still run, so the
    pair's socat and its folder do not outlive the clock."""
    proc = start("--port", "emulator", TMPDIR=str(tmp_path))
    try:
        read_until(proc, "计时器已连接")
        host = next(tmp_path.glob("guandan-pty-*/host"))
        proc.terminate()
        assert proc.wait(timeout=10) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not list(tmp_path.iterdir())
    assert subprocess.run(["pgrep", "-f", f"link={host}"], capture_output=True).returncode == 1  # no socat left


def test_the_emulated_box_takes_seat_presses_from_a_terminal_and_stops_on_ctrl_c(tmp_path):
    """At a club the emulated box is worked from the keyboard: keys press seat buttons, and
    Ctrl-C (caught as a stop request while the terminal is read) ends it cleanly."""
    import pty
    import termios

    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "clock", "--port", "emulator", "--lang", "en"],
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path)})
    try:
        read_until(proc, "East · first lead", "clock connected")
        assert proc.stderr.readline().startswith("keys: e s w n")  # the terminal is read from now on
        os.write(master, b"e")
        read_until(proc, "North · play")
        os.write(master, b"x")  # not a button: ignored
        os.write(master, b"n")
        read_until(proc, "West · play")
        assert stop(proc) == 0
        assert termios.tcgetattr(slave) == before  # the terminal is left as it was found
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    err = proc.stderr.read()
    assert "pressed E" in err and "pressed N" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_q_at_the_terminal_quits_the_emulated_clock(tmp_path):
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "clock", "--port", "emulator", "--lang", "en"],
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path)})
    try:
        assert proc.stderr.readline().startswith("keys: e s w n")
        os.write(master, b"q")
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert not list(tmp_path.iterdir())


def test_the_emulator_alone_stops_on_ctrl_c_without_a_traceback():
    """``python -m hardware.emulator PORT``: the box on one end of a pair, stopped as a
    developer stops it."""
    with PtyPair() as pair:
        proc = subprocess.Popen([sys.executable, "-m", "hardware.emulator", pair.device_end],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            import serial

            with serial.Serial(pair.host_end, 115200, timeout=5) as host:
                assert host.readline().startswith(b"$")  # the box is on the line (READY, then heartbeats)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=10) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
        assert "Traceback" not in proc.stderr.read()
