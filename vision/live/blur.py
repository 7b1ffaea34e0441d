"""How this camera blurs, measured on the table's markers, and a zone's picture sharpened back.

A camera out of focus, or shaking while it exposes (a table knocked, a mount that sways),
smears every index: at 1080p a streak of 5 pixels leaves a rank glyph of six pixels
unreadable, and the reader, which learnt sharp-enough indices, misreads or drops them. A
shake blurs the whole frame alike, a lens out of focus nearly so at a table's depth, and
the table carries four things whose every pixel is known: the markers, a 4×4 pattern in a
black frame with a white border, printed at a known size where the calibration has just
found them. Each marker is drawn as a sharp camera would see it, blurred by each of a
family of lens and shake blurs — a defocus disk, a straight streak at any angle, and the
two together — and the blur under which it looks most as it does is this camera's. A
zone's picture is then given its sharpness back by a Wiener filter before it is read.

A family rather than a free-form kernel fitted tap by tap: on a compressed video of a
clipped white marker a free-form fit takes the compression's ringing for blur and calls
a sharp camera blurred. Where the markers and the cards are not blurred alike (a shallow
depth of field), a trial of both pictures decides (``Sharpening``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import cv2
import numpy as np

from vision.live.calibrate_view import zone_outline_cm
from vision.live.calibration import BORDER_CM, DICTIONARY, MARKER_CM, Calibration, marker_corners_cm
from vision.live.detector import Detection

#: the blur's reach measured, in pixels of a 1080p frame (scaled with the frame's height):
#: holds a streak of 11 pixels or a defocus disk of radius 4 with a streak
REACH_PX = 6
#: the family tried, in 1080p pixels: defocus disk radii, streak lengths, and streak angles
#: (a streak is the same both ways, so half a turn, in 5° steps). A shaken camera's streak is
#: widened a little by its lens: a disk of 0.5 covers its centre pixel alone and one of 1 is
#: too wide, so without 0.75 such a streak was fitted as a thinner one turned further from the
#: nearest axis (5 pixels at 4.4°: 15°), and sharpened against the wrong streak
RADII = (0.0, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
LENGTHS = (0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0, 11.0)
ANGLES = 36
#: each camera pixel's ideal look is averaged over this many samples a side (edges antialiased)
SUPERSAMPLE = 4
#: the family's disks and streaks are drawn this many times finer, then summed down. They are
#: drawn here, not taken from ``vision.corruptions``: the loop is measured against those blurs
FINE = 8
#: a measured blur whose spread (standard deviation along its widest direction, 1080p
#: pixels) is no more than this is left as it is: the reader learnt pictures about this soft,
#: and sharpening them only amplifies the noise
SHARP_ENOUGH = 0.9
#: the Wiener filter's noise-to-signal ratio: how little of a frequency the blur may leave
#: before the filter stops trying to give it back
NOISE_TO_SIGNAL = 0.01
#: a reading this sure counts as a sure index in the trial (the committed models' referee threshold)
SURE = 0.5
#: sure indices, both pictures' together, the trial counts before it settles (about ten plays' worth)
TRIAL_SURE = 120
#: the sharpened picture is used only where it reads this many times as many sure indices as
#: the plain one: a blur worth undoing leaves the plain picture reading far fewer, and a filter
#: for a blur the cards do not have makes up a few sure readings of its own round the edges it rings
CLEARLY_BETTER = 1.5
#: the fewest usable pixels a marker must show to count (a hand over it, glare)
LEAST_PIXELS = 200
#: grey levels this near the sensor's floor or ceiling are clipped: they say nothing of the blur
CLIPPED = 4


@dataclass(frozen=True)
class Blur:
    """This camera's blur, in pixels of this frame: a defocus disk of ``radius`` and a
    streak ``length`` long at ``angle`` (radians, image x toward y), and ``residual``: how
    far (grey levels) the markers' pixels are from their blurred ideal, noise and all."""

    radius: float
    length: float
    angle: float
    residual: float

    @property
    def kernel(self) -> np.ndarray:
        return blur_kernel(round(self.radius, 3), round(self.length, 3), round(self.angle, 4))

    @cached_property
    def spread(self) -> float:
        """Asked on every zone read (``Sharpening.mode``): worked out once."""
        return spread(self.kernel)

    def worth_sharpening(self, frame_height: int) -> bool:
        return self.spread > SHARP_ENOUGH * frame_height / 1080

    def to_json(self) -> dict:
        return {"defocus_px": round(self.radius, 2), "streak_px": round(self.length, 2),
                "streak_deg": round(math.degrees(self.angle)), "spread_px": round(self.spread, 2),
                "residual": round(self.residual, 1)}


def reach(frame_height: int) -> int:
    return max(2, int(math.ceil(REACH_PX * frame_height / 1080)))


@lru_cache(maxsize=1024)
def blur_kernel(radius: float, length: float, angle: float) -> np.ndarray:
    """A defocus disk of ``radius`` pixels convolved with a streak ``length`` pixels long at
    ``angle``: odd square, centred, summing to 1. Both are drawn ``FINE`` times finer and
    summed down, so their edges weigh what they cover."""
    half = int(math.ceil(radius + length / 2)) + 1
    side = 2 * half + 1
    kernel = _disk(radius, side)
    if length > 0:
        kernel = cv2.filter2D(kernel, -1, _streak(length, angle, side), borderType=cv2.BORDER_CONSTANT)
    return (kernel / kernel.sum()).astype(np.float32)


def _fine_coords(side: int) -> np.ndarray:
    """Sample positions, FINE a pixel, relative to the centre pixel's centre."""
    return (np.arange(side * FINE) + 0.5) / FINE - side / 2


def _disk(radius: float, side: int) -> np.ndarray:
    if radius <= 0:
        out = np.zeros((side, side), np.float32)
        out[side // 2, side // 2] = 1.0
        return out
    c = _fine_coords(side)
    inside = (c[None, :] ** 2 + c[:, None] ** 2 <= radius * radius).astype(np.float32)
    return inside.reshape(side, FINE, side, FINE).sum(axis=(1, 3))


def _streak(length: float, angle: float, side: int) -> np.ndarray:
    """A straight segment ``length`` long through the centre: points along it every 1/FINE
    pixel, each counted in the pixel it falls in."""
    steps = np.linspace(-length / 2, length / 2, max(2, int(length * FINE)))
    xs = np.floor(steps * math.cos(angle) + side / 2).astype(int)
    ys = np.floor(steps * math.sin(angle) + side / 2).astype(int)
    out = np.zeros((side, side), np.float32)
    np.add.at(out, (ys.clip(0, side - 1), xs.clip(0, side - 1)), 1.0)
    return out / out.sum()


def spread(kernel: np.ndarray) -> float:
    """The kernel's standard deviation along its widest direction, in pixels."""
    n = kernel.shape[0]
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
    k = kernel / kernel.sum()
    mx, my = (k * xs).sum(), (k * ys).sum()
    cxx, cyy = (k * (xs - mx) ** 2).sum(), (k * (ys - my) ** 2).sum()
    cxy = (k * (xs - mx) * (ys - my)).sum()
    return float(math.sqrt(max(np.linalg.eigvalsh(np.array([[cxx, cxy], [cxy, cyy]])).max(), 0.0)))


def marker_cells(marker_id: int) -> np.ndarray:
    """The marker and its white border as one value a centimetre cell (8×8 for a 6 cm marker
    with a 1 cm border): 1 white, 0 black."""
    cells, border = int(round(MARKER_CM)), int(round(BORDER_CM))
    inner = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker_id, cells)
    out = np.ones((cells + 2 * border, cells + 2 * border), np.float32)
    out[border:border + cells, border:border + cells] = inner / 255.0
    return out


def ideal_marker(marker_id: int, calibration: Calibration, shape: tuple[int, ...]
                 ) -> tuple[tuple[int, int], np.ndarray] | None:
    """How marker ``marker_id`` and its white border look to a perfectly sharp camera where the
    calibration puts them: ((x0, y0), the picture in 0..1, NaN where it shows anything else),
    or None where they are not wholly in the frame."""
    cells = marker_cells(marker_id)
    side = cells.shape[0]
    corners = marker_corners_cm(marker_id)  # top-left, top-right, bottom-right, bottom-left
    centre = corners.mean(axis=0)
    outer = calibration.to_image(centre + (corners - centre) * (side / MARKER_CM))
    x0, y0 = np.floor(outer.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 2
    if x0 < 0 or y0 < 0 or x1 > shape[1] or y1 > shape[0]:
        return None
    to_cells = cv2.getPerspectiveTransform(outer.astype(np.float32),
                                           np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32))
    s = SUPERSAMPLE
    xs = x0 + (np.arange((x1 - x0) * s) + 0.5) / s - 0.5
    ys = y0 + (np.arange((y1 - y0) * s) + 0.5) / s - 0.5
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
    u, v = cv2.perspectiveTransform(grid, to_cells.astype(np.float64)).reshape(-1, 2).T
    inside = (u >= 0) & (u < side) & (v >= 0) & (v < side)
    values = np.full(u.shape, np.nan, np.float32)
    values[inside] = cells[v[inside].astype(int), u[inside].astype(int)]
    picture = values.reshape(y1 - y0, s, x1 - x0, s).mean(axis=(1, 3))  # NaN wherever a sample is outside
    return (int(x0), int(y0)), picture


@lru_cache(maxsize=8)
def family(frame_height: int) -> tuple[tuple[tuple[float, float, float], ...], np.ndarray]:
    """The blurs tried on a frame this tall (in its pixels) and their kernels, each padded to
    the reach and flattened (blurs × (2·reach + 1)²)."""
    scale = frame_height / 1080
    r = reach(frame_height)
    side = 2 * r + 1
    members, kernels = [], []
    for radius in RADII:
        for length in LENGTHS:
            for k in range(1 if length == 0 else ANGLES):
                blur = (radius * scale, length * scale, k * math.pi / ANGLES)
                kernel = blur_kernel(round(blur[0], 3), round(blur[1], 3), round(blur[2], 4))
                if kernel.shape[0] > side:
                    continue
                pad = (side - kernel.shape[0]) // 2
                members.append(blur)
                kernels.append(np.pad(kernel, pad).ravel())
    return tuple(members), np.stack(kernels, axis=1)


def measure(image: np.ndarray, calibration: Calibration) -> Blur | None:
    """This camera's blur, from the markers the calibration found in ``image``: the member of
    the family under which their ideal look, scaled to each marker's own black and white (the
    light differs across a table), comes closest to how they look. Pixels at the sensor's
    floor or ceiling say nothing of the blur and are left out. None where no marker shows
    enough pixels to say."""
    grey = (image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)).astype(np.float32)
    r = reach(image.shape[0])
    side = 2 * r + 1
    members, kernels = family(image.shape[0])
    misfit = np.zeros(len(members))
    counted = 0
    for marker_id in calibration.markers:
        drawn = ideal_marker(marker_id, calibration, grey.shape)
        if drawn is None:
            continue
        (x0, y0), ideal = drawn
        if min(ideal.shape) <= side:
            continue
        windows = np.lib.stride_tricks.sliding_window_view(ideal, (side, side))
        seen = grey[y0 + r:y0 + r + windows.shape[0], x0 + r:x0 + r + windows.shape[1]]
        usable = ~np.isnan(windows).any(axis=(2, 3)) & (seen > CLIPPED) & (seen < 255 - CLIPPED)
        if usable.sum() < LEAST_PIXELS:
            continue
        # each usable pixel's neighbourhood of the ideal, weighed by each blur as cv2.filter2D weighs
        blurred = windows[usable].reshape(-1, side * side) @ kernels  # pixels × blurs
        looks = seen[usable]
        blurred -= blurred.mean(axis=0)
        looks = looks - looks.mean()
        gain = (blurred * looks[:, None]).sum(axis=0) / np.maximum((blurred ** 2).sum(axis=0), 1e-9)
        miss = ((looks[:, None] - blurred * gain) ** 2).sum(axis=0)
        misfit += np.where(gain > 0, miss, np.inf)
        counted += len(looks)
    if not counted:
        return None
    best = int(np.argmin(misfit))
    radius, length, angle = members[best]
    return Blur(radius, length, angle, float(math.sqrt(misfit[best] / counted)))


def sharpened(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``image`` (uint8, any channels) given back what ``kernel`` blurred (as cv2.filter2D
    blurs), as far as a Wiener filter can: padded by reflection first, so the picture's
    edges do not wrap round into each other."""
    r = kernel.shape[0] // 2
    padded = cv2.copyMakeBorder(image, 2 * r, 2 * r, 2 * r, 2 * r, cv2.BORDER_REFLECT)
    h, w = padded.shape[:2]
    # filter2D correlates: the frame is the sharp picture convolved with the kernel turned half round
    origin = np.zeros((h, w), np.float32)
    origin[:kernel.shape[0], :kernel.shape[1]] = kernel[::-1, ::-1]
    origin = np.roll(origin, (-r, -r), axis=(0, 1))
    response = np.fft.rfft2(origin)
    inverse = np.conj(response) / (np.abs(response) ** 2 + NOISE_TO_SIGNAL)
    channels = padded.reshape(h, w, -1).astype(np.float32)
    out = np.empty_like(channels)
    for c in range(channels.shape[2]):
        out[..., c] = np.fft.irfft2(np.fft.rfft2(channels[..., c]) * inverse, s=(h, w))
    return np.clip(out[2 * r:h - 2 * r, 2 * r:w - 2 * r], 0, 255).astype(np.uint8).reshape(image.shape)


def sharpened_zone(image: np.ndarray, calibration: Calibration, seat: str, blur: Blur
                   ) -> tuple[np.ndarray, Calibration]:
    """The part of ``image`` under ``seat``'s zone, sharpened (``sharpened``), and the
    calibration moved to match it: a zone is then rectified from it as from the whole frame.
    Only the zone's part is filtered, for the time: a zone of 1080p is about a fifteenth of
    the frame."""
    pixels = calibration.to_image(zone_outline_cm(seat))
    margin = 3 * reach(image.shape[0])
    x0, y0 = np.maximum(np.floor(pixels.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(np.ceil(pixels.max(axis=0)).astype(int) + margin, (image.shape[1], image.shape[0]))
    part = sharpened(image[y0:y1, x0:x1], blur.kernel)
    moved = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ calibration.homography
    return part, replace(calibration, homography=moved)


@dataclass
class Sharpening:
    """Whether this camera's zones are read sharpened. The markers lie at the table's corners
    and the cards nearer its middle: with a shallow depth of field the two are not blurred
    alike, and a Wiener filter for a blur the cards do not have rings round every card
    edge and reads worse than the plain picture. So a camera whose markers are blurred
    enough (``Blur.worth_sharpening``) is on trial: each zone read is read both ways, the
    sharpened picture used where it reads clearly more sure indices (``CLEARLY_BETTER``),
    until ``TRIAL_SURE`` sure indices are counted; then the camera keeps the sharpened
    picture if it read clearly more of them in all, else the plain one."""

    blur: Blur | None = None
    frame_height: int = 1080
    plain: int = 0  # sure indices the plain pictures read on trial
    sharp: int = 0  # ... and the sharpened ones

    @property
    def mode(self) -> str:
        """``off`` (the plain picture), ``trial`` (both) or ``on`` (the sharpened one)."""
        if self.blur is None or not self.blur.worth_sharpening(self.frame_height):
            return "off"
        if self.plain + self.sharp < TRIAL_SURE:
            return "trial"
        return "on" if self.sharp >= CLEARLY_BETTER * self.plain else "off"

    def weigh(self, plain: list[Detection], sharp: list[Detection]) -> bool:
        """One zone read both ways: counted, and whether the
        sharpened picture read clearly more sure indices."""
        p = sum(d.conf >= SURE for d in plain)
        s = sum(d.conf >= SURE for d in sharp)
        self.plain += p
        self.sharp += s
        return s > p and s >= CLEARLY_BETTER * p

    def to_json(self) -> dict:
        return {**(self.blur.to_json() if self.blur is not None else {}), "mode": self.mode,
                "sure_plain": self.plain, "sure_sharpened": self.sharp}
