"""How a record read by the camera compares with the truth: plays read exactly.

A play is read exactly when the same seat's play holds exactly the same cards (duplicates
included; order aside, since the record keeps the order laid only for the wildcard's
reading). Plays are matched in order by their longest common subsequence, so a missed or
an extra play costs only itself, not every play after it.
"""

from __future__ import annotations

from engine.events import Event, PlayCards, with_corrections


def key(event: PlayCards) -> tuple[str, tuple[str, ...]]:
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
    reading the hand again, ``vision.recount``) as corrected."""
    return [e for e in with_corrections(events) if isinstance(e, PlayCards)]
