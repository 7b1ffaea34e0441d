"""A referee's act as a record event: built from what the referee gave, checked against the
table's record as stored.

Two places turn a referee's act into an event: the web console (a table's own, or a hall
server's for a table made there) and a table's node taking an act sent down from the hall
server's console (``hall.acts``). Both build it here, so an act means the same
wherever it was made and is refused for the same reasons, in the rule books' words (an
``ActRefused``, or the record's own ``RecordError``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import (
    AlertDone,
    Correction,
    Event,
    Forfeit,
    LevelAdjust,
    Missed,
    Penalty,
    RecordError,
    event_from_json,
)
from rulebook.tournament_live import Refusal

REFEREE_ACTS: dict[str, type[Event]] = {
    "correction": Correction, "missed": Missed, "level_adjust": LevelAdjust, "penalty": Penalty,
    "alert_done": AlertDone, "forfeit": Forfeit}
PLAYS = ("play", "pass", "missed")  # what a correction targets and a missed play is put before


class ActRefused(Refusal, RecordError):
    """An act aimed at what the table's record does not hold: a ``RecordError`` to whoever
    checks acts against the record, named and worded as the rule books' refusals are."""


def build_act(act: str, fields: dict, user: str, stored: Sequence[dict], seq: int) -> Event:
    """The act ``act`` with ``fields`` by ``user`` as the table's event ``seq``, given the
    table's stored events (their JSON bodies, oldest first). It takes the time of the last
    stored event: an act belongs where the game stood when it was made. Raises
    ``RecordError`` for a field the event refuses, ``ActRefused`` (one too) for an unknown
    act or an act aimed at something the record does not hold (a correction of a line that
    is not a play or pass, an alert that does not exist). Whether the record still replays
    with it is the caller's check (it has the replay at hand)."""
    if act not in REFEREE_ACTS:
        raise ActRefused("no_act", act=act, acts=", ".join(REFEREE_ACTS))
    last_t = stored[-1].get("t", 0.0) if stored else 0.0
    body = {k: v for k, v in fields.items() if k not in ("seq", "t", "type", "by")}
    body |= {"seq": seq, "t": last_t, "type": REFEREE_ACTS[act].type, "by": user}
    if act == "forfeit":
        body["reason"] = str(fields.get("why", fields.get("reason", "")))
        body.pop("why", None)
    event = event_from_json(body)
    targets = {b.get("seq"): b.get("type") for b in stored}
    if isinstance(event, Correction) and targets.get(event.target) not in PLAYS:
        raise ActRefused("act_target", target=event.target)
    if isinstance(event, Missed) and event.before is not None and targets.get(event.before) not in PLAYS:
        raise ActRefused("act_target", target=event.before)
    if isinstance(event, (AlertDone, Penalty)) and getattr(event, "alert", None) not in (None, *targets):
        raise ActRefused("act_alert", alert=event.alert)
    return event


def act_fields(event: Event) -> dict:
    """What an act said, without where it stands in a record (seq, time, type, who): the
    fields ``build_act`` takes to make it again, at another copy of the table's record."""
    return {k: v for k, v in event.to_json().items() if k not in ("seq", "t", "type", "by")}
