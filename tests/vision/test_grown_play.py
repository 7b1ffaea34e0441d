"""A row laid a card at a time (table.runtime ``_grown``): the cards a seat adds to its row
before anyone else acts are its play grown, not a second play — a seat never plays twice in
a row. Later, or after another seat's play, more cards are a play of their own."""

from engine.events import GREW, Correction, PlayCards
from rulebook import profiles
from table.runtime import GROW_S, TableRuntime, in_row_order
from vision.live.camera import Frame


def test_cards_added_to_the_row_just_recorded_are_that_play(detector):
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    clock = {"t": 0.0, "n": 0}

    def show(rows: dict, seconds: float) -> list:
        image = renderer.camera(renderer.view(renderer.table(TableState(rows={**dict.fromkeys("ESWN", []), **rows}))))
        made = []
        for _ in range(int(seconds * 10)):
            made += rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"], clock["n"] = clock["t"] + 0.1, clock["n"] + 1
        return made

    show({}, 1.0)
    first = [e for e in show({"S": ["H9"]}, 1.0) if isinstance(e, PlayCards)]
    assert [e.cards for e in first] == [("H9",)]
    grown = show({"S": ["H9", "C9"]}, 1.0)  # the second nine laid a moment later, nobody between
    assert [(type(e), e.target, e.cards, e.why) for e in grown] == [(Correction, first[0].seq, ("H9", "C9"), GREW)]
    assert rt.match.hand.trick[-1][2] == ("H9", "C9")  # the pair is the play on the table
    show({"S": ["H9", "C9"]}, GROW_S)
    later = [e for e in show({"S": ["H9", "C9", "SK"]}, 1.0) if not isinstance(e, Correction)]
    assert [e.cards for e in later if isinstance(e, PlayCards)] == [("SK",)]  # too late to be the same play


def test_cards_are_put_in_the_order_they_lie():
    assert in_row_order(("H9", "C9", "SK"), ("SK", "C9", "H9")) == ("SK", "C9", "H9")
    assert in_row_order(("H9", "H9", "D2"), ("H9", "S3", "H9")) == ("H9", "H9", "D2")
