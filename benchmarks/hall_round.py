"""A hall's round as ``benchmarks/tournament_hall.py`` plays it: its options, the hall's
database with the round under way, and the tables that play its last events.

The database holds a Swiss of 2×N pairs with round 1 drawn and every table's bot match up
to its last few events (``prefill``): the round under way, as a hall server restarted
mid-round reads it. The tables (``table_nodes``) take their seatings as a camera table's
node does (``Seatings``), write their matches' last events on time (``endings``, ``play``)
and confirm a provisional result with their seat buttons. What they did and when goes into
``Figures``, on this process's monotonic clock.
"""

from __future__ import annotations

import heapq
import math
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.bots import self_play
from engine.tournament import Pair, Tournament
from hall import seating as seating_message
from hall.broker import parse_broker
from hall.node import Node
from hall.outbox import Outbox
from rulebook import profiles
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore

HALL = "bench"
PROFILE = "jiangsu"  # the bots' matches and the tournament's rules must be one profile
SEATS = {"NS": "S", "EW": "E"}  # who presses to confirm, a player of each side
PREFILL_BATCH = 64  # tables stored per transaction while the round under way is written
TICK_S = 0.005


@dataclass(frozen=True)
class Options:
    tables: int = 2048
    spread: float = 60.0  # seconds over which the matches end
    rate: float = 0.2  # events a second per table: a real table's
    confirm_after: float = 2.0  # seconds from a result shown provisional to the seat buttons pressed
    clients: int = 8
    matches: int = 8  # distinct bot matches dealt round the tables
    hands: int = 12  # hands before time is called: a bot match of about 1,250 events
    seed: int = 1
    settle_s: float = 300.0  # the longest wait for what follows the last result
    #: "apart": the pages from ``guandan serve`` on the same database, a process of their own;
    #: "together": from the hall server itself (``guandan hall serve --web``)
    pages: str = "apart"


@dataclass
class Figures:
    """What one run measured; seconds on this process's monotonic clock."""

    tables: int
    results: dict[str, float] = field(default_factory=dict)  # table → ending event written
    stored: dict[str, float] = field(default_factory=dict)  # table → ending event in the hall's store
    standings: dict[str, float] = field(default_factory=dict)  # table → first standings push counting it
    page: dict[str, float] = field(default_factory=dict)  # table → first page push holding its entry
    confirm_sent: dict[str, float] = field(default_factory=dict)
    told_final: dict[str, float] = field(default_factory=dict)
    page_final: dict[str, float] = field(default_factory=dict)
    draw_started: float | None = None
    drawn: float | None = None
    told_round2: dict[str, float] = field(default_factory=dict)
    setup_s: dict[str, float] = field(default_factory=dict)
    server_cpu_s: list[float] = field(default_factory=list)  # the hall server's, then the pages' if apart
    refusals: int = 0

    @property
    def complete(self) -> bool:
        """Every table's result counted in the standings and on the page, confirmed, and
        told its round-2 seating."""
        return all(len(d) == self.tables for d in (self.results, self.standings, self.page, self.told_final,
                                                   self.page_final, self.told_round2)) and not self.refusals


# --- the hall's database ---------------------------------------------------------------------

def make_tournament(db: Path, tables: int, seed: int) -> dict[int, tuple[str, str]]:
    """A Swiss of 2×``tables`` pairs on the hall's database, round 1 drawn; its tables'
    pairs by number."""
    Store(db).close()
    with TournamentStore.open(db, create=True) as s:
        pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 2 * tables + 1)]
        s.save_tournament(Tournament("厅赛", "swiss", 3, profiles.load(PROFILE), seed, pairs), PROFILE)
        _, drawn, _ = desk.draw_next(s, None, "bench")
    return {tb.table: (tb.ns, tb.ew) for tb in drawn if not tb.is_bye}


def records(names: list[str], options: Options) -> dict[str, list[dict]]:
    """Each table's bot match (``options.matches`` distinct ones dealt round the tables), its
    header naming the table: the desk refuses a record that names another."""
    rules = profiles.load(PROFILE)
    matches = [[e.to_json() for e in self_play(rules, random.Random(options.seed + k), max_hands=options.hands)]
               for k in range(options.matches)]
    return {name: [dict(matches[i % len(matches)][0], table=name), *matches[i % len(matches)][1:]]
            for i, name in enumerate(names)}


def prefill(db: Path, played: dict[str, list[dict]]) -> int:
    """The round under way: each table's match up to where the run takes it on, stored as
    the hall server would have stored it; returns the events written."""
    store = Store(db)
    written = 0
    names = list(played)
    try:
        for i in range(0, len(names), PREFILL_BATCH):
            chunk = names[i:i + PREFILL_BATCH]
            for name in chunk:
                store.add_table(name, played[name][0])
            store.append_many({name: played[name][1:] for name in chunk})
            written += sum(len(played[name]) for name in chunk)
    finally:
        store.close()
    return written


# --- the schedule ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Ending:
    """How a table's match ends in the run: its last ``tail`` events written live, the
    last (the ending event) ``end`` seconds after the start, one every 1/rate before it."""

    table: str
    tail: int
    end: float


def endings(played: dict[str, list[dict]], options: Options) -> list[Ending]:
    rng = random.Random(options.seed)
    out = []
    for name, record in played.items():
        end = rng.uniform(0.0, options.spread)
        out.append(Ending(name, min(len(record) - 1, 1 + math.floor(end * options.rate)), end))
    return out


# --- the tables ------------------------------------------------------------------------------

class Seatings:
    """What the tables were told, as their nodes take it (on the nodes' threads): when each
    first saw its result provisional, then final, then its round-2 seating; a provisional
    one is handed on to be confirmed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.round1: set[str] = set()
        self.told_final: dict[str, float] = {}
        self.told_round2: dict[str, float] = {}
        self.to_confirm: queue.SimpleQueue[tuple[str, seating_message.Seating, float]] = queue.SimpleQueue()
        self._asked: set[str] = set()

    def take(self, table: str, payload: bytes) -> None:
        now = time.monotonic()
        if not payload:
            return
        seat = seating_message.read(payload)
        with self._lock:
            if seat.round == 2:
                self.told_round2.setdefault(table, now)
                return
            self.round1.add(table)
            if seat.state == "provisional" and table not in self._asked:
                self._asked.add(table)
                self.to_confirm.put((table, seat, now))
            elif seat.state == "final":
                self.told_final.setdefault(table, now)

    def count(self, what: str) -> int:
        with self._lock:
            return len(getattr(self, what))


def table_nodes(broker: str, outbox: Outbox, names: list[str], clients: int, seatings: Seatings) -> list[Node]:
    """The tables on ``clients`` shared connections, each taking its tables' seatings."""
    size = -(-len(names) // max(1, min(clients, len(names))))
    return [Node(parse_broker(broker), outbox, names[i:i + size], hall=HALL, name=f"bench-n{k}",
                 seating=seatings.take) for k, i in enumerate(range(0, len(names), size), 1)]


def play(nodes: list[Node], played: dict[str, list[dict]], ends: list[Ending], options: Options,
         seatings: Seatings, figures: Figures, done: Callable[[], bool]) -> None:
    """Write each table's last events on time, and the seat buttons' confirmations
    ``confirm_after`` seconds after each table was told its result, until ``done``."""
    node_of = {t: node for node in nodes for t in node.tables}
    start = time.monotonic() + 0.5
    due: list[tuple[float, int, str, int]] = []  # (when, order, table, seq or -1 for a confirmation)
    confirms: dict[str, seating_message.Seating] = {}
    for e in ends:
        record = played[e.table]
        for k in range(e.tail):
            seq = len(record) - e.tail + k
            due.append((start + e.end - (e.tail - 1 - k) / options.rate, len(due), e.table, seq))
    heapq.heapify(due)
    order = len(due)
    while not done():
        while True:
            try:
                table, seat, seen = seatings.to_confirm.get_nowait()
            except queue.Empty:
                break
            confirms[table] = seat
            heapq.heappush(due, (seen + options.confirm_after, order, table, -1))
            order += 1
        now = time.monotonic()
        batches: dict[Node, list[tuple[str, dict]]] = {}
        while due and due[0][0] <= now:
            _, _, table, seq = heapq.heappop(due)
            if seq < 0:
                node_of[table].confirm(table, confirms[table].confirmation(SEATS))
                figures.confirm_sent[table] = time.monotonic()
                continue
            batches.setdefault(node_of[table], []).append((table, played[table][seq]))
        for node, events in batches.items():
            node.publish_many(events)
            written = time.monotonic()
            for table, event in events:
                if event["seq"] == len(played[table]) - 1:  # its match's ending event
                    figures.results[table] = written
        time.sleep(TICK_S)
