"""A tournament round on the hall, at a hall's size: the results coming in, the standings
following them, and the next round drawn and sent to every table.

Two of issue 44's targets, measured on the real programs rather than on their parts:
    - the last result → the standings updated: p99 ≤ 1 s;
    - the next round drawn and sent to every table: ≤ 2 s.

What runs (on loopback, started and stopped here): Mosquitto configured as for a hall
(``tests.hall.broker``, as ``benchmarks/hall.py`` has it); ``guandan hall serve`` (its own
process: the intake, the result feed, the seatings) and the pages — ``guandan serve`` on the
same database, a process of their own (``--pages apart``), or the hall server's own
(``--pages together``: ``hall serve --web``, one process and so one interpreter lock for the
intake and the pages) — on a hall database that holds a Swiss of 2×N pairs with round 1
drawn (N tables), and every table's bot match up to its last few events stored already — the
round under way, read by the hall server as one restarted mid-round reads it (publishing
~2.6 million events through the broker first would take minutes and measure nothing these
targets are about); N table nodes on a few shared connections (``--clients``) that take
their seatings as a camera table's node does; two followers of the tournament's live stream
as the browsers have them — the page's (``?push=page``, ``/tournament/1``) and the overlay's
(``?push=standings``, what ``/api/tournaments/1/standings`` gives).

Then each table plays the rest of its match at a real table's pace (``--rate``), its match
ending at a moment drawn over ``--spread`` seconds (0: time called in the whole hall at
once). When its seating comes back provisional (待确认), its players confirm with their seat
buttons ``--confirm-after`` seconds later. Measured on this process's clock:
    - result → standings: from the node writing its match's ending event to the first
      standings push counting it (both its pairs have played), and to the first page push
      whose version holds its entry (the version it is sent as: the page may show more);
    - confirmation → final: from the node sending it to the table told final, and to the
      first page push holding it;
    - the draw: once every result is final, round 2 drawn through the tournament desk (what
      ``guandan tournament draw`` runs), then every node's first seating of round 2.
Run: ``.venv/bin/python benchmarks/tournament_hall.py [--tables 2048] [--spread 60] [--pages together]``.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.hall_round import (  # noqa: E402
    HALL,
    Figures,
    Options,
    Seatings,
    endings,
    make_tournament,
    play,
    prefill,
    records,
    table_nodes,
)
from benchmarks.machine import describe  # noqa: E402
from benchmarks.stream_follower import Follower, counted_in_standings, first_seen  # noqa: E402
from hall.outbox import Outbox  # noqa: E402
from store import tournament_desk as desk  # noqa: E402
from store.tournament_store import TournamentStore  # noqa: E402
from tests.hall.broker import Mosquitto, wait_port  # noqa: E402
from tests.ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
IDLE_CPU = 0.15  # the hall server has caught up with the round once it uses less CPU than this


# --- the processes ---------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


def wait_idle(pid: int, timeout: float, window: float = 3.0) -> None:
    """Until the process uses less than ``IDLE_CPU`` of a core over ``window`` seconds: the
    hall server has read the round under way (its result feed and its pages follow every
    table's match from the start)."""
    deadline = time.monotonic() + timeout
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(window)
        now = cpu_seconds(pid)
        if (now - before) / window < IDLE_CPU:
            return
        before = now
    raise TimeoutError("the hall server did not settle")


def say(line: str) -> None:
    print(line, flush=True)


def run(options: Options, work: Path, log: Callable[[str], None] = say) -> Figures:
    """One round as the module docstring says; ``work`` holds the broker's, the server's and
    the nodes' files."""
    figures = Figures(options.tables)
    db, port = work / "hall.db", free_port()
    clock = time.monotonic()
    tables = make_tournament(db, options.tables, options.seed)
    names = [str(n) for n in sorted(tables)]
    played = records(names, options)
    ends = endings(played, options)
    tails = {e.table: e.tail for e in ends}
    written = prefill(db, {name: played[name][:len(played[name]) - tails[name]] for name in names})
    figures.setup_s["tournament and the round under way stored"] = time.monotonic() - clock
    log(f"# {options.tables} tables, {2 * options.tables} pairs; {written} events of the round under way "
        f"stored; {sum(tails.values())} to play at {options.rate:g}/s a table, the matches ending over "
        f"{options.spread:g} s")

    broker = Mosquitto(work / "broker").start()
    server_log = (work / "hall-serve.log").open("w")
    together = ["--web", str(port)] if options.pages == "together" else []
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL, *together], cwd=ROOT,
                              stdout=server_log, stderr=subprocess.STDOUT)
    processes = [server]
    if not together:
        processes.append(subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", str(db), "--port",
                                           str(port)], cwd=ROOT, stdout=server_log, stderr=subprocess.STDOUT))
    seatings = Seatings()
    outbox = Outbox(work / "outbox.db")
    nodes = table_nodes(broker.url, outbox, names, options.clients, seatings)
    followers: list[Follower] = []
    try:
        clock = time.monotonic()
        wait_port(port, 60)
        for process in processes:
            wait_idle(process.pid, options.settle_s * 4)
        figures.setup_s["hall server read the round under way"] = time.monotonic() - clock
        for node in nodes:
            node.start()
        wait_until(lambda: seatings.count("round1") == options.tables, 60, "every table's seating")
        # a browser loads the page before it follows the stream (the server opens the
        # tournament on its first request; a stream asked before is Flask's, polling)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/tournament/1", timeout=120).read()
        followers = [Follower(port, "push=standings", keep=True), Follower(port, "push=page&lang=zh", keep=False)]
        for f in followers:
            f.start()
        wait_until(lambda: all(f.pushes("standings" if f.keep else "page") for f in followers), 60,
                   "the streams' first pushes")
        log(f"# set up in {sum(figures.setup_s.values()):.0f} s; the round's last events start")

        cpu = [cpu_seconds(process.pid) for process in processes]
        standings, page = followers
        given_up = threading.Event()

        def settled() -> bool:
            if given_up.is_set():
                return True
            if len(figures.results) < options.tables or seatings.count("told_final") < options.tables:
                return False
            last = standings.pushes("standings")[-1][2]
            return last is not None and len(counted_in_standings(last, tables)) == options.tables

        player = threading.Thread(target=play, args=(nodes, played, ends, options, seatings, figures, settled),
                                  name="tables", daemon=True)
        player.start()
        player.join(options.spread + options.settle_s)
        if player.is_alive():
            given_up.set()
            player.join()
            log(f"# not every result reached the standings and was confirmed within "
                f"{options.spread + options.settle_s:g} s of the start; no round 2")
        else:
            figures.draw_started = time.monotonic()
            with TournamentStore.open(db) as s:
                desk.draw_next(s, None, "bench")
            figures.drawn = time.monotonic()
            with contextlib.suppress(TimeoutError):
                wait_until(lambda: seatings.count("told_round2") == options.tables, 60, "round 2 at every table")
        figures.told_final = dict(seatings.told_final)
        figures.told_round2 = dict(seatings.told_round2)
        figures.server_cpu_s = [cpu_seconds(process.pid) - was for process, was in zip(processes, cpu, strict=True)]
        time.sleep(1.0)  # the page's last push
    finally:
        for f in followers:
            f.close()
        for node in nodes:
            node.stop(timeout=0.5)
        for process in processes:
            process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
        server_log.close()
        broker.stop()
        outbox.close()

    figures.refusals = sum("is not entered" in line for line in (work / "hall-serve.log").read_text().splitlines())
    figures.standings = first_seen([(at, counted_in_standings(data, tables))
                                    for at, _, data in standings.pushes("standings") if data])
    wall = time.time() - time.monotonic()  # the store's times are wall-clock, on this machine
    with sqlite3.connect(db) as con:
        figures.stored = {t: received - wall for t, received in con.execute(
            "SELECT e.table_id, e.received FROM events e JOIN (SELECT table_id, MAX(seq) AS seq FROM events "
            "GROUP BY table_id) m ON m.table_id = e.table_id AND m.seq = e.seq")}
        entered = [str(t) for (t,) in con.execute("SELECT tbl FROM results WHERE round = 1 ORDER BY id")]
        confirmed = [str(t) for (t,) in con.execute(
            "SELECT r.tbl FROM confirmations c JOIN results r ON r.id = c.entry WHERE r.round = 1 ORDER BY c.rowid")]
    versions = [(at, [int(x) for x in ident.split(".")]) for at, ident, _ in page.pushes("page") if ident]
    figures.page = first_seen([(at, set(entered[:v[1]])) for at, v in versions])
    figures.page_final = first_seen([(at, set(confirmed[:v[2]])) for at, v in versions])
    return figures


# --- the figures -----------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def spans(start: dict[str, float], end: dict[str, float]) -> list[float]:
    return sorted(end[t] - start[t] for t in start if t in end)


def line(what: str, start: dict[str, float], end: dict[str, float], of: int, target: str = "") -> str:
    got = spans(start, end)
    if not got:
        return f"{what}: none of {of}"
    last = max(start, key=start.get)
    last_s = f"{(end[last] - start[last]) * 1e3:.0f} ms" if last in end else "never"
    return (f"{what}: {len(got)} of {of}; median {percentile(got, .5) * 1e3:.0f} ms, p99 "
            f"{percentile(got, .99) * 1e3:.0f} ms, max {got[-1] * 1e3:.0f} ms; the last one's {last_s}"
            + (f"   target {target}" if target else ""))


def report(figures: Figures) -> list[str]:
    n = figures.tables
    out = [line("result → stored by the hall server", figures.results, figures.stored, n),
           line("result → standings pushed (overlay)", figures.results, figures.standings, n, "p99 ≤ 1 s"),
           line("result → page pushed (/tournament/1)", figures.results, figures.page, n, "p99 ≤ 1 s"),
           line("seat buttons' confirmation → the table told final", figures.confirm_sent, figures.told_final, n),
           line("seat buttons' confirmation → page pushed", figures.confirm_sent, figures.page_final, n)]
    if figures.results and figures.standings:
        everything = max(figures.standings[t] for t in figures.results if t in figures.standings)
        out.append(f"last result written → standings counting all {len(figures.standings)}: "
                   f"{(everything - max(figures.results.values())) * 1e3:.0f} ms")
    if figures.drawn is not None:
        told = sorted(figures.told_round2.values())
        drawn = figures.drawn - figures.draw_started
        if told:
            out.append(f"round 2: drawn in {drawn * 1e3:.0f} ms; {len(told)} of {n} tables told, the first "
                       f"{(told[0] - figures.drawn) * 1e3:.0f} ms and the last {(told[-1] - figures.drawn) * 1e3:.0f} "
                       f"ms after; draw + send + all received {(told[-1] - figures.draw_started) * 1e3:.0f} ms"
                       "   target ≤ 2 s")
        else:
            out.append(f"round 2: drawn in {drawn * 1e3:.0f} ms; no table told within 60 s")
    cpu = " and ".join(f"{what} {s:.1f} s" for what, s in zip(("hall server", "pages (guandan serve)"),
                                                              figures.server_cpu_s, strict=False))
    out.append(f"CPU during the round: {cpu}; results refused: {figures.refusals}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = Options()
    ap.add_argument("--tables", type=int, default=d.tables)
    ap.add_argument("--spread", type=float, default=d.spread, help="seconds over which the matches end; 0: time "
                    f"called everywhere at once (default {d.spread:g})")
    ap.add_argument("--rate", type=float, default=d.rate, help=f"events a second a table (default {d.rate:g})")
    ap.add_argument("--confirm-after", type=float, default=d.confirm_after,
                    help=f"seconds from provisional to the seat buttons pressed (default {d.confirm_after:g})")
    ap.add_argument("--clients", type=int, default=d.clients, help=f"shared MQTT connections (default {d.clients})")
    ap.add_argument("--matches", type=int, default=d.matches, help=f"distinct bot matches (default {d.matches})")
    ap.add_argument("--hands", type=int, default=d.hands, help=f"hands a match (default {d.hands})")
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--pages", choices=("apart", "together"), default=d.pages,
                    help="the pages from guandan serve, a process of their own (apart), or from guandan hall serve "
                         f"--web (together; default {d.pages})")
    args = ap.parse_args(argv)
    options = Options(args.tables, args.spread, args.rate, args.confirm_after, args.clients, args.matches,
                      args.hands, args.seed, pages=args.pages)
    say(f"# {describe()}")
    with tempfile.TemporaryDirectory(prefix="guandan-tournament-hall-") as folder:
        figures = run(options, Path(folder))
    for text in report(figures):
        say(text)
    return 0 if figures.complete else 1


if __name__ == "__main__":
    sys.exit(main())
