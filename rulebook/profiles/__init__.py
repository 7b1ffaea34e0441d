"""The bundled rule profiles (TOML files beside this module) and loading them from disk.

``load("jiangsu")`` reads a bundled profile; ``load("path/to/my-event.toml")`` reads a
tournament's own. A file may start from another with ``extends = "linyi"`` and override
only what differs (see ``linyi_notice.toml``).

A profile that cannot be read is a ``BadProfile``: the engine's ``ProfileError`` (a code,
the file and the key) in the rule books' words, since the organiser who mistyped a name or a
key reads Chinese or English (``rulebook.tournament_live.REFUSALS``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from engine.profile import Profile, ProfileError, merge
from rulebook.tournament_live import refusal

HERE = Path(__file__).parent
DEFAULT = "jiangsu"


class BadProfile(ProfileError):
    """A ``ProfileError`` in words: ``str`` gives both languages, Chinese first (a terminal
    or a log with no language chosen), ``text(lang)`` the asker's first."""

    def __str__(self) -> str:
        return refusal(self.code, "zh", **self.values)

    def text(self, lang: str) -> str:
        return refusal(self.code, lang, **self.values)


def names() -> list[str]:
    """The bundled profiles' names."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def _path(name_or_path: str) -> Path:
    if name_or_path in names():
        return HERE / f"{name_or_path}.toml"
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return path
    raise BadProfile("profile_unknown", source=name_or_path, key="(file)", names=", ".join(names()))


def _read(path: Path, seen: tuple[Path, ...] = ()) -> dict:
    if path in seen:
        raise BadProfile("profile_circle", source=str(path), key="extends")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BadProfile("profile_toml", source=str(path), key="(file)", why=str(exc)) from None
    except OSError as exc:
        raise BadProfile("profile_unreadable", source=str(path), key="(file)", why=exc.strerror) from None
    base = data.pop("extends", None)
    if base is None:
        return data
    if not isinstance(base, str):
        raise BadProfile("profile_extends", source=str(path), key="extends", value=base)
    return merge(_read(_path(base), seen + (path,)), data)


@cache
def load(name_or_path: str = DEFAULT) -> Profile:
    """A checked ``Profile``; ``BadProfile`` names the file and key that are wrong."""
    path = _path(name_or_path)
    data = _read(path)
    try:
        return Profile.from_dict(data, str(path))
    except ProfileError as exc:  # the engine's, in codes: given the rule books' words
        raise BadProfile(exc.code, **exc.values) from None
