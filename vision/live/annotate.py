"""Detections drawn on an image, for people checking what the camera read."""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.detector import Detection


def draw_detections(image: np.ndarray, detections: list[Detection]) -> np.ndarray:
    out = image.copy()
    scale = max(0.4, min(out.shape[:2]) / 900)
    for d in detections:
        x1, y1, x2, y2 = (int(round(v)) for v in d.box)
        colour = (40, 40, 220) if d.card[0] in "HD" or d.card == "HR" else (40, 160, 40)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, int(2 * scale)))
        label = f"{d.card} {d.conf:.2f}"
        cv2.putText(out, label, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour,
                    max(1, int(1.5 * scale)), cv2.LINE_AA)
    return out
