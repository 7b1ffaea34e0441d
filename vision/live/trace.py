"""A zone trace: why the live loop did or did not record a play, zone by zone.

When a camera at a real table misses plays, the record alone cannot say why. The trace
keeps, for each seat's zone, a timeline of its state (moving, still with cards read, empty,
covered), what was read in it, how much it changed against its noise floor, and what the
table decided when it settled (recorded as a play, nothing new, waiting for the button,
cleared), with a picture of the zone as it was read at each change — the frames that
decided. Only changes are kept, not every frame: a whole hand is a few hundred lines.

``trace.jsonl`` in the folder has a line per change (codes, for tools): a zone's lines name
their ``seat``; the camera's (its blur measured on the markers at each calibration, and
whether its zones are read sharpened: ``vision.live.blur``) carry ``camera`` instead.
``trace.zh.html`` and ``trace.en.html`` put it in words, a section per seat, when the trace
is closed.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from rulebook.i18n import LANGS
from rulebook.trace_words import camera_text, decision_text, heading, seat_name, state_text

JPEG_QUALITY = 80


@dataclass
class _Zone:
    state: str = ""
    cards: tuple[str, ...] = ()
    since: float = 0.0
    lines: list[dict] = field(default_factory=list)


class ZoneTrace:
    """Writes a trace into ``folder`` as the loop goes; ``close`` writes its pages."""

    def __init__(self, folder: Path, source: str = "") -> None:
        self.folder = Path(folder)
        (self.folder / "zones").mkdir(parents=True, exist_ok=True)
        self.source = source
        self._file = (self.folder / "trace.jsonl").open("w", encoding="utf-8")
        self._zones: dict[str, _Zone] = {}
        self._camera: list[dict] = []

    def look(self, seat: str, t: float, number: int, state: str, cards: tuple[str, ...], confidence: float,
             changed: int, floor: float, picture: Callable[[], np.ndarray] | None) -> None:
        """One frame's look at a zone: written when its state or its cards differ from the
        last line's, with the zone's picture (``picture``, drawn only then) where it is still."""
        zone = self._zones.setdefault(seat, _Zone())
        if (state, cards) == (zone.state, zone.cards):
            return
        zone.state, zone.cards, zone.since = state, cards, t
        line = {"t": round(t, 3), "frame": number, "seat": seat, "state": state, "cards": list(cards),
                "confidence": round(confidence, 3), "changed": changed, "floor": round(floor, 1)}
        if picture is not None and state != "moving":
            name = f"zones/{seat}-{number:07d}.jpg"
            cv2.imwrite(str(self.folder / name), picture(), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            line["picture"] = name
        self._write(zone, line)

    def decided(self, seat: str, t: float, number: int, decision: str, **values) -> None:
        """What the table made of the zone's change (``rulebook.trace_words.DECISIONS``)."""
        zone = self._zones.setdefault(seat, _Zone())
        self._write(zone, {"t": round(t, 3), "frame": number, "seat": seat, "decision": decision, **values})

    def camera(self, t: float, number: int, **values) -> None:
        """What the camera measured of itself and how its zones are read (its blur, whether
        sharpened: ``vision.live.blur.Sharpening.to_json``), at a calibration or a change."""
        line = {"t": round(t, 3), "frame": number, "camera": values}
        self._camera.append(line)
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()

    def _write(self, zone: _Zone, line: dict) -> None:
        zone.lines.append(line)
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()  # a crash keeps what was traced until then

    def close(self) -> None:
        if self._file.closed:
            return
        self._file.close()
        for lang in LANGS:
            (self.folder / f"trace.{lang}.html").write_text(self.page(lang), encoding="utf-8")

    def page(self, lang: str) -> str:
        """The trace in words: per seat, each change in time order, with its picture."""
        out = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(heading('title', lang, source=self.source))}"
               "</title><style>body{font-family:sans-serif}td{vertical-align:top;padding:2px 8px}"
               "img{max-width:280px}</style>",
               f"<h1>{html.escape(heading('title', lang, source=self.source))}</h1>"]
        out += [f"<p>{html.escape(camera_text({'t': line['t'], **line['camera']}, lang))}</p>" for line in self._camera]
        for seat in sorted(self._zones, key="ESWN".index):
            zone = self._zones[seat]
            out.append(f"<h2>{seat_name(seat, lang)} ({seat})</h2><p>"
                       f"{html.escape(heading('stuck', lang, state=state_text(zone.state, lang), since=zone.since))}"
                       "</p><table><tr>" + "".join(f"<th>{heading(k, lang)}</th>" for k in
                                                    ("time", "frame", "state", "cards", "why", "picture")) + "</tr>")
            out += [self._row(line, lang) for line in zone.lines]
            out.append("</table>")
        return "\n".join(out)

    @staticmethod
    def _row(line: dict, lang: str) -> str:
        if "decision" in line:
            values = {k: (" ".join(v) if isinstance(v, list) else v) for k, v in line.items()}
            what, cards, why = "", "", decision_text(line["decision"], lang, **values)
        else:
            what, cards = state_text(line["state"], lang), " ".join(line["cards"])
            why = heading("changed", lang, changed=line["changed"], floor=line["floor"])
        picture = f"<img src='{line['picture']}'>" if "picture" in line else ""
        return (f"<tr><td>{line['t']:.2f}</td><td>{line['frame']}</td><td>{html.escape(what)}</td>"
                f"<td>{html.escape(cards)}</td><td>{html.escape(why)}</td><td>{picture}</td></tr>")
