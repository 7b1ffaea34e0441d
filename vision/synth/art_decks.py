"""Real deck designs for the renderer: the manifest (``datasets/art-decks.toml``) and each
deck's faces, drawn once from its SVG into a cache folder and read from there.

An ``ArtDeck`` stands where a procedural ``DeckStyle`` stands (``vision.synth.deck.card_image``
draws either), so scenes, table videos and enrollment layouts can all be rendered with real
art. The manifest's split keeps whole design families apart: a held-out family is never drawn
into a training scene.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.synth.art_faces import (
    CARD_HEIGHT_CM,
    FACE_PX_PER_CM,
    ArtError,
    IndexBox,
    deck_cards,
    draw_face,
    element_for,
    element_ids,
    find_index,
)

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "datasets" / "art-decks.toml"
CACHE = REPO / "datasets" / "generated" / "art-faces"
SPLITS = ("train", "heldout", "excluded")
CORNER_RADIUS_CM = 0.3


@dataclass(frozen=True)
class DeckEntry:
    """One line of the manifest."""

    name: str
    package: str
    svg: Path
    licence: str
    family: str
    split: str
    credit: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ArtDeck:
    """A real deck design, drawn: what the renderer needs besides the faces themselves
    (``face(deck, card)``). Hashable, so rendered cards cache as procedural ones do."""

    name: str
    family: str
    split: str
    folder: Path
    size_cm: tuple[float, float]
    corner_radius_cm: float = CORNER_RADIUS_CM

    @property
    def cards(self) -> frozenset[str]:
        """The cards this deck prints (a deck without jokers lacks ``SB`` and ``HR``)."""
        return frozenset(_index_file(self.folder)["faces"])


def load_manifest(path: Path = MANIFEST) -> list[DeckEntry]:
    """Every deck the manifest lists, checked (``ArtError`` names a bad line)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    packages = data.get("packages", {})
    out = []
    for i, deck in enumerate(data.get("deck", []), start=1):
        try:
            package = packages[deck["package"]]
            entry = DeckEntry(deck["name"], deck["package"], Path(package["folder"]) / deck["file"],
                              deck.get("licence", package["licence"]), deck["family"], deck["split"],
                              deck.get("credit", ""), deck.get("reason", ""))
        except KeyError as exc:
            raise ArtError(f"{path.name}: deck {i} lacks {exc}") from None
        if entry.split not in SPLITS:
            raise ArtError(f"{path.name}: deck {entry.name}: split {entry.split!r} is not one of {SPLITS}")
        out.append(entry)
    names = [e.name for e in out]
    if len(set(names)) != len(names):
        raise ArtError(f"{path.name}: a deck name is listed twice")
    for family in {e.family for e in out}:
        splits = {e.split for e in out if e.family == family} - {"excluded"}
        if len(splits) > 1:
            raise ArtError(f"{path.name}: family {family} is split between {sorted(splits)}")
    return out


def entries(split: str, path: Path = MANIFEST) -> list[DeckEntry]:
    return [e for e in load_manifest(path) if e.split == split]


def installed(entry: DeckEntry) -> bool:
    return entry.svg.is_file()


def draw_deck(entry: DeckEntry, cache: Path = CACHE) -> Path:
    """The deck's faces drawn into ``cache/NAME`` (PNG with alpha, ``FACE_PX_PER_CM``) with
    ``index.json`` (each face's index box); drawn once, then reused."""
    folder = cache / entry.name
    if (folder / "index.json").is_file():
        return folder
    if not installed(entry):
        raise ArtError(f"deck {entry.name}: {entry.svg} is not installed (Debian package {entry.package}; "
                       "scripts/system-packages.sh installs it)")
    ids = element_ids(entry.svg)
    height = int(round(CARD_HEIGHT_CM * FACE_PX_PER_CM))
    final = folder  # drawn beside it and renamed into place when whole: never half a deck there
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=cache))
    faces: dict[str, dict] = {}
    for card in deck_cards():
        element = element_for(card, ids)
        if element is None:
            continue
        face = draw_face(entry.svg, element, height)
        cv2.imwrite(str(folder / f"{card}.png"), face)
        found = find_index(face) if card != "back" else None
        faces[card] = {"size": [face.shape[1], face.shape[0]],
                       "index": None if found is None else index_json(found)}
    if not all(c in faces for c in [*deck_cards()[:52], "back"]):
        missing = [c for c in deck_cards() if c not in faces and c not in ("SB", "HR")]
        raise ArtError(f"deck {entry.name}: no element for {', '.join(missing)}")
    back = faces.pop("back")
    meta = {"name": entry.name, "family": entry.family, "split": entry.split, "licence": entry.licence,
            "source": str(entry.svg), "px_per_cm": FACE_PX_PER_CM, "back": back, "faces": faces}
    (folder / "index.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    try:
        folder.rename(final)
    except OSError:  # another process drew it meanwhile: keep theirs
        shutil.rmtree(folder, ignore_errors=True)
    return final


def index_json(found: IndexBox) -> dict:
    """An index box as a deck folder's ``index.json`` keeps it."""
    return {"box": [round(v, 1) for v in found.box], "rank_cm": round(found.rank_cm, 3),
            "suit_cm": round(found.suit_cm, 3)}


@functools.lru_cache(maxsize=64)
def _index_file(folder: Path) -> dict:
    return json.loads((folder / "index.json").read_text(encoding="utf-8"))


def art_deck(entry: DeckEntry, cache: Path = CACHE) -> ArtDeck:
    """The drawn deck of a manifest entry (drawn now if it has not been)."""
    return design_in(draw_deck(entry, cache), entry.name, entry.family, entry.split)


def design_in(folder: Path, name: str, family: str, split: str) -> ArtDeck:
    """A folder of drawn faces and their ``index.json`` (as ``draw_deck`` writes them, or an
    enrolled deck's) as a design the renderer lays; its card size is its faces' median."""
    meta = _index_file(folder)
    heights = [f["size"][1] for f in meta["faces"].values()]
    widths = [f["size"][0] for f in meta["faces"].values()]
    ppc = meta["px_per_cm"]
    return ArtDeck(name, family, split, folder, (float(np.median(widths)) / ppc, float(np.median(heights)) / ppc))


def art_decks(split: str, cache: Path = CACHE, path: Path = MANIFEST) -> list[ArtDeck]:
    """Every installed deck of ``split``, drawn (the first use draws each, a few seconds a deck)."""
    return [art_deck(e, cache) for e in entries(split, path) if installed(e)]


def by_name(name: str, cache: Path = CACHE, path: Path = MANIFEST) -> ArtDeck:
    """One deck of the manifest by name (``ArtError`` listing the names where none is)."""
    for entry in load_manifest(path):
        if entry.name == name:
            return art_deck(entry, cache)
    known = ", ".join(e.name for e in load_manifest(path) if e.split != "excluded")
    raise ArtError(f"no deck named {name!r} in {path.name}; decks: {known}")


@functools.lru_cache(maxsize=256)
def face(deck: ArtDeck, card: str) -> tuple[np.ndarray, IndexBox | None]:
    """A card's face (BGRA at ``FACE_PX_PER_CM``, read-only) and its top-left index; ``card``
    may be ``"back"``. A joker the deck does not print is ``KeyError``."""
    meta = _index_file(deck.folder)
    entry = meta["back"] if card == "back" else meta["faces"][card]
    image = cv2.imread(str(deck.folder / f"{card}.png"), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ArtError(f"deck {deck.name}: {card}.png is missing from {deck.folder}")
    image.flags.writeable = False
    index = entry["index"]
    return image, (None if index is None else IndexBox(tuple(index["box"]), index["rank_cm"], index["suit_cm"]))
