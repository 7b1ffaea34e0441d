"""What a calibration found, drawn on the camera image: markers, table edge, seat zones."""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.calibration import TABLE_CM, Calibration, find_markers, zone_size, zone_to_table

SEAT_COLOURS = {"E": (60, 180, 255), "S": (80, 220, 80), "W": (255, 160, 60), "N": (200, 90, 220)}


def zone_outline_cm(seat: str) -> np.ndarray:
    w, h = zone_size(1.0)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64)
    return (corners @ zone_to_table(seat, 1.0).T)[:, :2]


def draw_calibration(image: np.ndarray, calibration: Calibration | None) -> np.ndarray:
    out = image.copy()
    scale = max(1, round(min(out.shape[:2]) / 500))
    for marker_id, corners in find_markers(image).items():
        cv2.polylines(out, [corners.astype(np.int32)], True, (0, 255, 255), 2 * scale)
        cv2.putText(out, f"#{marker_id}", tuple(corners[0].astype(int)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale,
                    (0, 255, 255), scale)
    if calibration is None:
        return out
    half = TABLE_CM / 2
    edge = calibration.to_image(np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
    cv2.polylines(out, [edge.astype(np.int32)], True, (255, 255, 255), 2 * scale)
    for seat, colour in SEAT_COLOURS.items():
        outline = calibration.to_image(zone_outline_cm(seat))
        cv2.polylines(out, [outline.astype(np.int32)], True, colour, 2 * scale)
        centre = outline.mean(axis=0).astype(int)
        cv2.putText(out, seat, tuple(centre), cv2.FONT_HERSHEY_SIMPLEX, 1.0 * scale, colour, 2 * scale)
    return out
