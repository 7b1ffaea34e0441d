"""The camera round trip: what a zone image goes through between the table and the detector.

At run time a zone image is cut out of a camera frame by a homography, so every pixel
the detector sees was (1) sampled by a camera at its own, usually coarser, resolution
under a perspective, (2) blurred by optics and motion, (3) given sensor noise and JPEG
blocks in camera pixels, then (4) resampled back into the rectified plane. Simulating it
in that order puts the noise and the blocking artefacts where real ones are (stretched
and smoothed by the warp) instead of crisp on the zone grid. Geometry is unchanged: the
warp back is the exact inverse, so the labels drawn in the zone plane still hold.

Each round trip also says how sharp its result is (``Capture``): how many camera pixels
fell on a centimetre of the table, and how wide the blur was. An index photographed at
3 px/cm, or smeared by a moving camera, cannot be read by anyone; the evaluation and the
reader's training need to know which labels those are (``sharp_px_per_cm``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.raster import gaussian_noise


@dataclass(frozen=True)
class CameraConfig:
    """Ranges for the round trip (each image draws its own values)."""

    scale: tuple[float, float] = (0.5, 1.1)      # camera pixels per zone pixel
    warp: float = 0.06                            # corner displacement / image size
    motion_prob: float = 0.2
    motion_px: tuple[float, float] = (1.5, 5.0)   # smear length when there is one
    defocus_prob: float = 0.35
    defocus_px: tuple[float, float] = (0.3, 1.0)  # Gaussian sigma when out of focus
    noise: tuple[float, float] = (1.0, 7.0)       # read noise sigma, 0..255
    jpeg_prob: float = 0.8
    jpeg_quality: tuple[int, int] = (30, 95)
    #: how far the camera leans from looking straight down (degrees, drawn per image). Above
    #: 0 the picture is left as such a camera took it — a phone photo from a chair, the near
    #: cards bigger than the far ones, all of them foreshortened — not rectified back into
    #: the table plane: what ``guandan detect`` is given by people, not by the table's camera
    tilt: tuple[float, float] = (0.0, 0.0)

    @property
    def oblique(self) -> bool:
        return self.tilt[1] > 0


@dataclass(frozen=True)
class Capture:
    """How one zone image was photographed: the drawn camera settings, in camera pixels."""

    scale: float          # camera pixels per zone pixel
    motion_px: float      # length of the motion smear (0: none)
    defocus_px: float     # Gaussian defocus sigma (0: in focus)

    def blur_sigma(self) -> float:
        """The spread of the camera's point image (camera px): a pixel's own half pixel,
        the defocus, and the smear as a box of its length (variance L²/12)."""
        return float(np.sqrt(0.25 + self.defocus_px ** 2 + self.motion_px ** 2 / 12))

    def sharp_px_per_cm(self, px_per_cm: float) -> float:
        """Pixels per centimetre of the table that carry detail: the camera's own
        resolution, divided by how much wider than a pixel its blur is."""
        return px_per_cm * self.scale * 0.5 / self.blur_sigma()


def random_homography(rng: np.random.Generator, size: int, scale: float,
                      warp: float) -> tuple[np.ndarray, tuple[int, int]]:
    """A mild perspective from the zone square to a camera image; returns (H, camera size)."""
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    dst = src * scale + rng.normal(0, warp * size * scale, (4, 2)).astype(np.float32)
    dst -= dst.min(axis=0)
    w, h = (np.ceil(dst.max(axis=0)) + 1).astype(int)
    return cv2.getPerspectiveTransform(src, dst), (int(w), int(h))


def motion_kernel(rng: np.random.Generator, length: float) -> np.ndarray:
    n = max(3, int(np.ceil(length)) | 1)
    k = np.zeros((n, n), np.float32)
    a = rng.uniform(0, np.pi)
    c = (n - 1) / 2
    d = np.array([np.cos(a), np.sin(a)]) * length / 2
    cv2.line(k, (int(round((c - d[0]) * 16)), int(round((c - d[1]) * 16))),
             (int(round((c + d[0]) * 16)), int(round((c + d[1]) * 16))), 1.0, 1, cv2.LINE_AA, 4)
    return k / max(k.sum(), 1e-6)


def oblique_homography(rng: np.random.Generator, size: int, tilt: tuple[float, float]) -> np.ndarray:
    """The zone square as a camera leaning ``tilt`` degrees (drawn) from straight down, in a
    direction drawn at random, sees it from about a zone and a half away: the homography from
    the zone to a ``size``-pixel square picture that holds all of the zone, centred. The
    whole zone fits, so no card is drawn bigger than the zone has it (``local_scale`` < 1
    everywhere): a picture cannot show more detail than was rendered."""
    yaw, lean = rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(*tilt))
    half = size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    turn = np.array([[np.cos(yaw), -np.sin(yaw)], [np.sin(yaw), np.cos(yaw)]])
    x, y = (corners @ turn.T).T
    # lean about the picture's x axis: y goes into depth; then a pinhole at 1.5 zones away
    depth = 1.5 * size + y * np.sin(lean)
    seen = np.stack([x / depth, y * np.cos(lean) / depth], axis=1)
    seen -= (seen.min(axis=0) + seen.max(axis=0)) / 2
    seen *= 0.96 * size / (seen.max(axis=0) - seen.min(axis=0)).max()
    return cv2.getPerspectiveTransform(corners.astype(np.float32) + np.float32(half),
                                       (seen + half).astype(np.float32))


def local_scale(hom: np.ndarray, point: tuple[float, float]) -> float:
    """How many picture pixels a zone pixel spans at ``point`` under ``hom``: the square root
    of the area the homography gives a small square there."""
    x, y = point
    h = np.asarray(hom, np.float64)
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u, v = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    jac = np.array([[h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]], [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]]]) / w
    return float(np.sqrt(abs(np.linalg.det(jac))))


def camera_round_trip(img: np.ndarray, rng: np.random.Generator,
                      cfg: CameraConfig = CameraConfig()) -> tuple[np.ndarray, Capture]:
    """The zone image as the detector would get it from a real camera (uint8 BGR, same
    size), and the settings it was photographed with."""
    size = img.shape[0]
    src = np.clip(img, 0, 255).astype(np.uint8) if img.dtype != np.uint8 else img
    scale = float(rng.uniform(*cfg.scale))
    hom, cam_size = random_homography(rng, size, scale, cfg.warp)
    src = _low_pass(src, scale)
    cam = cv2.warpPerspective(src, hom, cam_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    cam, motion, defocus = _expose(cam, rng, cfg)
    interp = cv2.INTER_CUBIC if rng.random() < 0.3 else cv2.INTER_LINEAR
    back = cv2.warpPerspective(cam, np.linalg.inv(hom), (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return back, Capture(scale, motion, defocus)


def oblique_photo(img: np.ndarray, rng: np.random.Generator,
                  cfg: CameraConfig) -> tuple[np.ndarray, Capture, np.ndarray]:
    """The zone image as a leaning camera (``CameraConfig.tilt``) photographs it, left in
    that camera's perspective: the picture (uint8 BGR, same size), its settings (``scale``
    1: the picture's own pixels are the camera's; how many a zone pixel spans varies over
    the picture, ``local_scale``) and the homography from the zone to the picture, which
    the labels go through."""
    size = img.shape[0]
    src = np.clip(img, 0, 255).astype(np.uint8) if img.dtype != np.uint8 else img
    hom = oblique_homography(rng, size, cfg.tilt)
    src = _low_pass(src, local_scale(hom, (size / 2, size / 2)))
    # beyond the zone's edges the table goes on as its edge pixels (reflecting it would
    # show its cards again there, unlabelled)
    cam = cv2.warpPerspective(src, hom, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cam, motion, defocus = _expose(cam, rng, cfg)
    return cam, Capture(1.0, motion, defocus), hom


def _low_pass(src: np.ndarray, scale: float) -> np.ndarray:
    """The optics' low-pass before a sensor coarser than the zone (``scale`` camera pixels
    per zone pixel, under 0.95) samples it."""
    return cv2.GaussianBlur(src, (0, 0), 0.45 * (1 / scale - 1) + 0.3) if scale < 0.95 else src


def _expose(cam: np.ndarray, rng: np.random.Generator, cfg: CameraConfig) -> tuple[np.ndarray, float, float]:
    """What happens in the camera: motion smear and defocus, sensor noise, JPEG (drawn);
    the picture and the smear's and defocus's sizes."""
    motion = defocus = 0.0
    if rng.random() < cfg.motion_prob:
        motion = float(rng.uniform(*cfg.motion_px))
        cam = cv2.filter2D(cam, -1, motion_kernel(rng, motion))
    if rng.random() < cfg.defocus_prob:
        defocus = float(rng.uniform(*cfg.defocus_px))
        cam = cv2.GaussianBlur(cam, (0, 0), defocus)
    f = cam.astype(np.float32)
    sigma = rng.uniform(*cfg.noise)
    shot = rng.uniform(0, 0.35)
    noise = gaussian_noise(rng, f.shape[0], f.shape[1], 3)
    if rng.random() < 0.6:  # luminance noise dominates in most webcams
        noise = 0.7 * noise[..., :1] + 0.3 * noise
    f += noise * (sigma + shot * np.sqrt(np.maximum(f, 0)))
    cam = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < cfg.jpeg_prob:
        q = int(rng.integers(cfg.jpeg_quality[0], cfg.jpeg_quality[1] + 1))
        ok, buf = cv2.imencode(".jpg", cam, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            cam = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return cam, motion, defocus
