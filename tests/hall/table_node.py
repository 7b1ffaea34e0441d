"""A tournament table's node as ``guandan run --clock PORT --hall BROKER`` puts it together,
the camera aside: the table's own store, the node relaying its record to the hall and taking
its seating (``scorer.table_cli._hall_relay``, the command's own wiring), the clock box
emulated on a real pseudo-terminal pair with the seating as its standby, and, with
``pages``, the table's pages served from its store by ``guandan serve`` in a process of its
own. A match is "played" by writing its events as the camera would."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from argparse import Namespace
from pathlib import Path

from engine.events import event_from_json
from engine.match import Match
from hardware.driver import ClockDriver
from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair
from hardware.runner import ClockRunner
from rulebook import profiles
from scorer.table_cli import _hall_relay
from store.event_store import Store
from table.clock_turns import MatchRecorder, MatchTurns
from tests.hall.conftest import HALL, wait_for
from tests.hall.test_cli import _listening
from tests.ports import free_port


class TableNode:
    def __init__(self, folder: Path, broker: str, table: str, header: dict, pages: bool = False) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.table = table
        self.store = Store(folder / "table.db")
        self.store.add_table(table, header)
        self.match = Match(profiles.load(header["profile"]), event_from_json(header))
        self.relay, self.seating = _hall_relay(Namespace(hall=broker, hall_name=HALL, outbox=str(folder / "outbox.db"),
                                                         lang="en"), self.store, table)
        self.pair = PtyPair()
        self.pair.plug()
        self.box = DeviceEmulator(self.pair.device_end).start()
        self.driver = ClockDriver(self.pair.host_end).start()
        self.clock = ClockRunner(self.driver, self.match.profile, MatchTurns(self.match, lambda seat: None),
                                 recorder=MatchRecorder(self.match, self._keep))
        self.clock.standby = self.seating
        self.clock.start()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.web = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", self.store.path, "--port",
                                     str(self.port), "--threads", "8"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) if pages else None

    def wait_pages(self) -> None:
        wait_for(lambda: _listening(self.port), 30, f"table {self.table}'s pages")

    def _keep(self, event) -> None:
        """What the clock records (a press) goes to the table's store, as at a camera table."""
        self.store.append(self.table, [event.to_json()])

    def play(self, events: list[dict]) -> None:
        """The match's events after its header, as the camera runtime records them."""
        for body in events:
            self.match.push(event_from_json(body))
        self.store.append(self.table, events)

    def snapshot(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/tables/{self.table}", timeout=10) as answer:
            return json.loads(answer.read())

    def close(self) -> None:
        self.clock.stop()
        self.driver.stop()
        self.box.stop()
        self.pair.close()
        self.relay.close(wait=1.0)
        if self.web is not None:
            self.web.terminate()
            self.web.wait(timeout=10)
        self.store.close()
