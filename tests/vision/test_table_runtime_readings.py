"""How the table runtime judges what it reads against the hand, with the committed detector:
a third copy of a card, no combination, a play that would not beat the table (each taking
the reader's runner-up, the referee told), an earlier play corrected when the hand read
together says so, and the recount's judge of a changed play."""

from engine.events import PlayCards
from rulebook import profiles
from rulebook.alerts import Alert
from table.runtime import TableRuntime
from tests.vision.table_rig import runtime, said


def test_a_third_copy_or_no_combination_takes_the_readers_runners_up_and_the_referee_is_told(detector):
    import random

    from engine.bots import self_play
    from engine.events import Deal
    from vision.live.grouping import Laid

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
    tracker = rt.seats.zones[seat].tracker
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
    from vision.live.grouping import Laid

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
    rt.seats.zones[owner].tracker.on_table.update([top])  # the trick still lies there
    seat = rt.match.hand.turn
    tracker = rt.seats.zones[seat].tracker
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
    assert rt.reading.harmless(rt.match, 2, ("S3",))  # a lower lead: the king still beats it
    assert not rt.reading.harmless(rt.match, 2, ("HR",))  # the 大王: the king would not beat it
    assert not rt.reading.harmless(rt.match, 3, ("S8",))  # nor would an 8 beat the 9
    # only tried: the record is as it was
    assert rt.reading.harmless(rt.match, 3, ("SA",)) and rt.match.hand.violations == []


def test_an_earlier_misread_play_is_corrected_when_the_hand_read_together_says_so(detector):
    """Spade queens read as clubs (0.44 against 0.42), then the real club queens (0.50
    against 0.23): the first play is corrected in the record by the camera, the engine
    judges on as corrected (no third club queen), and the referee is told (table.recount)."""
    from engine.events import Correction, Deal, Pass
    from rulebook.narration import account
    from vision.live.grouping import Laid

    alerts: list[Alert] = []
    recorded: list = []
    rt = runtime(detector, alerts, recorded)
    rt.record(Deal, leader="E")
    tracker = rt.seats.zones["E"].tracker
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


def test_a_plays_confidence_hears_a_cards_corners_together_where_the_reader_knows_the_deck(detector):
    """The last card of a row shows two corners: read at 0.9 and 0.6 by a reader taught the
    deck, it is one card surer than either (``vision.live.grouping``), and the play is as
    sure as its least sure card; with the zero-shot models, as its least sure corner."""
    import random

    from engine.bots import self_play
    from engine.events import Deal
    from tests.vision.table_rig import MODEL
    from vision.live.calibration import PX_PER_CM
    from vision.live.detector import CardDetector, Detection
    from vision.live.grouping import group_cards

    played = self_play(profiles.load("linyi"), random.Random(4), max_hands=1)
    dealt = next(n for n, e in enumerate(played) if isinstance(e, Deal)) + 1
    hidden = [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played[:dealt]]

    def index(conf: float, x_cm: float, y_cm: float) -> Detection:
        x, y = x_cm * PX_PER_CM, y_cm * PX_PER_CM
        return Detection("S9", conf, (x, y, x + 8.0, y + 16.0))

    taught = CardDetector(MODEL, boxes=False, own_deck=True)  # as an enrolled deck's (vision.enroll.deck)
    for reads, first, expected in ((taught, 0.8, 0.8), (taught, 0.99, 0.96), (detector, 0.99, 0.6)):
        rt = TableRuntime(reads, profiles.load("linyi"), resume=hidden)
        seat = rt.match.hand.turn
        zone = rt.seats.zones[seat]
        # a pair of S9: the first card's top-left corner, the last card's top-left and bottom-right
        corners = [index(first, 2.0, 2.0), index(0.9, 4.0, 2.0), index(0.6, 8.5, 8.5)]
        zone.detections = corners
        zone.tracker.stable = group_cards(corners)
        assert zone.tracker.stable.confidences == (first, 0.96)  # 1 - 0.1 × 0.4
        fields = rt.zone(seat)
        assert fields["cards"] == ("S9", "S9")
        assert fields["confidence"] == expected
