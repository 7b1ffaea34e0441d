"""``guandan render-game``: an overhead video of a hand played by the engine's bots.

What the camera pipeline is tested and demonstrated on, with the truth beside it: a match
played by simple bots (``engine.bots``) is staged on a table seen from above — each play
laid in its seat's zone as players lay them (a row of overlapping cards, each top-left
index visible, upright for its owner), brought in by a hand that covers the cards while it
lays them, left lying while the trick goes on, and turned face down onto the seat's pile
when the trick ends. A tilted camera sees it with uneven light and noise. The record
written beside the video (``truth.jsonl``) is the bots' record re-timed to the video: each
play's ``t`` is the moment its cards lie still. ``mistakes`` makes the bots now and then
lay a single that does not beat the table (出错牌), which the pipeline must alert.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.bots import self_play
from engine.cards import BIG_JOKER
from engine.events import Deal, Event, GiveBack, Header, Pass, PlayCards, Resist, Tribute
from engine.layout import laid_out
from engine.match import Match
from engine.plays import classify
from engine.record import dumps
from rulebook import profiles
from vision.live.calibration import zone_to_table
from vision.synth.art_decks import ArtDeck
from vision.synth.art_faces import ArtError
from vision.synth.deck import Deck, back_image, card_image, prints, styles
from vision.synth.table_canvas import camera_homography, canvas_side, canvas_to_table, table_canvas

FPS = 30
#: the felt's grain is drawn at this scale whatever the canvas's, so a seed keeps its table
GRAIN_PX_PER_CM = 8.0
#: the canvas is drawn this many times finer than the camera resolves the table's near edge,
#: and the camera's view is taken at twice its size then averaged down: every camera pixel
#: integrates the light of the card print under it, as a real sensor does, instead of
#: sampling a coarser drawing (which made 1080p videos 8 px/cm drawings blown up)
SUPERSAMPLE = 2
ROW_CM = 22.0  # distance of a laid row's centre line from the table centre
STEP_CM = 2.1  # how far each card of a row is laid right of the one before
PILE_CM = 41.0
LAY_S, SETTLE_S, HOLD_S, PASS_S, CLEAR_S = 0.6, 0.3, 1.2, 0.7, 0.6
SKIN = (120, 160, 205)


@dataclass
class TableState:
    """What lies on the table at one moment."""

    rows: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in "ESWN"})
    piles: dict[str, int] = field(default_factory=lambda: {s: 0 for s in "ESWN"})
    hand: tuple[str, float] | None = None  # seat and how far in (0–1)
    #: a card knocked out of its row: seat → (its place in the row, dx, dy in cm of the table)
    knocked: dict[str, tuple[int, float, float]] = field(default_factory=dict)


@dataclass
class Staging:
    """The video's timeline: table states with their start times, and the re-timed record."""

    keys: list[tuple[float, TableState]]
    events: list[Event]
    duration: float


def _facing(image, seat: str) -> tuple[np.ndarray, np.ndarray]:
    """A card side (upright, top up) turned on the canvas to face the seat's player."""
    bgr, alpha = np.ascontiguousarray(image.bgr), np.ascontiguousarray(image.alpha)
    turn = {"S": None, "N": cv2.ROTATE_180, "E": cv2.ROTATE_90_COUNTERCLOCKWISE, "W": cv2.ROTATE_90_CLOCKWISE}[seat]
    if turn is None:
        return bgr, alpha
    return cv2.rotate(bgr, turn), cv2.rotate(alpha, turn)


def stage(events: list[Event], profile, max_events: int | None = None,
          hidden_jokers: dict[int, dict[str, int]] | None = None) -> Staging:
    """Turn a record into table states over video time, and re-time the record. The rules
    engine replays it alongside, so the video turns a trick over exactly when it ends.
    ``hidden_jokers``: for a resistance (by its position in ``events``), how many big
    jokers each resisting seat shows (see ``hide``)."""
    hidden_jokers = hidden_jokers or {}
    match = Match(profile, events[0])
    state = TableState()
    keys: list[tuple[float, TableState]] = [(0.0, _copy(state))]
    out: list[Event] = []
    t = 1.0
    for i, ev in enumerate(events):
        if max_events is not None and len(out) > max_events:
            break
        seq = len(out)
        fields = {k: v for k, v in ev.__dict__.items() if k not in ("seq", "t")}
        if isinstance(ev, PlayCards):
            fields["cards"] = _as_laid(ev, match)
            _lay(state, keys, ev.seat, list(fields["cards"]), t)
            event = PlayCards(seq=seq, t=round(t + LAY_S + SETTLE_S, 2), **fields)
            t += LAY_S + SETTLE_S + HOLD_S
        elif isinstance(ev, (Tribute, GiveBack, Resist)):  # shown face up, then taken back into the hand
            shown = _shown_cards(ev, hidden_jokers.get(i, {}))
            for seat, cards in shown.items():
                _lay(state, keys, seat, cards, t)
            event = type(ev)(seq=seq, t=round(t + LAY_S + SETTLE_S, 2), **fields)
            t += LAY_S + SETTLE_S + HOLD_S
            for seat in shown:
                _lay(state, keys, seat, [], t)
            t += LAY_S + SETTLE_S
        elif isinstance(ev, Pass):
            event = Pass(seq=seq, t=round(t + PASS_S / 2, 2), **fields)
            t += PASS_S
        elif isinstance(ev, Deal):  # a new hand: the table is cleared
            state = TableState()
            keys.append((t, _copy(state)))
            event = Deal(seq=seq, t=round(t, 2), leader=ev.leader)
            t += 1.0
        else:
            event = type(ev)(seq=seq, t=0.0 if isinstance(ev, Header) else round(t, 2), **fields)
        out.append(event)
        if not isinstance(event, Header):
            match.push(event)
        hand = match.hand
        if isinstance(event, (PlayCards, Pass)) and hand is not None and (hand.outcome or not hand.trick):
            for seat in "ESWN":  # the trick is over: its plays go face down onto the piles
                state.piles[seat] += len(state.rows[seat])
                state.rows[seat] = []
            keys.append((t, _copy(state)))
            t += CLEAR_S
    keys.sort(key=lambda k: k[0])
    return Staging(keys, out, t + 1.0)


def _as_laid(ev: PlayCards, match: Match) -> tuple[str, ...]:
    """A bot's play in the order a player lays it: a bot names its cards in the engine's
    order, a player lays a sequence in order with each wildcard where the card it stands
    for goes (``engine.layout``), and that layout is how the camera tells which reading
    was meant."""
    hand = match.hand
    if ev.reading is None or hand is None:
        return ev.cards
    play = next((p for p in classify(ev.cards, hand.level) if (p.type, p.rank) == tuple(ev.reading)), None)
    return laid_out(play, hand.level) if play is not None else ev.cards


def _lay(state: TableState, keys: list, seat: str, cards: list[str], t: float) -> None:
    """A hand comes in over the seat's zone, adds ``cards`` to its row (or, with none,
    takes the row back up) and leaves; the keys start at ``t``."""
    for k in range(1, 4):
        state.hand = (seat, k / 3)
        keys.append((t + LAY_S * k / 4, _copy(state)))
    state.rows[seat] = state.rows[seat] + cards if cards else []
    keys.append((t + LAY_S, _copy(state)))
    state.hand = None
    keys.append((t + LAY_S + SETTLE_S, _copy(state)))


def _shown_cards(ev: Event, jokers: dict[str, int]) -> dict[str, list[str]]:
    """What each seat shows for a tribute, a return or a resistance (its big jokers)."""
    if isinstance(ev, Resist):
        return {s: [BIG_JOKER] * jokers[s] for s in ev.seats if jokers.get(s)}
    return {ev.seat: [ev.card]}


def _copy(state: TableState) -> TableState:
    return TableState({s: list(v) for s, v in state.rows.items()}, dict(state.piles), state.hand)


class Renderer:
    """Draws table states, then the camera's view of them."""

    def __init__(self, seed: int, size: tuple[int, int], style_split: str = "heldout",
                 art: ArtDeck | None = None) -> None:
        """``art``: a real deck design to lay instead of the seed's procedural style (the
        table, light and camera are still the seed's)."""
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.size = size
        self.style: Deck = styles(seed, 1, style_split)[0] if art is None else art
        felt = tuple(int(v) for v in rng.integers((20, 60, 20), (90, 130, 70)))
        grain_side = canvas_side(GRAIN_PX_PER_CM)
        grain = rng.normal(0, 6, (grain_side, grain_side)).astype(np.float32)
        tilt, turn, zoom = float(rng.uniform(0.05, 0.25)), float(rng.uniform(-8, 8)), float(rng.uniform(0.88, 0.97))
        #: canvas pixels per table cm: SUPERSAMPLE times what the camera resolves at the near edge
        self.ppc = SUPERSAMPLE * zoom * min(size) / grain_side * GRAIN_PX_PER_CM
        self.base = table_canvas(self.ppc, felt=felt)
        side = self.base.shape[0]
        grain = cv2.resize(grain, (side, side), interpolation=cv2.INTER_LINEAR)[..., None]
        self.base = np.clip(self.base.astype(np.float32) + grain, 0, 255).astype(np.uint8)
        self.t2c = np.linalg.inv(canvas_to_table(self.ppc))
        self.homography = camera_homography(side, size, tilt=tilt, turn_deg=turn, zoom=zoom)
        w, h = size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        self.light = 0.82 + 0.25 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.6 * max(w, h)) ** 2))
        self._cache: dict[str, np.ndarray] = {}

    def card_facing(self, card: str, seat: str) -> tuple[np.ndarray, np.ndarray]:
        return _facing(card_image(card, self.style, self.ppc), seat)

    def place(self, canvas: np.ndarray, bgr: np.ndarray, alpha: np.ndarray, centre_cm: np.ndarray) -> None:
        col, row = cv2.perspectiveTransform(centre_cm.reshape(1, 1, 2).astype(np.float64), self.t2c).ravel()
        h, w = alpha.shape
        x0, y0 = int(round(col - w / 2)), int(round(row - h / 2))
        region = canvas[y0:y0 + h, x0:x0 + w]
        a = alpha[: region.shape[0], : region.shape[1], None].astype(np.float32) / 255
        region[:] = (bgr[: region.shape[0], : region.shape[1]] * a + region * (1 - a)).astype(np.uint8)

    def _row_centres(self, seat: str, n: int) -> list[np.ndarray]:
        """Table-cm centres of a row of ``n`` cards, left to right as the seat's player sees it."""
        to_table = zone_to_table(seat, 1.0)  # zone cm (column, row) → table cm
        near = ROW_CM - 10.0  # zones start 10 cm from the centre
        width = 56.0
        start = width / 2 - (n - 1) * STEP_CM / 2
        return [(to_table @ np.array([start + i * STEP_CM, near, 1.0]))[:2] for i in range(n)]

    def table(self, state: TableState) -> np.ndarray:
        canvas = self.base.copy()
        for seat in "ESWN":
            if state.piles[seat]:
                bgr, alpha = _facing(back_image(self.style, self.ppc), seat)
                direction = {"S": (0, -1), "N": (0, 1), "E": (1, 0), "W": (-1, 0)}[seat]
                self.place(canvas, bgr, alpha, np.array(direction, float) * PILE_CM)
            centres = self._row_centres(seat, len(state.rows[seat]))
            if seat in state.knocked:
                k, dx, dy = state.knocked[seat]
                centres[k] = centres[k] + (dx, dy)
            for centre, card in zip(centres, state.rows[seat], strict=True):
                bgr, alpha = self.card_facing(card, seat)
                self.place(canvas, bgr, alpha, centre)
        if state.hand is not None:
            self._hand(canvas, *state.hand)
        return canvas

    def _hand(self, canvas: np.ndarray, seat: str, reach: float) -> None:
        direction = np.array({"S": (0, -1), "N": (0, 1), "E": (1, 0), "W": (-1, 0)}[seat], float)
        tip = direction * (ROW_CM + 6 - 14 * reach)
        base = direction * 60
        pts = cv2.perspectiveTransform(np.array([[tip, base]], np.float64), self.t2c).reshape(2, 2)
        width = int(9 * self.ppc)
        cv2.line(canvas, tuple(pts[1].astype(int)), tuple(pts[0].astype(int)), SKIN, width, cv2.LINE_AA)
        cv2.circle(canvas, tuple(pts[0].astype(int)), int(width * 0.75), SKIN, -1, cv2.LINE_AA)

    def view(self, canvas: np.ndarray) -> np.ndarray:
        """What the lens forms of a table state, before the sensor's noise (float32 BGR)."""
        w, h = self.size
        fine = np.diag([SUPERSAMPLE, SUPERSAMPLE, 1.0]) @ self.homography
        sharp = cv2.warpPerspective(canvas, fine, (w * SUPERSAMPLE, h * SUPERSAMPLE), flags=cv2.INTER_LINEAR,
                                    borderValue=(25, 25, 25))
        view = cv2.resize(sharp, (w, h), interpolation=cv2.INTER_AREA)
        return view.astype(np.float32) * self.light[..., None]

    def camera(self, view: np.ndarray) -> np.ndarray:
        """One camera frame of a table state's ``view``: the sensor adds fresh noise each frame."""
        lit = view + self.rng.normal(0, 2.5, self.size[::-1])[..., None]
        return np.clip(lit, 0, 255).astype(np.uint8)


def render(seed: int, out: Path, size: tuple[int, int] = (1280, 720), hands: int = 1, max_events: int | None = None,
           profile: str = "jiangsu", mistakes: float = 0.0, progress=None, art: ArtDeck | None = None) -> dict:
    """Write ``game.mp4``, ``truth.jsonl`` and ``meta.json`` into ``out``; returns the meta.
    ``art``: a real deck design (it must print jokers: a hand deals all four)."""
    if art is not None and not all(prints(art, joker) for joker in ("SB", "HR")):
        raise ArtError(f"deck {art.name} prints no jokers; a game needs a deck that does")
    rng = random.Random(seed)
    rules = profiles.load(profile)
    events, jokers = hide(self_play(rules, rng, max_hands=hands, table=f"render-{seed}", mistakes=mistakes), rules)
    staging = stage(events, rules, max_events, jokers)
    out.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(seed, size, art=art)
    writer = cv2.VideoWriter(str(out / "game.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), FPS, size)
    frames = int(staging.duration * FPS)
    k = 0
    cached: tuple[int, np.ndarray] | None = None
    for n in range(frames):
        t = n / FPS
        while k + 1 < len(staging.keys) and staging.keys[k + 1][0] <= t:
            k += 1
        if cached is None or cached[0] != k:  # a table state's view is taken once, its noise each frame
            cached = (k, renderer.view(renderer.table(staging.keys[k][1])))
        writer.write(renderer.camera(cached[1]))
        if progress is not None:
            progress(n + 1, frames)
    writer.release()
    (out / "truth.jsonl").write_text(dumps(staging.events), encoding="utf-8")
    meta = {"seed": seed, "size": list(size), "fps": FPS, "frames": frames, "style": renderer.style.name,
            "art": art is not None,
            "profile": profile, "events": len(staging.events),
            "table_to_camera": (renderer.homography @ renderer.t2c).tolist()}
    (out / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return meta


def hide(events: list[Event], profile) -> tuple[list[Event], dict[int, dict[str, int]]]:
    """The camera's record of a bots' match: deals say only who leads, and a resistance,
    which known hands make at the deal by themselves, becomes the ``Resist`` the tributers
    show. Also returns, per resistance (by position), how many big jokers each seat shows."""
    match = Match(profile, events[0])
    out: list[Event] = [events[0]]
    jokers: dict[int, dict[str, int]] = {}
    for event in events[1:]:
        match.push(event)
        if not isinstance(event, Deal):
            out.append(event)
            continue
        out.append(Deal(seq=event.seq, t=event.t, leader=event.leader))
        hand = match.hand
        if hand.resisted:
            jokers[len(out)] = {s: hand.holdings[s][BIG_JOKER] for s in hand.tributers}
            out.append(Resist(seq=event.seq, t=event.t, seats=tuple(hand.tributers)))
    return out, jokers
