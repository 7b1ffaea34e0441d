"""The stage's card faces: real deck designs cut from their SVG sheets, cached, or faces
printed from a font when no design is installed.

The designs are datasets/art-decks.toml's. Unless told otherwise the stage lays a
``heldout`` design: the second world measures the live loop, so it shows decks no model
was trained on. Aisleriot's themes (gnome-cards-data) lay their cards out as a sheet of 13
columns by 5 rows — clubs, diamonds, hearts, spades from the ace, then the black joker,
the red joker and the back — with element ids such as ``club_king`` and ``joker_red``.
``rsvg-convert --export-id`` would draw one element, but librsvg sizes an element by every
shape it holds, clipped or not, so an element alone is not a card's picture: the cutter
draws the sheet once and cuts its cells, having checked the ids that say the sheet is such
a theme.
"""

from __future__ import annotations

import gzip
import random
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.stage.printer import FACE_H, FACE_W, printed_face

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "datasets" / "art-decks.toml"
CACHE = ROOT / "datasets" / "generated" / "stage-faces"
#: the faces a renderer takes, in its order of layers
CARDS = [s + r for s in "SHCD" for r in "23456789TJQKA"] + ["SB", "HR"]
#: the design printed from a font
PRINTED = "printed"
SUIT_NAMES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
RANK_NAMES = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SHEET_ROWS = "CDHS"  # an aisleriot sheet's rows of suits, ace first; a fifth row holds the jokers


class DeckError(ValueError):
    """A design the stage cannot lay: unknown, not installed, not a card sheet it can cut."""


@dataclass(frozen=True)
class Design:
    """A deck design of the manifest."""

    name: str
    path: Path
    family: str
    split: str


def designs() -> dict[str, Design]:
    """The manifest's designs by name."""
    try:
        data = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DeckError(f"{MANIFEST}: {exc}") from None
    folders = {name: Path(p["folder"]) for name, p in data.get("packages", {}).items()}
    return {d["name"]: Design(d["name"], folders[d["package"]] / d["file"], d["family"], d["split"])
            for d in data.get("deck", [])}


def element_ids(path: Path) -> set[str]:
    """The ids of an SVG (gzipped or not)."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8", "replace")
    return set(re.findall(r'\bid="([^"]+)"', text))


def sheet_ids(card: str) -> str:
    """The element id an aisleriot sheet gives ``card``."""
    if card == "SB":
        return "joker_black"
    if card == "HR":
        return "joker_red"
    return f"{SUIT_NAMES[card[0]]}_{RANK_NAMES.get(card[1], card[1])}"


def cuttable(design: Design) -> bool:
    """Whether the design is installed and is an aisleriot sheet with both jokers."""
    if not design.path.exists():
        return False
    ids = element_ids(design.path)
    return all(sheet_ids(c) in ids for c in CARDS) and "back" in ids


def usable_heldout() -> list[str]:
    """The held-out designs the stage can lay here (installed, a sheet, both jokers)."""
    try:
        found = designs()
    except DeckError:
        return []
    return sorted(name for name, d in found.items() if d.split == "heldout" and cuttable(d))


def choose_deck(seed: int) -> str:
    """Game ``seed``'s design: a held-out one, or the printed faces where none is installed."""
    names = usable_heldout()
    return random.Random(f"stage-deck-{seed}").choice(names) if names else PRINTED


def faces(name: str) -> list[np.ndarray]:
    """The 54 faces of design ``name`` in ``CARDS``' order, RGBA FACE_H × FACE_W; cut once
    into ``CACHE`` (git-ignored)."""
    if name == PRINTED:
        return [printed_face(card) for card in CARDS]
    found = designs()
    if name not in found:
        raise DeckError(f"no deck design {name!r} in {MANIFEST.name} (try: {', '.join(usable_heldout())})")
    design = found[name]
    folder = CACHE / name
    if not all((folder / f"{card}.png").exists() for card in CARDS):
        cut(design, folder)
    out = []
    for card in CARDS:
        picture = cv2.imread(str(folder / f"{card}.png"), cv2.IMREAD_UNCHANGED)
        if picture is None or picture.shape != (FACE_H, FACE_W, 4):
            raise DeckError(f"{folder / card}.png: not a face the stage cut (delete {folder} to cut it again)")
        out.append(cv2.cvtColor(picture, cv2.COLOR_BGRA2RGBA))
    return out


def cut(design: Design, folder: Path) -> None:
    """Draw the design's sheet with rsvg-convert and cut each card's cell to a face."""
    if not design.path.exists():
        raise DeckError(f"{design.name}: {design.path} is not installed (scripts/system-packages.sh)")
    if shutil.which("rsvg-convert") is None:
        raise DeckError("rsvg-convert is not installed (Debian librsvg2-bin; scripts/system-packages.sh)")
    if not cuttable(design):
        raise DeckError(f"{design.name}: not an aisleriot card sheet with both jokers (the stage deals jokers)")
    folder.mkdir(parents=True, exist_ok=True)
    sheet_png = folder / "sheet.png"
    width = str(round(13 * FACE_W * 1.25))  # cells a little larger than a face, cut down to it
    run = subprocess.run(["rsvg-convert", "--width", width, str(design.path), "-o", str(sheet_png)],
                         capture_output=True, text=True)
    sheet = cv2.imread(str(sheet_png), cv2.IMREAD_UNCHANGED)
    if run.returncode or sheet is None or sheet.shape[2] != 4:
        raise DeckError(f"{design.name}: rsvg-convert could not draw it ({run.stderr.strip()[:200]})")
    sheet_png.unlink()
    cell_w, cell_h = sheet.shape[1] / 13, sheet.shape[0] / 5
    for card in CARDS:
        if card in ("SB", "HR"):
            row, col = 4, 0 if card == "SB" else 1
        else:
            row, col = SHEET_ROWS.index(card[0]), "A23456789TJQK".index(card[1])
        cell = sheet[round(row * cell_h):round((row + 1) * cell_h), round(col * cell_w):round((col + 1) * cell_w)]
        face = _trimmed(cell)
        face = cv2.resize(face, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(folder / f"{card}.png"), face)  # BGRA, as OpenCV read the sheet


def _trimmed(cell: np.ndarray) -> np.ndarray:
    """A cell cut to the card it holds (its opaque pixels)."""
    solid = cell[..., 3] > 128
    rows, cols = np.flatnonzero(solid.any(axis=1)), np.flatnonzero(solid.any(axis=0))
    if not len(rows) or not len(cols):
        raise DeckError("an empty cell in the card sheet")
    return cell[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
