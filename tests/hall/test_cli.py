"""``guandan hall`` as users run it: real processes, a real broker, a real store."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import urllib.request

from tests.hall.broker import free_port, needs_mosquitto
from tests.hall.conftest import HALL, wait_for


def guandan(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_a_bad_broker_address_is_one_line_and_exit_2(tmp_path):
    for command in (["serve", "--db", str(tmp_path / "x.db")], ["simulate"]):
        out = guandan("hall", *command, "--broker", "localhost:1883")
        assert out.returncode == 2
        assert out.stderr.count("\n") == 1 and "expected mqtt://HOST:PORT" in out.stderr


def test_an_unreachable_broker_is_one_line_and_exit_2(tmp_path):
    url = f"mqtt://127.0.0.1:{free_port()}"
    for command in (["serve", "--db", str(tmp_path / "x.db")], ["simulate", "--seconds", "1"]):
        out = guandan("hall", *command, "--broker", url, "--lang", "en")
        assert out.returncode == 2
        assert out.stderr == f"guandan: cannot reach the MQTT broker at {url} (Connection refused); is mosquitto " \
                             f"running? / 无法连接 MQTT 服务器 {url}（Connection refused）：mosquitto 是否在运行？\n"
    out = guandan("hall", "node", "nowhere.jsonl", "--broker", url)  # Chinese first by default
    assert out.returncode == 2 and out.stderr == "guandan: nowhere.jsonl：没有这个文件 / nowhere.jsonl: no such file\n"


@needs_mosquitto
def test_a_simulated_hall_is_served_and_stored(tmp_path, broker):
    db, web = tmp_path / "hall.db", free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL, "--web", str(web)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: _listening(web), 20, "the hall server's pages")
        sim = guandan("hall", "simulate", "--broker", broker.url, "--hall", HALL, "--tables", "3", "--seconds", "2",
                      "--rate", "10", "--prefix", "s", "--matches", "2")
        assert sim.returncode == 0, sim.stderr
        assert "every event acknowledged by the broker" in sim.stdout
        published = int(re.search(r"^(\d+) events from 3 table\(s\)", sim.stdout, re.M).group(1))
        assert published > 30

        def count() -> int:
            with sqlite3.connect(db) as con:
                return con.execute("SELECT COUNT(*) FROM events").fetchone()[0]

        wait_for(lambda: count() == published, 20, "every simulated event stored")
        tables = json.load(urllib.request.urlopen(f"http://127.0.0.1:{web}/api/tables", timeout=10))
        assert sorted(t["table"] for t in tables) == ["s-0001", "s-0002", "s-0003"]
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert f"# stopped: {published} stored, 0 duplicate(s), 0 malformed" in out


def _listening(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2)
        return True
    except OSError:
        return False
