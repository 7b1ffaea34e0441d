"""How a record read by the camera compares with the truth: plays read exactly, and the
referee's acts that would make it exact.

A play is read exactly when the same seat's play holds exactly the same cards (duplicates
included; order aside, since the record keeps the order laid only for the wildcard's
reading). Plays are matched in order by their longest common subsequence, so a missed or
an extra play costs only itself, not every play after it.
"""

from __future__ import annotations

from engine.cards import Card
from engine.events import Event, Missed, Pass, PlayCards, event_from_json, with_corrections
from engine.seats import Seat


def key(event: PlayCards) -> tuple[Seat, tuple[Card, ...]]:
    return event.seat, tuple(sorted(event.cards))


def matched_plays(truth: list[PlayCards], seen: list[PlayCards]) -> list[tuple[int, int]]:
    """Longest common subsequence of two play lists by (seat, cards): index pairs."""
    a, b = [key(e) for e in truth], [key(e) for e in seen]
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def plays_of(events: list[Event]) -> list[PlayCards]:
    """The record's plays as it stands: each corrected one (by a referee, or by the camera
    reading the hand again, ``table.recount``) as corrected."""
    return [e for e in with_corrections(events) if isinstance(e, PlayCards)]


def actions(events: list[Event]) -> list[PlayCards | Pass]:
    """The plays and passes as the record, corrected, has them, in the order played."""
    return [e.as_event() if isinstance(e, Missed) else e for e in with_corrections(events)
            if isinstance(e, (PlayCards, Pass, Missed))]


def referee_fixes(truth: list[Event], seen: list[Event]) -> list[dict[str, object]]:
    """The fewest referee acts (``correction`` and ``missed`` events, without seq and t)
    that turn the plays and passes of ``seen`` (a camera's record) into those of ``truth``:
    a seat's play or pass read wrong is corrected, one never recorded is put in before the
    event it came before, one made up is voided (an edit distance, each act costing one)."""
    a, b = actions(truth), actions(seen)

    def same(x: PlayCards | Pass, y: PlayCards | Pass) -> bool:
        return x.seat == y.seat and type(x) is type(y) and sorted(getattr(x, "cards", ())) == \
            sorted(getattr(y, "cards", ()))

    cost = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a), -1, -1):
        for j in range(len(b), -1, -1):
            if i == len(a) or j == len(b):
                cost[i][j] = (len(a) - i) + (len(b) - j)
                continue
            options = [1 + cost[i + 1][j], 1 + cost[i][j + 1]]
            if a[i].seat == b[j].seat:
                options.append(cost[i + 1][j + 1] + (0 if same(a[i], b[j]) else 1))
            cost[i][j] = min(options)
    acts: list[dict[str, object]] = []
    i, j = 0, 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i].seat == b[j].seat and \
                cost[i][j] == cost[i + 1][j + 1] + (0 if same(a[i], b[j]) else 1):
            if not same(a[i], b[j]):
                acts.append({"type": "correction", "target": b[j].seq, "cards": list(getattr(a[i], "cards", ()))})
            i, j = i + 1, j + 1
        elif i < len(a) and cost[i][j] == 1 + cost[i + 1][j]:
            act: dict[str, object] = {"type": "missed", "seat": a[i].seat, "cards": list(getattr(a[i], "cards", ()))}
            if j < len(b):
                act["before"] = b[j].seq
            acts.append(act)
            i += 1
        else:
            acts.append({"type": "correction", "target": b[j].seq, "cards": [], "void": True})
            j += 1
    return acts


def with_fixes(seen: list[Event], acts: list[dict[str, object]], by: str = "referee") -> list[Event]:
    """``seen`` with a referee's acts appended as its next events."""
    out = list(seen)
    for act in acts:
        last = out[-1]
        out.append(event_from_json({"seq": last.seq + 1, "t": last.t, "by": by, "why": "", **act}))
    return out
