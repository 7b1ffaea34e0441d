"""``guandan run`` as a process: a recording stands in for the camera; plays reach the store
and its dashboard, the console speaks the operator's language, and a restart goes on from
the stored record."""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.hall.broker import needs_mosquitto
from tests.ports import free_port
from vision.synth.render_game import render

# make check leaves these out: each runs the camera pipeline on a recording
pytestmark = pytest.mark.video


class Table:
    """A ``guandan run`` process whose console lines (both streams) can be waited for."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "run", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, encoding="utf-8",
                                     env=None if env is None else {**os.environ, **env})
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 180.0) -> str:
        """The first line with ``text``, said already or within ``timeout`` s (the camera's
        thread and the main one print in either order)."""
        for line in self.seen:
            if text in line:
                return line
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r}; the console said:\n" + "\n".join(self.seen))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def test_run_reads_a_recording_into_the_store_and_a_restart_goes_on_from_it(tmp_path):
    render(11, tmp_path, size=(1280, 720), max_events=3)
    db, port = tmp_path / "hall.db", free_port()
    common = ["--camera", str(tmp_path / "game.mp4"), "--db", str(db), "--table", "t1", "--port", str(port)]
    table = Table(*common, "--lang", "en")
    try:
        assert table.wait_for("# live table t1:") == f"# live table t1: http://127.0.0.1:{port}/table/t1"
        table.wait_for("the recording has ended")
        url = f"http://127.0.0.1:{port}/api/tables/t1/events"
        events = json.loads(urllib.request.urlopen(url, timeout=10).read())
    finally:
        table.stop()
    assert events[0]["type"] == "header" and events[0]["table"] == "t1"
    assert any(e["type"] == "play" for e in events)  # the camera read plays, committed when still
    table.wait_for("# camera up")
    table = Table(*common)  # Chinese by default
    try:
        table.wait_for(f"# 第t1桌：接着已存的{len(events)}条记录继续")
        table.wait_for("# 摄像头已连接")
        table.wait_for(f"# 第t1桌实时记分：http://127.0.0.1:{port}/table/t1")
    finally:
        table.stop()


@needs_mosquitto
def test_run_sends_the_tables_record_to_a_hall(tmp_path):
    """``guandan run --hall``: a camera table as a hall's node. The hall's store ends up with
    the table's record, seq for seq, with a referee act made at the hall server's console,
    which went down to the table and came back; a mistyped broker stops the command in one
    line."""
    from hall.broker import parse_broker
    from hall.ingest import Ingest
    from store.event_store import Store
    from tests.hall.broker import Mosquitto
    from tests.hall.conftest import wait_for

    render(11, tmp_path, size=(1280, 720), max_events=3)
    db, port = tmp_path / "table.db", free_port()
    broker = Mosquitto(tmp_path / "broker").start()
    hall = Store(tmp_path / "hall.db")
    ingest = Ingest(hall, parse_broker(broker.url), "h1").start()
    table = Table("--camera", str(tmp_path / "game.mp4"), "--db", str(db), "--table", "t1", "--port", str(port),
                  "--hall", broker.url, "--hall-name", "h1", "--outbox", str(tmp_path / "outbox.db"), "--lang", "en")
    try:
        table.wait_for(f"# table t1's record goes to the hall at {parse_broker(broker.url)} (hall h1)")
        table.wait_for("the recording has ended")
        local = Store(db)
        wait_for(lambda: [s.body for s in hall.events("t1")] == [s.body for s in local.events("t1")]
                 and any(s.body["type"] == "play" for s in hall.events("t1")), 30, "the record at the hall")
        wait_for(lambda: ingest.route("t1") == "send", 10, "the node to say it takes acts")
        act = ingest.send_act("t1", "penalty", {"seat": "S", "penalty": "warning", "why": "slow play"}, "li")
        wait_for(lambda: [s.body for s in hall.events("t1")] == [s.body for s in local.events("t1")]
                 and hall.events("t1")[-1].body["type"] == "penalty", 30, "the act back at the hall")
        penalty = hall.events("t1")[-1]
        assert penalty.body | {"t": 0} == {"seq": penalty.seq, "t": 0, "type": "penalty", "seat": "S",
                                           "penalty": "warning", "alert": None, "by": "li", "why": "slow play"}
        wait_for(lambda: ingest.sent.get(act).state == "recorded", 10, "the node's reply")
        assert ingest.sent.get(act).seq == penalty.seq
    finally:
        table.stop()
        ingest.stop()
        broker.kill()
    bad = subprocess.run([sys.executable, "-m", "scorer.cli", "run", "--camera", str(tmp_path / "game.mp4"),
                          "--db", str(db), "--hall", "mqtt://127.0.0.1:1"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "cannot reach the MQTT broker" in bad.stderr and "Traceback" not in bad.stderr


def test_ctrl_c_stops_a_table_mid_recording_with_its_emulated_clock_and_serial_pair(tmp_path):
    """Ctrl-C is caught as a stop request (``scorer.stop_signals``): the table stops between
    frames, the clock's box and serial pair go with it, and the exit is a clean one."""
    render(11, tmp_path, size=(1280, 720), max_events=3)
    temp = tmp_path / "tmp"
    temp.mkdir()
    db = tmp_path / "t.db"
    table = Table("--camera", str(tmp_path / "game.mp4"), "--db", str(db), "--table", "t1", "--port",
                  str(free_port()), "--clock", "emulator", "--lang", "en", env={"TMPDIR": str(temp)})
    try:
        table.wait_for("# live table t1:")
        assert list(temp.glob("guandan-pty-*/host"))  # the emulated clock box's serial pair
        table.proc.send_signal(signal.SIGINT)
        assert table.proc.wait(timeout=20) == 0
    finally:
        if table.proc.poll() is None:
            table.proc.kill()
    said = list(table.seen)
    while True:  # the rest of what it printed, up to its last line
        try:
            said.append(table.lines.get(timeout=2))
        except queue.Empty:
            break
    assert said and not any("Traceback" in line for line in said)
    assert not list(temp.iterdir())


def test_a_recording_that_is_not_there_is_one_line_not_a_camera_waited_for(tmp_path):
    """A mistyped video file name ends the command at once, in the operator's language; a
    camera that is not up yet (a device, a stream) is waited for, as before."""
    video = tmp_path / "gmae.mp4"
    zh, en = f"{video}：没有这个录像文件", f"{video}: no such video file"
    for lang, said in (("zh", f"{zh} / {en}"), ("en", f"{en} / {zh}")):
        done = subprocess.run([sys.executable, "-m", "scorer.cli", "run", "--camera", str(video),
                               "--db", str(tmp_path / "t.db"), "--lang", lang], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip() == f"guandan: {said}"
    assert not (tmp_path / "t.db").exists()  # refused before the store was made
