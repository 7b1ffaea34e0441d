"""benchmarks/corruptions.py: a game is corrupted alike whatever games are read beside it."""

import json
import random

from benchmarks.corruptions import Game
from engine.bots import self_play
from engine.record import dumps
from rulebook import profiles


def _game(folder, meta: dict):
    folder.mkdir()
    events = self_play(profiles.load("jiangsu"), random.Random(3), max_hands=1, table="t")
    (folder / "truth.jsonl").write_text(dumps(events[:6]), encoding="utf-8")
    (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


def test_a_games_corruptions_draw_from_its_own_seed_not_its_place_in_the_batch(tmp_path):
    """Seen: render game 122 under motion blur read 8 of 18 plays alone and 4 of 18 third in a
    batch, because its draws (which frames shake, which way) came from its place among the
    games named. Now from its own seed."""
    folder = _game(tmp_path / "game-122", {"seed": 122, "fps": 30, "profile": "jiangsu"})
    alone, third = Game.open(folder, 0, 0), Game.open(folder, 0, 2)
    assert alone.seed == third.seed == 122
    assert Game.open(folder, 5, 2).seed == 127  # --seed still moves every draw
    # a folder that names no seed of its own falls back on its place
    other = _game(tmp_path / "other", {"fps": 25})
    assert [Game.open(other, 0, n).seed for n in (0, 2)] == [0, 2] and Game.open(other, 0, 0).fps == 25.0
