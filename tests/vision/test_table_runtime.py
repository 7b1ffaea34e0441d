"""The table runtime on rendered frames with the committed detector: what it does when the
camera misbehaves. (How well it reads cards depends on the detector: models/README.md.)"""


import numpy as np
import pytest

from engine.events import PlayCards
from scorer import profiles
from scorer.alerts import Alert
from scorer.table_runtime import TableRuntime
from vision.calibration import zone_size
from vision.camera import Frame
from vision.detector import CardDetector, committed_finder
from vision.table_canvas import camera_homography, camera_view, table_canvas

MODEL = committed_finder()  # the live loop's backend


def frames_of(canvas, turn: float, start: float, n: int, first: int = 0):
    size = (1280, 720)
    image = camera_view(canvas, camera_homography(canvas.shape[0], size, tilt=0.1, turn_deg=turn), size)
    return [Frame(image, start + i / 30, first + i) for i in range(n)]


@pytest.fixture(scope="module")
def detector():
    return CardDetector(MODEL, boxes=False)  # as the live loop runs it


def said(alerts, lang="en") -> list[str]:
    """The alerts as the console words them."""
    return [a.text(lang) for a in alerts]


def runtime(detector, alerts, recorded=None):
    return TableRuntime(detector, profiles.load("linyi"), record=(recorded.append if recorded is not None else None),
                        alert=alerts.append)


def test_black_and_noise_frames_are_reported_and_survived(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    black = Frame(np.zeros((720, 1280, 3), np.uint8), 0.0, 0)
    noise = Frame(np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8), 0.1, 1)
    assert rt.process(black) == [] and rt.process(noise) == []
    assert any("found 0 of the 4 table markers" in a for a in said(alerts))
    assert any("只找到0个桌面标记" in a for a in said(alerts, "zh"))
    for frame in frames_of(table_canvas(8.0), 3.0, 1.2, 3, first=2):
        rt.process(frame)
    assert rt.calibration is not None and rt.calibration.markers == (0, 1, 2, 3)


def test_a_bumped_camera_is_recalibrated_and_hidden_markers_keep_the_last_calibration(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    canvas = table_canvas(8.0)
    for frame in frames_of(canvas, 2.0, 0.0, 5):
        rt.process(frame)
    first = rt.calibration.homography.copy()
    for frame in frames_of(canvas, 9.0, 2.0, 5, first=5):  # knocked: turned 7 degrees
        rt.process(frame)
    assert "camera moved: recalibrated" in said(alerts) and "摄像头位置变了：已重新标定" in said(alerts, "zh")
    assert not np.allclose(first, rt.calibration.homography)
    covered = Frame(np.zeros((720, 1280, 3), np.uint8), 4.0, 20)  # a hand over the lens
    rt.process(covered)
    assert rt.calibration is not None  # the last good calibration stands


def test_an_empty_table_commits_nothing_and_zones_are_read_upright(detector):
    alerts: list[Alert] = []
    recorded = []
    rt = runtime(detector, alerts, recorded)
    for frame in frames_of(table_canvas(8.0), 0.0, 0.0, 20):
        rt.process(frame)
    assert [e.type for e in recorded] == ["header"]
    assert not any(isinstance(e, PlayCards) for e in rt.events)
    assert all(z.read_image is not None and z.read_image.shape[1::-1] == zone_size() for z in rt.zones.values())


def test_a_restarted_runtime_goes_on_from_the_stored_record(detector):
    import random

    from engine.bots import self_play
    from engine.events import Deal, Pass

    profile = profiles.load("linyi")
    played = self_play(profile, random.Random(4), max_hands=1)
    hidden = [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played]
    cut = next(i for i, e in enumerate(hidden) if e.type == "pass" and i > 12)  # mid-trick
    recorded = []
    rt = TableRuntime(detector, profile, record=recorded.append, alert=lambda text: None, resume=hidden[:cut])
    assert recorded == []  # nothing is written again
    assert rt.match.history[-1].event.seq == hidden[cut - 1].seq
    hand = rt.match.hand
    on_table = {seat: sorted(z.tracker.on_table.elements()) for seat, z in rt.zones.items()}
    expected = {s: [] for s in "ESWN"}
    for seat, _play, cards, _seq in hand.trick:
        expected[seat] += cards
    assert on_table == {s: sorted(c) for s, c in expected.items()} and any(on_table.values())
    event = rt.record(Pass, seat=hidden[cut].seat)  # the record goes on where it stopped
    assert event.seq == hidden[cut - 1].seq + 1 and recorded == [event]


def between_hands(seed: int, profile):
    """A bots' match with hidden hands cut at its second deal, and the staged video from there
    to the second hand's first play: tribute, return (or a resistance) shown on the table."""
    import random

    from engine.bots import self_play
    from vision.render_game import hide, stage

    events, jokers = hide(self_play(profile, random.Random(seed), max_hands=2), profile)
    staging = stage(events, profile, None, jokers)
    deals = [i for i, e in enumerate(staging.events) if e.type == "deal"]
    first_play = next(i for i, e in enumerate(staging.events) if i > deals[1] and e.type == "play")
    return staging, deals[1], first_play


@pytest.mark.parametrize("seed", [1,  # a tribute and its return
                                  7])  # both big jokers shown: resisted
def test_tribute_return_and_resistance_are_seen_between_hands(detector, seed):
    from vision.render_game import Renderer

    profile = profiles.load("jiangsu")
    staging, deal, first_play = between_hands(seed, profile)
    start, end = staging.events[deal].t, staging.events[first_play].t + 0.8
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profile, alert=alerts.append, resume=staging.events[:deal])
    renderer = Renderer(seed, (1280, 720))
    drawn: dict[int, np.ndarray] = {}
    t, n = start, 0
    while t < end:  # 10 frames a second: enough to see cards settle
        k = max(i for i, (kt, _) in enumerate(staging.keys) if kt <= t)
        if k not in drawn:
            drawn[k] = renderer.view(renderer.table(staging.keys[k][1]))
        rt.process(Frame(renderer.camera(drawn[k]), t, n))
        t, n = t + 0.1, n + 1
    truth = [(e.type, getattr(e, "seat", None), getattr(e, "card", None), getattr(e, "seats", None))
             for e in staging.events[deal:first_play + 1]]
    seen = [(e.type, getattr(e, "seat", None), getattr(e, "card", None), getattr(e, "seats", None))
            for e in rt.events[deal:] if e.type != "camera_note"]  # notes for the referee, not table events
    assert seen == truth, alerts
    # the tribute, return or resistance broke no rule; the cards of the hand's first play
    # (only its seat is compared above) are the detector's accuracy, which the table
    # benchmark measures (docs/benchmarks.md)
    first = rt.events[first_play].seq  # the record lines up with the staging (asserted above)
    assert [v for v in rt.match.violations if v.seq < first] == []


class CountingDetector:
    """The committed detector, counting the looks (whole zones or tiles) it is asked to find indices in."""

    def __init__(self, inner: CardDetector) -> None:
        self.inner, self.conf, self.reader, self.suits, self.calls = inner, inner.conf, inner.reader, inner.suits, 0

    @property
    def looks_whole(self):
        return self.inner.looks_whole

    def find(self, image, floor, quarters=None, whole=False):
        self.calls += 1
        return self.inner.find(image, floor, quarters, whole=whole)

    def read(self, image, found, floor, upright=False):
        return self.inner.read(image, found, floor, upright=upright)

    def detect(self, image, conf=None, upright=False, quarters=None):
        self.calls += 1
        return self.inner.detect(image, conf, upright=upright, quarters=quarters)


def test_a_still_zone_is_read_in_a_few_frames_pooled_then_left_until_it_changes(detector):
    from scorer.table_runtime import LOOKS, POOLED
    from vision.looks import pool
    from vision.render_game import Renderer, TableState

    counting = CountingDetector(detector)
    rt = TableRuntime(counting, profiles.load("jiangsu"))
    renderer = Renderer(5, (1280, 720))
    clock = {"t": 0.0, "n": 0}

    def show(state: TableState, frames: int) -> list[int]:
        image = renderer.camera(renderer.view(renderer.table(state)))
        calls = []
        for _ in range(frames):
            rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1
            calls.append(counting.calls)
        return calls

    one_row = TableState(rows={"S": ["S5", "H9"], "E": [], "W": [], "N": []})
    calls = show(one_row, 10)  # the first frame calibrates: every zone is new, so moving
    per_look = calls[1]  # the four zones' tiles, read once
    assert per_look > 0 and per_look % 4 == 0
    assert calls[1:] == [per_look * min(n, LOOKS) for n in range(1, 10)]
    tiles = per_look // 4
    south = rt.zones["S"]
    assert len(south.looks) == LOOKS and south.detections == pool(south.looks, POOLED)
    longer = TableState(rows={"S": ["S5", "H9", "CK"], "E": [], "W": [], "N": []})
    before = counting.calls
    calls = show(longer, 10)  # South's zone changes, and only it is read again
    assert calls[-1] - before == tiles * LOOKS and len(south.looks) == LOOKS


def test_a_hand_left_over_a_zone_and_a_card_knocked_askew_are_not_new_plays(detector):
    """A hand resting over a played row hides every card: that is not the trick being
    cleared (its cards would come back as a second play when the hand lifts). A card knocked
    askew afterwards is the same card. Clearing the zone still ends the trick."""
    from vision.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profiles.load("jiangsu"), alert=alerts.append)
    clock = {"t": 0.0, "n": 0}

    def show(state: TableState, seconds: float) -> list:
        image = renderer.camera(renderer.view(renderer.table(state)))
        made = []
        for _ in range(int(seconds * 10)):  # 10 frames a second is plenty for a still scene
            made += rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1
        return made

    row = ["S5", "H9", "CK"]
    assert show(TableState(), 1.0) == []
    laid = show(TableState(rows={"S": row, "E": [], "W": [], "N": []}), 1.5)
    assert [e.type for e in laid] == ["deal", "play"] and len(laid[1].cards) == 3
    covered = TableState(rows={"S": row, "E": [], "W": [], "N": []}, hand=("S", 1.0))
    told = show(covered, 4.0)  # no play: a note for the referee's queue, nothing else
    assert [(e.type, e.code, e.seat) for e in told] == [("camera_note", "zone_covered", "S")]
    assert any("seat S: something lies over the play zone" in a for a in said(alerts))
    assert any(a.startswith("南家：出牌区上有东西，既不是空桌面，也认不出牌") for a in said(alerts, "zh"))
    knocked = TableState(rows={"S": row, "E": [], "W": [], "N": []}, knocked={"S": (1, 0.9, 0.6)})
    assert show(knocked, 2.0) == []
    assert rt.zones["S"].tracker.on_table  # the played cards still count as lying there
    show(TableState(), 1.0)  # turned face down and taken away: the trick is over in that zone
    assert not rt.zones["S"].tracker.on_table


def test_a_table_filmed_from_midway_plays_its_first_hand_at_the_level_given(detector):
    from engine.events import Deal

    recorded: list = []
    rt = TableRuntime(detector, profiles.load("linyi"), record=recorded.append, level="T")
    assert recorded[0].start_levels == {"EW": "T", "NS": "T"}
    rt.record(Deal, leader="S")
    assert rt.match.hand.level == "T"  # H10 is the wildcard (逢人配) of its plays


def test_a_frozen_feed_is_told_and_so_is_its_recovery(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    still = frames_of(table_canvas(8.0), 0.0, 0.0, 1)[0].image
    for n in range(70):  # 7 s of one picture, to the pixel
        rt.process(Frame(still, n / 10, n))
    assert sum("feed looks frozen" in a for a in said(alerts)) == 1
    moved = still.copy()
    moved[0, 0] ^= 1  # a live sensor never repeats a frame exactly
    rt.process(Frame(moved, 7.0, 70))
    assert said(alerts)[-1] == "camera: the picture moves again" and said(alerts, "zh")[-1] == "摄像头：画面恢复变化"


def test_a_third_copy_or_no_combination_takes_the_readers_runners_up_and_the_referee_is_told(detector):
    import random

    from engine.bots import self_play
    from engine.events import Deal
    from vision.grouping import Laid

    profile = profiles.load("linyi")
    played = self_play(profile, random.Random(4), max_hands=1)
    hidden = [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played]
    seen: dict[str, int] = {}
    cut = 0
    while 2 not in seen.values():  # up to the first moment both copies of a card are out
        for card in hidden[cut].cards if isinstance(hidden[cut], PlayCards) else ():
            seen[card] = seen.get(card, 0) + 1
        cut += 1
    twice = next(c for c, n in seen.items() if n == 2)
    spare = next(c for c in ("S3", "C3", "H3", "D3", "S4") if c not in seen)
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profile, alert=alerts.append, resume=hidden[:cut])
    seat = rt.match.hand.turn
    tracker = rt.zones[seat].tracker
    tracker.on_table.clear()
    tracker.stable = Laid((twice,), (0.9,), (), (((spare, 0.3), ("HR", 0.05)),))
    fields = rt.zone(seat)
    assert fields["cards"] == (spare,) and fields["confidence"] == 0.3  # low: the referee is asked
    assert any(f"read {twice}, but both {twice} are already out: taken as {spare}" in a for a in said(alerts))
    assert any(f"认出{twice}，但两张{twice}都已出过：按{spare}记录" in a for a in said(alerts, "zh"))
    tracker.on_table.clear()
    tracker.stable = Laid((twice, twice), (0.9, 0.8), (), (((spare, 0.3),), ((spare, 0.3),)))
    told = len(alerts)
    assert rt.zone(seat)["cards"] == (spare, spare)
    assert [a.code for a in alerts[told:]] == ["third_copy"]  # both copies taken alike: told once
    tracker.on_table.clear()
    tracker.stable = Laid((twice,), (0.9,), (), ((),))  # nothing else it could be: the reading stands
    assert rt.zone(seat)["cards"] == (twice,)  # and the engine will say duplicate_card
    low, high, other = next((f"S{r}", f"S{q}", f"C{r}") for r, q in zip("3456789", "456789T", strict=True)
                            if not {f"S{r}", f"S{q}", f"C{r}"} & set(seen))
    tracker.on_table.clear()
    tracker.stable = Laid((low, high), (0.9, 0.6), (), ((), ((other, 0.4),)))  # no combination as read
    fields = rt.zone(seat)
    assert fields["cards"] == (low, other) and fields["confidence"] == 0.4
    assert any(f"read {low} {high}, which is no combination: taken as {low} {other}" in a for a in said(alerts))
    ranks = "3456789TJQKA"
    run = next([f"S{r}" for r in ranks[i:i + 5]] for i in range(len(ranks) - 4)
               if not ({f"S{r}" for r in ranks[i:i + 5]} | {f"C{ranks[i + 4]}"}) & set(seen))
    club = "C" + run[-1][1]
    tracker.on_table.clear()
    tracker.stable = Laid(tuple(run), (0.9,) * 5, (), ((),) * 4 + (((club, 0.35),),))  # a flush, one suit in doubt
    fields = rt.zone(seat)
    assert fields["cards"] == (*run[:4], club) and fields["confidence"] == 0.35
    assert any(f"read {' '.join(run)}, a straight flush with one suit in doubt: taken as the straight "
               f"{' '.join(run[:4])} {club}" in a for a in said(alerts))
    assert any(a.startswith(f"{'南西北东'['SWNE'.index(seat)]}家：认出同花顺") for a in said(alerts, "zh"))
    tracker.on_table.clear()
    tracker.stable = Laid((low, low, low), (0.9, 0.9, 0.8), (), ((), (), ()))  # three of one name, nothing else
    fields = rt.zone(seat)
    assert fields["cards"] == (low, low) and fields["confidence"] == 0.0
    assert any(f"read {low} {low} {low}, more copies of a card than two decks hold" in a for a in said(alerts))
    rt.record(PlayCards, **fields)  # the record and the engine take it (three would raise)


def test_a_play_read_as_not_beating_the_table_takes_a_runner_up_that_beats_it(detector):
    import random

    from engine.bots import self_play
    from engine.events import Deal
    from engine.plays import SINGLE
    from vision.grouping import Laid

    profile = profiles.load("linyi")
    played = self_play(profile, random.Random(4), max_hands=1)
    hidden = [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played]
    for cut in range(1, len(hidden)):  # the first single on the table that a 3 cannot beat
        rt = TableRuntime(detector, profile, resume=hidden[:cut])
        hand = rt.match.hand
        if hand is not None and hand.top is not None and hand.top[1].type == SINGLE \
                and hand.top[1].rank not in "3BR" and hand.turn != hand.top[0]:
            break
    owner, top = hand.top[0], hand.top[1].cards[0]
    seen = hand.tracker.seen
    low = next(c for c in ("S3", "H3", "C3", "D3") if seen[c] < 2)
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profile, alert=alerts.append, resume=hidden[:cut])
    rt.zones[owner].tracker.on_table.update([top])  # the trick still lies there
    seat = rt.match.hand.turn
    tracker = rt.zones[seat].tracker
    tracker.stable = Laid((low,), (0.5,), (), ((("HR", 0.3),),))  # the 大王's runner-up: it beats
    fields = rt.zone(seat)
    assert fields["cards"] == ("HR",) and fields["confidence"] == 0.3  # low: the referee is asked
    assert f"seat {seat}: read {low}, which would not beat {top} on the table: taken as HR " \
           "(confidence 0.30); a referee should check the play" in said(alerts)
    assert any(f"认出{low}，压不过桌上的{top}：按HR记录" in a for a in said(alerts, "zh"))
    note = rt.events[-1]  # the referee's queue has it too, from the record
    assert (note.type, note.code, note.seat, note.values["taken"]) == ("camera_note", "would_not_beat", seat, "HR")
    tracker.on_table.clear()
    tracker.stable = Laid((low,), (0.9,), (), ((("S4", 0.05),),))  # read surely, under the table
    fields = rt.zone(seat)
    assert fields["cards"] == (low,)  # the player's act, for the engine to judge
    rt.record(PlayCards, **fields)
    assert "does_not_beat" in [v.code for v in rt.match.history[-1].violations]


def test_a_recorded_play_may_change_rank_only_where_the_hand_stays_without_new_violations(detector):
    """``_harmless``, the recount's judge: the hand replayed as corrected, on a copy of the
    hand as dealt (here kept by a restart from the stored record)."""
    import random

    from engine.bots import self_play
    from engine.events import Deal
    from engine.seats import next_seat

    profile = profiles.load("linyi")
    header, deal = self_play(profile, random.Random(4), max_hands=1)[:2]
    leader = deal.leader
    record = [header, Deal(seq=1, t=1.0, leader=leader), PlayCards(seq=2, t=2.0, seat=leader, cards=("S9",)),
              PlayCards(seq=3, t=3.0, seat=next_seat(leader), cards=("SK",))]
    rt = TableRuntime(detector, profile, resume=record)
    assert rt._harmless(2, ("S3",))  # a lower lead: the king still beats it
    assert not rt._harmless(2, ("HR",))  # the 大王: the king would not beat it
    assert not rt._harmless(3, ("S8",))  # nor would an 8 beat the 9
    assert rt._harmless(3, ("SA",)) and rt.match.hand.violations == []  # only tried: the record is as it was


def test_a_camera_too_coarse_to_read_the_cards_is_told_once(detector):
    canvas = table_canvas(8.0)
    size = (960, 540)  # the whole table in 540 rows: about 5 px/cm
    image = camera_view(canvas, camera_homography(canvas.shape[0], size, tilt=0.1, turn_deg=2.0), size)
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    for i in range(40):
        rt.process(Frame(image, i / 30, i))
    coarse = [a for a in said(alerts) if "too coarse to read most cards" in a]
    assert len(coarse) == 1 and "use 1080p" in coarse[0]
    assert [a for a in said(alerts, "zh") if "大多数牌认不出" in a][0].startswith("摄像头：")
    fine: list[Alert] = []
    rt = runtime(detector, fine)
    for frame in frames_of(canvas, 2.0, 0.0, 40):  # 720p: coarse for the reader, but not that coarse
        rt.process(frame)
    assert rt.calibration is not None and not any(a.code == "zone_coarse" for a in fine)


def test_the_table_learns_a_four_colour_decks_inks_from_what_it_reads(detector):
    """The runtime feeds every still zone's reading to the deck's inks (vision.inks): on a
    four-colour deck (green clubs) it learns the two black-suit inks, and the cards it
    reads are the cards laid."""
    from tests.vision.test_inks import ROWS, deck_seed
    from vision.inks import black_split
    from vision.render_game import Renderer, TableState

    renderer = Renderer(deck_seed(True, 100), (1920, 1080))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    empty, laid = (renderer.view(renderer.table(state)) for state in (TableState(), TableState(rows={**ROWS, "W": []})))
    assert rt.inks.splits[black_split] is None
    for n, view in enumerate([empty] * 5 + [laid] * 10):
        rt.process(Frame(renderer.camera(view), n / 10, n))
    assert rt.inks.splits[black_split] is not None
    for seat in ROWS:
        assert rt.zones[seat].laid.cards == tuple(ROWS[seat])


def test_an_earlier_misread_play_is_corrected_when_the_hand_read_together_says_so(detector):
    """Spade queens read as clubs (0.44 against 0.42), then the real club queens (0.50
    against 0.23): the first play is corrected in the record by the camera, the engine
    judges on as corrected (no third club queen), and the referee is told (vision.recount)."""
    from engine.events import Correction, Deal, Pass
    from scorer.account import account
    from vision.grouping import Laid

    alerts: list[Alert] = []
    recorded: list = []
    rt = runtime(detector, alerts, recorded)
    rt.record(Deal, leader="E")
    tracker = rt.zones["E"].tracker
    tracker.stable = Laid(("CQ", "CQ"), (0.44, 0.44), (), ((("SQ", 0.42),), (("SQ", 0.42),)))
    first = rt.record(PlayCards, **rt.zone("E"))
    assert first.cards == ("CQ", "CQ")
    for _ in range(3):
        rt.record(Pass, seat=rt.match.hand.turn)
    tracker.on_table.clear()
    tracker.stable = Laid(("CQ", "CQ"), (0.5, 0.5), (), ((("SQ", 0.23),), (("SQ", 0.23),)))
    second = rt.record(PlayCards, **rt.zone("E"))
    assert second.cards == ("CQ", "CQ")
    fix = next(e for e in recorded if isinstance(e, Correction))
    assert (fix.target, fix.cards, fix.by) == (first.seq, ("SQ", "SQ"), "camera") and fix.seq < second.seq
    assert rt.match.violations == [] and rt.match.hand.tracker.seen["SQ"] == 2
    assert f"#{first.seq}, seat E's CQ CQ, likelier SQ SQ: the record is corrected" in said(alerts)[-1]
    assert f"第{first.seq}条东家的CQ CQ更可能是SQ SQ" in said(alerts, "zh")[-1]
    assert f"摄像头复核更正第{first.seq}条：SQ SQ" in "\n".join(account(rt.match, "zh"))
    assert f"camera recount corrected #{first.seq}: SQ SQ" in "\n".join(account(rt.match, "en"))


def test_a_partner_leading_after_a_player_went_out_is_read_as_a_round_of_passes(detector):
    """接风: a seat plays its last cards, everyone passes (knocks a camera cannot see), the
    trick is turned face down, and its partner leads. Cards laid by that partner then came
    after a whole round of passes — not a play under the table (a false does_not_beat), nor
    one on it when they would beat it. Laid while the trick still lies there, cards that
    cannot beat it are a play under it."""
    import random
    from collections import Counter

    from engine.bots import self_play
    from engine.events import Deal, Pass
    from engine.match import Match
    from engine.seats import partner
    from vision.grouping import Laid

    profile = profiles.load("linyi")
    played = self_play(profile, random.Random(5), max_hands=1)
    hidden = [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played]
    match = Match(profile, hidden[0])
    cut = next(n for n, event in enumerate(hidden[1:], start=2)
               if match.push(event) and isinstance(event, PlayCards) and event.seat in match.hand.finished
               and partner(event.seat) not in match.hand.finished and match.hand.turn != partner(event.seat))
    out, top = hidden[cut - 1].seat, match.hand.top[1]
    rt = TableRuntime(detector, profile, resume=hidden[:cut])
    rt.zones[out].tracker.on_table.clear()  # the trick turned face down: its zone cleared
    seen = rt.match.hand.tracker.seen
    spare = [f"{suit}{rank}" for rank in "3456789TJQK" for suit in "SHCD" for _ in range(2 - seen[f"{suit}{rank}"])]
    pair = next((a, b) for a, b in zip(spare, spare[1:], strict=False) if a[1] == b[1])
    lead = pair if top.type == "Single" else pair[:1]  # not the table's type: cannot beat it
    others = [s for s in ("E", "N", "W", "S") if s != out and s not in rt.match.hand.finished]
    tracker = rt.zones[partner(out)].tracker
    tracker.on_table.clear()
    tracker.stable = Laid(lead, (0.9,) * len(lead), (), ((),) * len(lead))
    before = len(rt.events)
    rt._commit(partner(out))
    made = rt.events[before:]
    assert sorted(e.seat for e in made if isinstance(e, Pass)) == sorted(others)
    assert isinstance(made[-1], PlayCards) and made[-1].cards == lead and made[-1].seat == partner(out)
    assert rt.match.violations == [] and rt.match.hand.top[0] == partner(out)
    # cards that would beat the table, laid by that partner once the trick lies face down:
    # a lead after the round of passes too, not a play on the trick
    rt = TableRuntime(detector, profile, resume=hidden[:cut])
    rt.zones[out].tracker.on_table.clear()
    ranks = Counter(card[1] for card in spare)
    rank = next(r for r in "KQJT98765" if ranks[r] >= 4)
    bomb = tuple(card for card in spare if card[1] == rank)[:4]
    assert rt._beats_table(bomb)
    tracker = rt.zones[partner(out)].tracker
    tracker.on_table.clear()
    tracker.stable = Laid(bomb, (0.9,) * 4, (), ((),) * 4)
    before = len(rt.events)
    rt._commit(partner(out))
    made = rt.events[before:]
    assert sorted(e.seat for e in made if isinstance(e, Pass)) == sorted(others)
    assert [seat for seat, *_ in rt.match.hand.trick] == [partner(out)] and rt.match.violations == []
    # the same cards laid while the trick still lies on the table: a play under it
    rt = TableRuntime(detector, profile, resume=hidden[:cut])
    tracker = rt.zones[partner(out)].tracker
    tracker.on_table.clear()
    tracker.stable = Laid(lead, (0.9,) * len(lead), (), ((),) * len(lead))
    rt._commit(partner(out))
    assert [v.code for v in rt.match.violations] == ["does_not_beat"]


def test_a_referees_acts_at_the_console_reach_the_live_table_and_no_event_is_lost(detector, tmp_path):
    """``guandan run``'s wiring: the runtime writes to the store the web console writes to.
    The referee puts in North's 大王 that the camera never read; the runtime goes on from
    that story (West to act, the 大王 counted, its cards in North's zone). A referee act that
    takes the seq the runtime was about to write costs a retry, not the runtime's event; a
    restarted runtime reads the same match back from the store."""
    from engine.events import Deal, Pass, event_from_json
    from scorer.serve_cli import record_into, written_by_others
    from scorer.store import Store
    from vision.grouping import Laid
    from web import create_app

    store = Store(tmp_path / "hall.db")
    store.add_user("li", "s3cret-pass")
    auth = {"Authorization": f"Bearer {store.new_token('li')}"}
    app = create_app(store, start_hub=False)
    console = app.test_client()
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profiles.load("linyi"), table="t1", record=record_into(store, "t1"),
                      alert=alerts.append, outside=written_by_others(store, "t1"))
    rt.record(Deal, leader="E")
    rt.zones["E"].tracker.stable = Laid(("S5",), (0.95,), (), ((),))
    rt.record(PlayCards, **rt.zone("E"))
    r = console.post("/api/tables/t1/referee/missed", headers=auth, json={"seat": "N", "cards": ["HR"],
                                                                        "why": "the camera missed it"})
    assert r.status_code == 201 and r.get_json()["seq"] == 3
    rt.process(Frame(np.zeros((720, 1280, 3), np.uint8), 1.0, 0))  # the next frame takes the act in
    assert rt.match.hand.turn == "W" and rt.match.hand.top[0] == "N"
    assert rt.zones["N"].tracker.on_table["HR"] == 1
    assert [(p.seq, p.cards, p.choices) for p in rt.count.plays] == [(2, ("S5",), ((("S5", 0.95),),)),
                                                                     (3, ("HR",), ())]
    # a referee act lands between the runtime's look at the record and its write: the write
    # finds the seq taken, and the event is taken in and the pass written after it
    news = rt.outside

    def late_referee():
        out = news()
        if not any(s.body["type"] == "penalty" for s in store.events("t1")):
            console.post("/api/tables/t1/referee/penalty", headers=auth,
                         json={"seat": "E", "penalty": "warning", "why": "slow"})
        return out

    rt.outside = late_referee
    passed = rt.record(Pass, seat="W")
    stored = [s.body for s in store.events("t1")]
    assert [(b["seq"], b["type"]) for b in stored] == [(0, "header"), (1, "deal"), (2, "play"), (3, "missed"),
                                                       (4, "penalty"), (5, "pass")]
    assert passed.seq == 5 and rt.match.next_seq == 6 and rt.match.hand.turn == "S"
    assert rt.match.violations == [] and [e.seq for e in rt.events] == [0, 1, 2, 3, 4, 5]
    # the referee corrects the runtime's own play (East laid S6, not S5): sure from now on
    console.post("/api/tables/t1/referee/correction", headers=auth, json={"target": 2, "cards": ["S6"], "why": "6"})
    rt.process(Frame(np.zeros((720, 1280, 3), np.uint8), 2.0, 1))
    assert [(p.seq, p.cards, p.choices) for p in rt.count.plays] == [(3, ("HR",), ()), (2, ("S6",), ())]
    assert rt.match.hand.trick[0][2] == ("S6",)
    # and strikes out the 大王 after all (put in by mistake): no longer counted
    console.post("/api/tables/t1/referee/correction", headers=auth, json={"target": 3, "void": True, "why": "no"})
    rt.process(Frame(np.zeros((720, 1280, 3), np.uint8), 3.0, 2))
    assert [(p.seq, p.cards) for p in rt.count.plays] == [(2, ("S6",))]
    assert "struck" in [e.event.type for e in rt.match.history]
    again = TableRuntime(detector, profiles.load("linyi"), table="t1",
                         resume=[event_from_json(s.body) for s in store.events("t1")])
    assert [e.event for e in again.match.history] == [e.event for e in rt.match.history]
    assert "outside_refused" not in {a.code for a in alerts}
    app.config["HUB"].stop()


def test_a_stored_event_the_live_match_cannot_take_is_told_and_its_seq_left_alone(detector):
    """Another writer stored what does not follow from the table's record (a play before any
    deal): the referee is told, and the table's next event takes the seq after it."""
    from engine.events import Deal

    refused = PlayCards(seq=1, t=0.5, seat="E", cards=("S3",))
    written: list = []

    def sink(event):
        if event.seq == 1:  # the store holds the other writer's event 1
            from scorer.store import SeqTaken
            raise SeqTaken("taken")
        written.append(event)

    alerts: list[Alert] = []
    news = iter([[refused]])
    rt = TableRuntime(detector, profiles.load("linyi"), record=sink, alert=alerts.append,
                      outside=lambda: next(news, []))
    deal = rt.record(Deal, leader="E")
    assert deal.seq == 2 and written[-1] == deal and rt.match.hand is not None
    assert [a.code for a in alerts] == ["outside_refused"]
    assert "#1" in alerts[0].text("en") and "第1条" in alerts[0].text("zh")


def test_a_card_the_reader_cannot_name_is_taken_from_its_marks_and_the_cards_not_yet_out(detector):
    """A still zone whose looks read nothing, yet is not bare, is covered; on its seat's turn
    the runtime asks ``vision.unread`` whether its marks name a card the hand has not seen
    twice, lays that card there for the tracker to commit as any play, and asks the referee to
    check it. Not on the seat's turn, or with no such card left to be, it is left.

    The scene: game 115's 小王 seen by a 720p camera, which no single look names
    (``tests/vision/test_unread.py``). Since the twenty-eighth session's finder the runtime's
    pooled looks, from a lower floor, read it, and of the rendered decks' jokers (games
    100–160, 720p and 1080p, every seat) none is read by no look at all any more — game 106's
    大王 at 1080p was, and took this path through the whole frame loop — so the zone is handed
    over as the frame loop hands a covered one over: its three still looks, which read nothing."""
    from engine.events import Deal, Header, Pass
    from scorer.table_runtime import LOOKS
    from vision.calibration import Calibration, rectify_zone
    from vision.render_game import Renderer, TableState
    from vision.tracker import Settled, thumbnail

    profile = profiles.load("jiangsu")

    def record_until(plays: list[tuple[str, tuple[str, ...]]]) -> list:
        events = [Header(seq=0, t=0.0, profile="jiangsu", table="115"), Deal(seq=1, t=0.0, leader="N")]
        for seat, cards in plays:
            seq = len(events)
            events.append(PlayCards(seq=seq, t=seq, seat=seat, cards=cards) if cards
                          else Pass(seq=seq, t=seq, seat=seat))
        return events

    both_out = [("N", ("HR",)), ("W", ()), ("S", ()), ("E", ()), ("N", ("S3",)), ("W", ("HR",)),
                ("S", ()), ("E", ()), ("N", ()), ("W", ("D4",))]  # South's turn, on West's 4
    renderer = Renderer(115, (1280, 720))
    image = renderer.camera(renderer.view(renderer.table(TableState(rows={"S": ["SB"], "E": [], "W": [], "N": []}))))
    drawn = rectify_zone(image, Calibration.from_image(image), "S")

    def covered(stored: list) -> tuple[TableRuntime, list[Alert], bool, int]:
        """South's zone covered, as the frame loop finds it: whether the runtime named a card,
        and how many events the record held before."""
        alerts: list[Alert] = []
        rt = TableRuntime(detector, profile, alert=alerts.append, resume=stored)
        before = len(rt.events)
        zone = rt.zones["S"]
        zone.looks, zone.read_thumb = [[] for _ in range(LOOKS)], thumbnail(drawn)
        named = rt._unread("S", zone, lambda: drawn)
        assert not rt._unread("S", zone, lambda: drawn)  # each still look is searched once
        return rt, alerts, named, before

    rt, alerts, named, before = covered(record_until(both_out))
    assert named and rt.zones["S"].laid.cards == ("SB",)
    for n in range(40):  # the frame loop goes on: the laid card settles and is committed
        for change in rt.zones["S"].tracker.update(100.0 + n / 10, rt.zones["S"].laid, False):
            if isinstance(change, Settled) and change.new:
                rt._commit("S")
    made = rt.events[before:]
    assert [(e.seat, e.cards) for e in made if isinstance(e, PlayCards)] == [("S", ("SB",))]
    assert [(e.code, e.seat) for e in made if e.type == "camera_note"] == [("unread_card", "S")]
    assert any("南家：出牌区有一张认不出的牌" in a and "小王" in a for a in said(alerts, "zh"))
    assert any("seat S: a card lies in the play zone that the camera cannot read" in a and "small joker" in a
               for a in said(alerts))
    # both 小王 out as well: no card the marks could be is left, and nothing is laid
    rt, _, named, _ = covered(record_until(both_out[:9] + [("W", ("SB",)), ("S", ()), ("E", ()), ("N", ()),
                                                        ("W", ("SB",))]))
    assert not named and rt.zones["S"].laid.cards == ()
    # not South's turn (East's, after West's lead and South's pass): left for the referee
    rt, _, named, _ = covered(record_until(both_out + [("S", ())]))
    assert not named and rt.zones["S"].laid.cards == ()


def test_a_4k_cameras_zones_are_read_drawn_finer_and_shrunk_not_aliased(detector):
    """A camera that sees the zones finer than they are drawn (4K: about 19 px/cm) has each
    still zone warped twice as fine and shrunk by area before it is read; warped straight to
    10 px/cm this deck's rows of spades and clubs read three cards wrong (docs/benchmarks.md)."""
    from tests.vision.test_inks import ROWS
    from vision.calibration import fine_scale, rectify_zone
    from vision.render_game import Renderer, TableState

    renderer = Renderer(107, (3840, 2160))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    laid = renderer.camera(renderer.view(renderer.table(TableState(rows={**ROWS, "W": []}))))
    for n in range(6):
        rt.process(Frame(laid, n / 10, n))
    resolution = rt.calibration.zone_resolution()
    for seat in ROWS:
        fine = fine_scale(resolution[seat])
        assert fine is not None and fine >= 1.75
        assert rt.zones[seat].laid.cards == tuple(ROWS[seat])
        assert np.array_equal(rt.zones[seat].read_image, rectify_zone(laid, rt.calibration, seat, fine=fine))


def test_a_node_too_slow_for_its_camera_tells_the_operator_not_the_record(detector):
    """Every sixth frame of a 30 fps camera taken (five read a second, the rest dropped):
    the operator hears it once a whole window shows it, in both languages; the referee's
    record gets nothing (it is the node's state, not the game's)."""
    alerts: list[Alert] = []
    recorded: list = []
    rt = runtime(detector, alerts, recorded)
    picture = np.zeros((72, 128, 3), np.uint8)  # no table in view: nothing read, only watched
    for n in range(0, 30 * 15, 6):
        rt.process(Frame(picture, n / 30, n))
    behind = [a for a in alerts if a.code == "camera_behind"]
    assert len(behind) == 1
    assert "read 5 frames a second of the camera's 30" in behind[0].text("en")
    assert behind[0].text("zh").startswith("本机跟不上摄像头：最近10秒每秒只读了5帧（摄像头每秒30帧")
    assert not [e for e in recorded if e.type == "camera_note"]
