"""A small tournament on a hall, ready for its tables: what the hall's seating and overview
tests start from."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.tournament import Pair, Table, Tournament
from rulebook import profiles
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.hall.conftest import HALL
from tests.ports import free_port
from tests.web.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class HallRound:
    """The hall server running on a database holding a referee's token and round 1 drawn."""

    db: Path
    base: str  # the hall server's pages
    web: int
    token: str
    tables: list[Table]  # round 1's two drawn tables
    server: subprocess.Popen


def hall_with_round_one(tmp_path: Path, broker_url: str) -> HallRound:
    """A four-pair Swiss (jiangsu) made and drawn through the desk, as ``guandan tournament
    new`` and ``draw`` do while no hall server runs, then ``guandan hall serve --web``
    started on it. The caller stops the server."""
    db, web = tmp_path / "hall.db", free_port()
    hall = Store(db)
    hall.add_user("li", PASSWORD)
    token = hall.new_token("li")
    hall.close()
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(db, create=True) as t_store:
        t_store.save_tournament(Tournament("厅赛", "swiss", 2, profiles.load("jiangsu"), 4, pairs), "jiangsu")
        _, tables, _ = desk.draw_next(t_store, None, "裁判长")
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker_url,
                               "--db", str(db), "--hall", HALL, "--web", str(web)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return HallRound(db, f"http://127.0.0.1:{web}", web, token, list(tables), server)
