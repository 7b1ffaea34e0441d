"""A table as the pages see it: the record replayed into one JSON-ready snapshot.

``TableView`` keeps a table's stored events and the match they replay to, incrementally
(a referee's correction works the match out again, as corrections act in place). Its
``snapshot()`` is everything the hall, table, overlay and referee pages show: levels,
cards left and 报牌 state per seat, the trick on the table, whose turn and since when, the
tribute, the card tracker, each side's win chance (胜率, ``engine.win_chance``) with the swing
of the last play, alerts with their status, the log in both languages, why the
record breaks where it does (``error``, and ``error_text`` in each language) — and,
at a tournament's table, its seating as the hall sent it (``store.seatings``: the pairs
drawn at it, its result to confirm). ``DelayedView`` is a table as it stood some seconds
ago, for a broadcast delay. The snapshot's fields are typed in ``web.snapshot_types`` (and,
as JSON Schema, in ``web/static/snapshot.schema.json``): what the pages' script may read.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.events import (
    BY_CAMERA,
    GREW,
    AlertDone,
    CameraNote,
    Correction,
    Header,
    Missed,
    Pass,
    Penalty,
    PlayCards,
    Press,
    RecordError,
    Struck,
    event_from_json,
)
from engine.hand import Hand
from engine.highlights import highlights
from engine.match import Match
from engine.plays import Play
from engine.profile import Profile, ProfileError
from engine.seats import PLAY_ORDER
from engine.timing import action_limit
from engine.win_chance import Seen, chance, seen
from rulebook.commentary import highlight_json, ticker
from rulebook.i18n import camera_note_text, violation
from rulebook.narration import entry_lines, result_lines
from rulebook.tournament_live import refusal_in_each
from store.event_store import StoredEvent
from web.snapshot_types import (
    AlertJson,
    ChanceJson,
    HandState,
    LogLine,
    SeatingJson,
    Snapshot,
    Swing,
    TableSnapshot,
)

LOG_LINES = 60
#: the newest highlights and commentary lines a snapshot carries (the overlay's banner and
#: ticker; the whole lists are at /api/tables/<id>/highlights and …/ticker)
HIGHLIGHTS_SHOWN = 10
TICKER_SHOWN = 20
#: a camera read below this confidence goes to the referee's queue (docs/web.md), unless the
#: record's header gives the camera's own threshold (an enrolled deck's ``doubt``)
LOW_CONFIDENCE = 0.8


def doubt_below(match: Match) -> float:
    """The confidence below which a play of ``match`` goes to the referee."""
    return match.header.doubt if match.header.doubt is not None else LOW_CONFIDENCE


class TableView:
    def __init__(self, table: str, profile_for: Callable[[str], Profile]) -> None:
        self.table = table
        self.profile_for = profile_for
        self.stored: list[StoredEvent] = []
        self.match: Match | None = None
        self.error: str | None = None
        self.error_text: dict[str, str] | None = None
        self.last_id = 0
        self.action_since: float | None = None
        self._awaiting: tuple | None = None
        #: the public state before the current hand's last play or pass (its seq and seat),
        #: for the win chance's swing; its chance once worked out
        self._before: tuple[int, str, Seen] | None = None
        self._before_chance: tuple[int, dict] | None = None

    # --- building -----------------------------------------------------------------------

    def add(self, stored: StoredEvent) -> None:
        self.stored.append(stored)
        self.last_id = max(self.last_id, stored.id)
        try:
            event = event_from_json(stored.body)
            if self.match is None:
                if not isinstance(event, Header):
                    raise RecordError("header_first_line")
                self.match = Match(self.profile_for(event.profile), event)
            else:
                before = self._public_before(event)
                self.match.push(event)  # a correction acts in its place (engine.match)
                if before is not None or isinstance(event, Correction | Missed | Struck):
                    self._before = before  # the record worked out again: no swing to show
        except (RecordError, ProfileError) as exc:  # the engine's and the profile's words, in each language
            self.error = f"seq {stored.seq}: {exc}"
            self.error_text = refusal_in_each("record_breaks_at", seq=stored.seq, why=exc)
            return
        now = self._awaiting_now()
        if now != self._awaiting:
            self._awaiting = now
            self.action_since = stored.received

    def _public_before(self, event) -> tuple[int, str, Seen] | None:
        """What the table had shown before ``event``, a play or pass of the hand in play (a
        few microseconds: the swing of the win chance is worked out only if a page asks)."""
        hand = self.match.hand
        if not isinstance(event, PlayCards | Pass) or hand is None or hand.outcome is not None:
            return None
        return event.seq, event.seat, seen(hand)

    def _awaiting_now(self) -> tuple | None:
        hand = self.match.hand if self.match else None
        if hand is None or hand.outcome is not None or self.match.over:
            return None
        return (hand.number, *hand.awaiting())

    def until(self, cutoff: float) -> TableView:
        """The view as it stood at wall time ``cutoff`` (a broadcast delay)."""
        view = TableView(self.table, self.profile_for)
        for s in self.stored:
            if s.received <= cutoff:
                view.add(s)
        return view

    # --- the snapshot -------------------------------------------------------------------

    def snapshot(self, frames: set[int] = frozenset(), seating: SeatingJson | None = None) -> Snapshot:
        m = self.match
        if m is None:
            return {"table": self.table, "id": self.last_id, "error": self.error, "error_text": self.error_text,
                    "ready": False, "seating": seating}
        header = m.header
        hand = m.hand
        state = _hand(hand, m.profile) if hand is not None else None
        if state is not None and self._awaiting is not None:
            state["since"] = self.action_since
        out: TableSnapshot = {
            "table": self.table, "id": self.last_id, "ready": True, "error": self.error, "error_text": self.error_text,
            "name": header.table or self.table, "profile": m.profile.name,
            "profile_title": {"zh": m.profile.profile.title_zh, "en": m.profile.profile.title_en},
            "players": header.players, "levels": m.levels, "declarers": m.declarers,
            "match_minutes": m.profile.match.minutes, "started": self.stored[0].received,
            "time_called": m.time_called, "hands": len(m.hands),
            "result": m.result.to_json() if m.result else None,
            "result_text": {"zh": list(result_lines(m, "zh")), "en": list(result_lines(m, "en"))} if m.result else None,
            "seating": seating,
            "hand": state,
            "chance": self._chance() if hand is not None else None,
            "alerts": self.alerts(frames),
            "log": self._log(),
            "highlights": [highlight_json(m, h) for h in highlights(m)[-HIGHLIGHTS_SHOWN:]],
            "ticker": [line.to_json() for line in ticker(m)[-TICKER_SHOWN:]],
        }
        return out

    def _chance(self) -> ChanceJson:
        """The hand's win chance now (engine.win_chance) as the pages show it: each side's
        chance to finish first, to go up by each number of levels, and the last play's swing."""
        hand = self.match.hand
        now = chance(seen(hand))
        swing: Swing | None = None
        if self._before is not None and self._before[2].number == hand.number:
            seq, seat, state = self._before
            if self._before_chance is None or self._before_chance[0] != seq:
                self._before_chance = (seq, chance(state).win)
            then = self._before_chance[1]
            swing = {"seq": seq, "seat": seat, "EW": round(now.win["EW"] - then["EW"], 4),
                     "NS": round(now.win["NS"] - then["NS"], 4)}
        upgrades = self.match.profile.levels.upgrades
        return {"win": {side: round(p, 4) for side, p in now.win.items()},
                "levels": {side: {str(gain): round(p, 4) for gain, p in sorted(gains.items(), reverse=True)}
                           for side, gains in now.levels(upgrades).items()},
                "decided": now.decided, "hand": hand.number, "swing": swing}

    def alerts(self, frames: set[int] = frozenset()) -> list[AlertJson]:
        """Every alert of the match, oldest first, with its status (``frame``: whether the
        play it is about has an evidence frame among ``frames``); the referee's queue reads
        them too (``web.referee_queue``)."""
        m = self.match
        done: dict[int, dict] = {}
        for e in m.history:
            ev = e.event
            if isinstance(ev, AlertDone):
                done[ev.alert] = {"status": "acknowledged" if ev.action == "ack" else "dismissed",
                                  "by": ev.by, "why": ev.why}
            elif isinstance(ev, Penalty) and ev.alert is not None:
                done[ev.alert] = {"status": "penalised", "by": ev.by, "why": ev.why, "penalty": ev.penalty}
        alerts = []
        low = doubt_below(m)
        seats = {e.event.seq: getattr(e.event, "seat", None) for e in m.history}
        for e in m.history:
            items = [(v.code, v.seat, v.rule, v.detail) for v in e.violations]
            if isinstance(e.event, Press) and e.referee_call:
                items.append(("referee_call", None, "", {}))
            confidence = getattr(e.event, "confidence", None)
            if confidence is not None and confidence < low:
                items.append(("low_confidence", e.event.seat, "", {"confidence": confidence,
                                                                    "cards": list(e.event.cards)}))
            # the camera corrected an earlier play (table.recount): a referee should look at
            # that play, whose own low-confidence alert the correction has replaced; not a play
            # whose row the camera saw grow (more cards laid to it before anyone acted)
            camera = isinstance(e.event, Correction) and e.event.by == BY_CAMERA and e.event.why != GREW
            if camera:
                items.append(("camera_recount", seats.get(e.event.target), "",
                              {"target": e.event.target, "cards": list(e.event.cards)}))
            note = e.event if isinstance(e.event, CameraNote) else None  # the camera's own words
            if note is not None:
                items.append((note.code, note.seat, "", dict(note.values)))
            for code, seat, rule, detail in items:
                seq = e.event.seq
                shown = e.event.target if camera else seq  # the play the alert is about
                if note is not None:
                    zh, en = camera_note_text(note, "zh"), camera_note_text(note, "en")
                else:
                    zh, en = violation(code, "zh"), violation(code, "en")
                alerts.append({"id": seq, "seq": shown, "t": e.event.t, "hand": e.hand, "code": code,
                               "seat": seat, "rule": rule, "detail": detail, "zh": zh, "en": en,
                               "frame": shown in frames, **done.get(seq, {"status": "open"})})
        return alerts

    def _log(self) -> list[LogLine]:
        m = self.match
        out = []
        for e in m.history[1:]:
            zh, en = list(entry_lines(m, e, "zh")), list(entry_lines(m, e, "en"))
            out.append({"seq": e.event.seq, "t": e.event.t, "type": e.event.type,
                        "zh": [x for x in zh if x.strip()], "en": [x for x in en if x.strip()]})
        return out[-LOG_LINES:]


class DelayedView:
    """A table as it stood ``delay`` seconds ago: a broadcast delay (the OBS overlay's
    ``?delay=S``) shows everything late and hides nothing. Fed from the live view's events
    by the time each was received, with the time passed in, so every viewer of the table
    with the same delay can share one."""

    def __init__(self, live: TableView, delay: float) -> None:
        self.live = live
        self.delay = delay
        self.view = TableView(live.table, live.profile_for)
        self._fed = 0

    def feed(self, now: float) -> bool:
        """Take in the events received ``delay`` seconds before ``now``; whether any were."""
        cutoff, stored, fed = now - self.delay, self.live.stored, self._fed
        while fed < len(stored) and stored[fed].received <= cutoff:
            self.view.add(stored[fed])
            fed += 1
        grew, self._fed = fed > self._fed, fed
        return grew


def _play_json(play: Play | None) -> list[object] | None:
    return play.to_json() if play is not None else None


def _hand(hand: Hand, profile: Profile) -> HandState:
    action, seats = hand.awaiting()
    threshold = profile.report.threshold
    places = {s: i + 1 for i, s in enumerate(hand.outcome.order if hand.outcome else hand.finished)}
    trick = hand.trick or hand.last_trick
    return {
        "number": hand.number, "level": hand.level, "declarers": hand.declarers, "phase": hand.phase,
        "action": action, "to_act": list(seats),
        "limit": action_limit(profile, action),
        "seats": {s: {"cards": hand.counts[s], "report": hand.counts[s] <= threshold and hand.counts[s] > 0,
                      "report_due": s in hand.report_due, "place": places.get(s)} for s in PLAY_ORDER},
        "trick": [{"seat": turn.seat, "play": _play_json(turn.play), "cards": list(turn.cards), "seq": turn.seq}
                  for turn in trick],
        "trick_is_last": not hand.trick and bool(hand.last_trick),
        "top": {"seat": hand.top.seat, "play": hand.top.play.to_json()} if hand.top else None,
        "tribute": [{"from": g, "to": hand.receivers.get(g), "card": c} for g, c in hand.tributes.items()],
        "returns": [{"from": r, "to": g, "card": hand.returns[r]}
                    for g, r in hand.receivers.items() if r in hand.returns],
        "resisted": hand.resisted, "tracker": hand.tracker.summary(),
        "outcome": list(hand.outcome.order) if hand.outcome else None,
    }
