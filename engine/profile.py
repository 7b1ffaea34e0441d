"""Rule profiles: every point on which the events' rule books disagree, as data.

RULES.md names each disagreement; each is a field here, and the values for each event live
in TOML files (``rulebook/profiles/*.toml``) rather than in ``if`` chains. The dataclass
fields *are* the schema: a key the schema lacks, or a field the file lacks, is an error
naming the file and the dotted key, so a typo in a tournament's profile cannot silently
fall back to some default.

This module only turns already-read data into a ``Profile``; reading the files is
``rulebook.profiles.load``'s job (the engine does no I/O).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass

from engine.cards import NATURAL, parse_level


class ProfileError(ValueError):
    """A profile file with a missing, unknown or ill-typed key. Like a tournament's refusal
    (``engine.tournament.TournamentError``) it is named by a ``code`` and the ``values`` its
    words need — ``source`` (the file or name) and ``key`` (the dotted key) always among
    them — because the people who read it are referees and organisers who read Chinese
    or English: the words are the rule books' (``rulebook.tournament_live.REFUSALS``), and
    ``rulebook.profiles.load`` raises them worded. ``str`` gives the code and values, for
    a log.

    >>> str(ProfileError("profile_missing_key", source="my.toml", key="report.threshold"))
    'my.toml: report.threshold: profile_missing_key'
    """

    def __init__(self, code: str, *, source: str, key: str, **values: object) -> None:
        super().__init__(code, source, key, values)
        self.code = code
        self.source = source
        self.key = key
        self.values: dict[str, object] = {"source": source, "key": key, **values}

    def __str__(self) -> str:
        extra = [f"{k}={v!r}" for k, v in self.values.items() if k not in ("source", "key")]
        return " ".join([f"{self.source}: {self.key}: {self.code}", *extra])


def _choice(source: str, key: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ProfileError("profile_choice", source=source, key=key, value=value, allowed=", ".join(allowed))


@dataclass(frozen=True)
class About:
    """Who uses this profile and where its rules come from."""

    name: str
    title_zh: str
    title_en: str
    sources: list[str]


@dataclass(frozen=True)
class Levels:
    """Upgrades (升级) and the must-play levels (A必打)."""

    #: levels gained by the winning side, by the place of the winner's partner ("2" = 二游)
    upgrades: dict[str, int]
    #: levels an upgrade stops at instead of skipping (A for every source)
    must_play: list[str]
    #: places of the winner's partner with which a side at A passes it
    pass_a_partner_places: list[int]
    #: failed attempts at A after which the side goes back (0: play A again until passed)
    a_failure_limit: int
    a_failure_reset_to: str


@dataclass(frozen=True)
class ReturnRule:
    """Which card may be returned (还贡) to a player of a given relation."""

    #: highest natural rank allowed ("" = any rank)
    max_rank: str
    jokers: bool
    level_cards: bool


@dataclass(frozen=True)
class Tribute:
    """Tribute (进贡), double down (双下), resisting (抗贡) and returns (还贡)."""

    #: equal tribute cards in a double down: each tributer gives to their next player
    #: ("counter_clockwise"), to their previous player ("clockwise"), or they choose
    double_down_equal: str
    #: who leads after equal double-down tributes
    double_down_equal_leader: str
    #: big jokers the tributer(s) must hold between them to resist
    resist_big_jokers: int
    return_to_partner: ReturnRule
    return_to_opponent: ReturnRule


@dataclass(frozen=True)
class Report:
    """Card-count reports (报牌)."""

    #: a player with this many cards or fewer must report
    threshold: int
    #: "each_play": after every play at or below the threshold; "once": when first reaching
    #: it, and never again (linyi: 报牌后…不得再次报牌; a repeated report is a warning)
    mode: str


@dataclass(frozen=True)
class PlayRules:
    #: no non-bomb play has more cards than this (linquan states it; true of every type)
    max_cards_non_bomb: int
    #: reading of a lead with several readings and no layout or declaration
    lead_reading: str


@dataclass(frozen=True)
class Points:
    win: int
    draw: int
    loss: int


@dataclass(frozen=True)
class Award:
    """What the non-offending side scores for a forfeit or a bye (the other side 0)."""

    points: int
    level_points: int
    small_points: int


@dataclass(frozen=True)
class Match:
    """Match length, time called, ties and the scores a match produces."""

    minutes: int
    knockout_minutes: int
    #: time is called this many minutes before the end: the hand in progress is played out,
    #: no new one starts (jiangsu 2016: at "3 minutes left"; linquan: at 5 minutes left)
    call_minutes_before_end: int
    #: a hand counts after time is called once it has been dealt ("deal") or once its
    #: first card has been played ("first_play")
    time_called_counts: str
    #: equal levels when time ends: "extra_hand", "first_to_level" or "draw"
    tie: str
    points: Points
    #: level-difference points (级差分): the scale a match is scored on (26 for 13 levels)
    level_points_scale: int
    forfeit: Award
    bye: Award


@dataclass(frozen=True)
class Stalling:
    """Deliberate stalling: at this many seconds, the opponents gain this many levels."""

    seconds: int
    levels: int


@dataclass(frozen=True)
class Time:
    """Time per action in seconds (读秒); 0 where the rules set no limit."""

    tribute: int
    give_back: int
    first_lead: int
    play: int
    #: what repeated overruns lead to, in order
    escalation: list[str]
    stalling: list[Stalling]


@dataclass(frozen=True)
class Step:
    """``count`` penalties of kind ``penalty`` make one of kind ``becomes``."""

    penalty: str
    count: int
    becomes: str


@dataclass(frozen=True)
class Penalties:
    ladder: list[Step]
    #: a foul ends the hand, the offenders scored as a double down, no tribute next hand
    foul_scores_double_down: bool


@dataclass(frozen=True)
class Tiebreak:
    chain: list[str]


@dataclass(frozen=True)
class Profile:
    profile: About
    levels: Levels
    tribute: Tribute
    report: Report
    play: PlayRules
    match: Match
    time: Time
    penalties: Penalties
    tiebreak: Tiebreak

    @property
    def name(self) -> str:
        return self.profile.name

    @classmethod
    def from_dict(cls, data: dict, source: str = "<profile>") -> Profile:
        """Build and check a profile; ``ProfileError`` names ``source`` and the bad key."""
        profile = _build(cls, data, source, "")
        _check_values(profile, source)
        return profile


PENALTIES = ("warning", "violation", "foul", "level_loss", "match_loss", "disqualification")
TIEBREAKS = ("points", "wins", "upgrades", "level_points", "small_points", "lot")


def _build(cls: typing.Any, data: object, source: str, prefix: str) -> typing.Any:
    """An instance of the dataclass ``cls`` from a TOML table, its fields checked by their hints."""
    if not isinstance(data, dict):
        raise ProfileError("profile_not_table", source=source, key=prefix.rstrip(".") or "(top)", value=data)
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields:
            raise ProfileError("profile_unknown_key", source=source, key=prefix + key)
    values = {}
    for name in fields:
        key = prefix + name
        if name not in data:
            raise ProfileError("profile_missing_key", source=source, key=key)
        values[name] = _convert(hints[name], data[name], source, key)
    return cls(**values)


def _convert(hint: typing.Any, value: object, source: str, key: str) -> object:
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return _build(hint, value, source, key + ".")
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise ProfileError("profile_not_list", source=source, key=key, value=value)
        return [_convert(item, v, source, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        _, item = typing.get_args(hint)
        if not isinstance(value, dict):
            raise ProfileError("profile_not_table", source=source, key=key, value=value)
        return {str(k): _convert(item, v, source, f"{key}.{k}") for k, v in value.items()}
    if hint is bool and not isinstance(value, bool):
        raise ProfileError("profile_not_bool", source=source, key=key, value=value)
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProfileError("profile_not_whole", source=source, key=key, value=value)
    if hint is str and not isinstance(value, str):
        raise ProfileError("profile_not_string", source=source, key=key, value=value)
    return value


def _check_values(p: Profile, source: str) -> None:
    for place in ("2", "3", "4"):
        if place not in p.levels.upgrades:
            raise ProfileError("profile_missing_key", source=source, key=f"levels.upgrades.{place}")
    for lv in p.levels.must_play + [p.levels.a_failure_reset_to]:
        try:
            parse_level(lv)
        except ValueError:
            raise ProfileError("profile_level", source=source, key="levels", value=lv) from None
    for rel in ("return_to_partner", "return_to_opponent"):
        rank = getattr(p.tribute, rel).max_rank
        if rank and (rank not in NATURAL or rank in ("B", "R")):
            raise ProfileError("profile_rank", source=source, key=f"tribute.{rel}.max_rank", value=rank)
    _choice(source, "tribute.double_down_equal", p.tribute.double_down_equal,
            ("counter_clockwise", "clockwise", "tributers_choose"))
    _choice(source, "tribute.double_down_equal_leader", p.tribute.double_down_equal_leader,
            ("gave_to_winner", "winner_previous", "tributers_choose"))
    _choice(source, "report.mode", p.report.mode, ("each_play", "once"))
    _choice(source, "play.lead_reading", p.play.lead_reading, ("lowest", "highest"))
    _choice(source, "match.time_called_counts", p.match.time_called_counts, ("deal", "first_play"))
    _choice(source, "match.tie", p.match.tie, ("extra_hand", "first_to_level", "draw"))
    for i, pen in enumerate(p.time.escalation):
        _choice(source, f"time.escalation[{i}]", pen, PENALTIES)
    for i, step in enumerate(p.penalties.ladder):
        _choice(source, f"penalties.ladder[{i}].penalty", step.penalty, PENALTIES)
        _choice(source, f"penalties.ladder[{i}].becomes", step.becomes, PENALTIES)
    for i, name in enumerate(p.tiebreak.chain):
        _choice(source, f"tiebreak.chain[{i}]", name, TIEBREAKS)


def merge(base: dict, override: dict) -> dict:
    """Deep-merge two profile tables (``extends``): tables merge, other values replace."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
