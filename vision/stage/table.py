"""The table's fixed layout in table-plane centimetres, written from DESIGN §5.

Origin at the table's centre, +x toward East, +y toward North, +z up from the cloth. The
stage keeps its own copy of the marker geometry (the live loop's is not imported): both are
read off the same page of the design, so a disagreement between the worlds is a finding.
"""

from __future__ import annotations

import numpy as np

#: the play area's side: the cloth the markers are printed on
CLOTH_CM = 90.0
#: the wood the cloth lies on, wider than any camera sees (its picture repeats every WOOD_TILE_CM)
WOOD_CM = 600.0
WOOD_TILE_CM = 320.0
#: the marker's black square and its white border
MARKER_CM = 6.0
MARKER_BORDER_CM = 1.0
#: OpenCV's DICT_4X4_50 ids at their centres
MARKER_CENTRES: dict[int, tuple[float, float]] = {0: (-40.0, -40.0), 1: (40.0, -40.0), 2: (40.0, 40.0),
                                                  3: (-40.0, 40.0)}

#: a poker-size card and its thickness
CARD_W, CARD_H, CARD_T = 6.3, 8.8, 0.03
#: the corner's radius of a printed card
CARD_CORNER = 0.35

#: each seat's direction out from the centre
OUT: dict[str, tuple[float, float]] = {"E": (1.0, 0.0), "N": (0.0, 1.0), "W": (-1.0, 0.0), "S": (0.0, -1.0)}
#: a seat's zone, centimetres out from the centre, and where a row's centre may lie in it
ZONE_CM = (10.0, 36.0)
ROW_CM = (16.0, 24.0)
#: where a seat's pile of turned tricks lies
PILE_CM = (36.0, 44.0)
#: the table's edge, where arms reach in from and stacks are slid in from
EDGE_CM = CLOTH_CM / 2


def marker_corners(marker: int) -> np.ndarray:
    """The marker's four corners in OpenCV's order (top-left, top-right, bottom-right,
    bottom-left as read from South, whose top is North): corner 0 at (cx − 3, cy + 3)."""
    cx, cy = MARKER_CENTRES[marker]
    h = MARKER_CM / 2
    return np.array([(cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h)], np.float64)


def seat_axes(seat: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(right, up, out)`` in the table plane as the seat's player sees it: ``out`` points
    from the centre to the player, ``up`` away from them (a card upright for its owner has
    its top that way) and ``right`` to their right hand (their rows run left to right)."""
    out = np.array(OUT[seat])
    up = -out
    right = np.array([-out[1], out[0]])
    return right, up, out


def seat_yaw(seat: str) -> float:
    """The angle (radians, counter-clockwise from +x) of a card upright for ``seat``: the
    card's own +x (its left-to-right) turned onto the seat's right."""
    right, _, _ = seat_axes(seat)
    return float(np.arctan2(right[1], right[0]))


def at_seat(seat: str, out_cm: float, right_cm: float = 0.0) -> np.ndarray:
    """The table point ``out_cm`` out toward ``seat`` and ``right_cm`` to its player's right."""
    right, _, out = seat_axes(seat)
    return out * out_cm + right * right_cm


def zone_of(x: float, y: float) -> str | None:
    """The seat whose zone holds a card centred at (x, y), or None (DESIGN §5's rule)."""
    if abs(y) >= abs(x):
        seat, far = ("S" if y < 0 else "N"), abs(y)
    else:
        seat, far = ("E" if x > 0 else "W"), abs(x)
    return seat if ZONE_CM[0] <= far <= ZONE_CM[1] else None
