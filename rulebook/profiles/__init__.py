"""The bundled rule profiles (TOML files beside this module) and loading them from disk.

``load("jiangsu")`` reads a bundled profile; ``load("path/to/my-event.toml")`` reads a
tournament's own. A file may start from another with ``extends = "linyi"`` and override
only what differs (see ``linyi_notice.toml``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from engine.profile import Profile, ProfileError, merge

HERE = Path(__file__).parent
DEFAULT = "jiangsu"


def names() -> list[str]:
    """The bundled profiles' names."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def _path(name_or_path: str) -> Path:
    if name_or_path in names():
        return HERE / f"{name_or_path}.toml"
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return path
    raise ProfileError(
        name_or_path, "(file)",
        f"no such profile; bundled profiles are {', '.join(names())}, or give a .toml file",
    )


def _read(path: Path, seen: tuple[Path, ...] = ()) -> dict:
    if path in seen:
        raise ProfileError(str(path), "extends", "profiles extend each other in a circle")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(str(path), "(file)", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise ProfileError(str(path), "(file)", f"cannot read: {exc.strerror}") from None
    base = data.pop("extends", None)
    if base is None:
        return data
    if not isinstance(base, str):
        raise ProfileError(str(path), "extends", "expected the name of a profile")
    return merge(_read(_path(base), seen + (path,)), data)


@cache
def load(name_or_path: str = DEFAULT) -> Profile:
    """A checked ``Profile``; ``ProfileError`` names the file and key that are wrong."""
    path = _path(name_or_path)
    return Profile.from_dict(_read(path), str(path))
