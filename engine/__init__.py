"""The Guandan (掼蛋) rules engine: cards, plays, legal plays, a hand and a match as state
machines fed by a game record's events, and tournaments. Pure Python, standard library
only, no I/O.

As with python-chess (``import chess; chess.Board()``), the engine's vocabulary is here
under one name; each module behind it has one job (docs/engine.md lists them).

A card is a string, suit then rank (``"S5"``, ``"HT"``; ``"SB"`` and ``"HR"`` are the
jokers), typed ``Card``; a seat is its letter, typed ``Seat``. The level being played sets
the order of ranks and the wildcard (逢人配, the heart level card), so whatever reads cards
takes the level:

>>> import engine
>>> engine.classify(["S9", "H9"], "2")
[Play(type='Pair', rank='9', cards=('S9', 'H9'))]
>>> for play in engine.classify(["H2", "S4", "C5", "D6", "S7"], "2"):  # H2 stands for a 3 or an 8
...     print(play)
Straight 3 [H2 S4 C5 D6 S7]
Straight 4 [H2 S4 C5 D6 S7]
>>> nines = engine.classify(["S9", "H9"], "2")[0]
>>> engine.legal_plays(["ST", "DT", "SQ", "HR"], nines, "2")
[Play(type='Pair', rank='T', cards=('ST', 'DT'))]
>>> engine.beats(engine.classify(["S3", "H3", "C3", "D3"], "2")[0], nines, "2")  # a bomb
True

A game is a record: JSON Lines of events. Replaying it gives the match as the table went,
with what went wrong found again (``profile`` is a rule profile, as
``rulebook.profiles.load`` reads one from its TOML file):

>>> record = engine.parse_lines([
...     '{"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": "jiangsu"}',
...     '{"seq": 1, "t": 1, "type": "deal", "leader": "E"}',
...     '{"seq": 2, "t": 4, "type": "play", "seat": "E", "cards": ["S5", "H5"]}',
...     '{"seq": 3, "t": 9, "type": "play", "seat": "N", "cards": ["S4", "D4"]}',
... ])
>>> match = engine.replay(record, {"jiangsu": profile}.get)
>>> [(v.code, v.seat) for v in match.violations]
[('does_not_beat', 'N')]
>>> match.hand.turn, match.levels
('W', {'EW': '2', 'NS': '2'})
"""

from engine.bots import self_play
from engine.card_count import CardTracker
from engine.cards import (
    ALL_CARDS,
    BIG_JOKER,
    DECK_SIZE,
    HAND_SIZE,
    JOKERS,
    RANKS,
    SMALL_JOKER,
    SUITS,
    Card,
    InvalidCard,
    card_key,
    card_order,
    full_deck,
    is_joker,
    parse_card,
    parse_cards,
    parse_level,
    rank_of,
    sort_cards,
    suit_of,
    wildcard,
)
from engine.events import (
    AlertDone,
    CameraNote,
    Correction,
    Deal,
    Event,
    Forfeit,
    GiveBack,
    Header,
    LevelAdjust,
    Missed,
    Overrun,
    Pass,
    Pause,
    Penalty,
    PlayCards,
    Press,
    RecordError,
    Report,
    Resist,
    Resume,
    Struck,
    TimeCalled,
    Tribute,
    event_from_json,
    with_corrections,
)
from engine.hand import Hand, Outcome, correct_tributes, return_allowed
from engine.layout import laid_out, reading_from_layout
from engine.legal import legal_plays
from engine.match import Entry, Match, Result, match_result
from engine.phases import Action, Awaiting, Phase
from engine.plays import (
    BOMB,
    JOKER_RANK,
    PAIR,
    PASS,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_PAIR,
    THREE_WITH_TWO,
    TRIPS,
    TWO_TRIPS,
    TYPES,
    InvalidPlay,
    Play,
    PlayType,
    Reading,
    beats,
    classify,
    parse_play,
    strength,
)
from engine.profile import Profile, ProfileError
from engine.record import Record, dumps, parse_lines, read_line, replay, violation_line
from engine.seats import (
    PLAY_ORDER,
    SEATS,
    SIDES,
    Seat,
    Side,
    next_seat,
    other_side,
    partner,
    prev_seat,
    seat_or_none,
    seats_of,
    side_of,
    side_or_none,
)
from engine.standings import Score, Standing
from engine.timing import TableClock
from engine.tournament import Pair, Tournament, TournamentError, arrange, planned_rounds
from engine.trick import Top, Turn
from engine.violations import Violation

__all__ = [
    # cards (engine.cards)
    "ALL_CARDS", "BIG_JOKER", "DECK_SIZE", "HAND_SIZE", "JOKERS", "RANKS", "SMALL_JOKER", "SUITS",
    "Card", "InvalidCard", "card_key", "card_order", "full_deck", "is_joker", "parse_card", "parse_cards",
    "parse_level", "rank_of", "sort_cards", "suit_of", "wildcard",
    # plays (engine.plays, engine.legal, engine.layout)
    "BOMB", "JOKER_RANK", "PAIR", "PASS", "SINGLE", "STRAIGHT", "STRAIGHT_FLUSH", "THREE_PAIR",
    "THREE_WITH_TWO", "TRIPS", "TWO_TRIPS", "TYPES", "InvalidPlay", "Play", "PlayType", "Reading", "beats",
    "classify",
    "parse_play", "strength", "legal_plays", "laid_out", "reading_from_layout",
    # seats (engine.seats)
    "PLAY_ORDER", "SEATS", "SIDES", "Seat", "Side", "next_seat", "other_side", "partner", "prev_seat",
    "seat_or_none", "seats_of", "side_of", "side_or_none",
    # rule profiles (engine.profile)
    "Profile", "ProfileError",
    # the record's events (engine.events)
    "AlertDone", "CameraNote", "Correction", "Deal", "Event", "Forfeit", "GiveBack", "Header",
    "LevelAdjust", "Missed", "Overrun", "Pass", "Pause", "Penalty", "PlayCards", "Press", "RecordError",
    "Report", "Resist", "Resume", "Struck", "TimeCalled", "Tribute", "event_from_json", "with_corrections",
    # records in and out (engine.record)
    "Record", "dumps", "parse_lines", "read_line", "replay", "violation_line",
    # a hand, a match, what went wrong (engine.hand, engine.match, engine.violations)
    "Hand", "Outcome", "correct_tributes", "return_allowed", "Entry", "Match", "Result", "match_result",
    "Violation", "Action", "Awaiting", "Phase", "Top", "Turn",
    # around the table (engine.card_count, engine.timing, engine.bots)
    "CardTracker", "TableClock", "self_play",
    # tournaments (engine.tournament, engine.standings)
    "Pair", "Tournament", "TournamentError", "arrange", "planned_rounds", "Score", "Standing",
]
