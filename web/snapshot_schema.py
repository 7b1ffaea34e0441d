"""The snapshot's types (``web.snapshot_types``) as a JSON Schema, for whoever reads the stream
without this code: ``web/static/snapshot.schema.json``, written by ``python -m
web.snapshot_schema``.

Made from the types rather than written beside them, so the two cannot say different things:
each ``TypedDict`` is a closed object (a field the snapshot gains is a field its type gains
first), ``NotRequired`` fields are the ones not required, ``Literal`` strings are enums, and
the engine's seats, sides, cards and actions are named definitions. The tests check that the
committed file is what this makes, and hold real snapshots to it.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Literal, NotRequired, Union, get_args, get_origin

from engine.cards import Card
from engine.phases import Action, Phase
from engine.seats import Seat, Side
from web.snapshot_types import HallSummary, Snapshot

#: where the schema is kept, served with the pages' script
SCHEMA_FILE = Path(__file__).parent / "static" / "snapshot.schema.json"
#: the engine's named values, each one definition of the schema
NAMED: dict[str, object] = {"Seat": Seat, "Side": Side, "Action": Action, "Phase": Phase}
CARD: dict[str, object] = {"type": "string", "pattern": "^([SHCD][2-9TJQKA]|SB|HR)$",
        "description": "A card as the platform writes it: suit then rank, SB and HR the jokers (DESIGN §3)."}
_SCALARS: dict[object, dict[str, object]] = {str: {"type": "string"}, int: {"type": "integer"},
                                              float: {"type": "number"}, bool: {"type": "boolean"},
                                              type(None): {"type": "null"}, object: {}}


class _Builder:
    """Definitions gathered while the types are walked."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, object]] = {"Card": CARD}

    def of(self, tp: object) -> dict[str, object]:
        """The schema of one Python type."""
        origin, args = get_origin(tp), get_args(tp)
        if origin is Annotated:  # a schema of its own (a play's triple)
            return dict(args[1].schema)
        for name, named in NAMED.items():
            if tp == named:
                if name not in self.defs:
                    self.defs[name] = {"enum": list(get_args(named))}
                return {"$ref": f"#/$defs/{name}"}
        if tp is Card:
            return {"$ref": "#/$defs/Card"}
        if tp in _SCALARS:
            return dict(_SCALARS[tp])
        if typing.is_typeddict(tp):
            return self._object(tp)
        if origin is Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.of(a) for a in args]}
        if origin in (list, tuple):
            return {"type": "array", "items": self.of(args[0])}
        if origin is dict:
            out: dict[str, object] = {"type": "object", "additionalProperties": self.of(args[1])}
            if args[0] is not str:
                out["propertyNames"] = self.of(args[0])
            return out
        raise TypeError(f"no JSON Schema for {tp!r}")

    def _object(self, td: typing.Any) -> dict[str, object]:
        name = td.__name__
        if name not in self.defs:
            self.defs[name] = {}  # taken: a type that holds itself refers to this
            properties, required = {}, []
            for key, hint in typing.get_type_hints(td, include_extras=True).items():
                if get_origin(hint) is NotRequired:
                    hint = get_args(hint)[0]
                else:
                    required.append(key)
                properties[key] = self.of(hint)
            self.defs[name] = {"type": "object", "description": " ".join((td.__doc__ or "").split()),
                               "properties": properties, "required": required, "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}


def schema() -> dict[str, object]:
    """The JSON Schema of a table's snapshot; the hall's card of a table is ``$defs/HallSummary``."""
    build = _Builder()
    root = build.of(Snapshot)
    build.defs["HallSummary"] = build.of(HallSummary)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "A table's snapshot, as the pages are sent it (web/snapshot_types.py)",
            **root, "$defs": dict(sorted(build.defs.items()))}


def text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(schema(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    SCHEMA_FILE.write_text(text(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_FILE}\n")
