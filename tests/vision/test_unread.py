"""``vision.live.unread`` on single rendered zones with the committed model: a card the reader
cannot name, named from its marks and the cards not yet out, or left unnamed."""

import pytest

from vision.live.calibration import Calibration, rectify_zone
from vision.live.detector import CardDetector, committed_finder, find_tiled
from vision.live.unread import FLOOR, MARKS, unread_card
from vision.synth.art_decks import by_name
from vision.synth.render_game import Renderer, TableState

JOKERS = ["HR", "SB"]


@pytest.fixture(scope="module")
def detector():
    return CardDetector(committed_finder(), boxes=False)  # as the live loop runs it


def south_zone(cards: list[str]):
    """South's zone of game 115's table (a deck style never trained on) seen by a 720p camera,
    holding ``cards``."""
    renderer = Renderer(115, (1280, 720))
    image = renderer.camera(renderer.view(renderer.table(TableState(rows={"S": cards, "E": [], "W": [], "N": []}))))
    return rectify_zone(image, Calibration.from_image(image), "S")


def test_the_decks_small_joker_is_no_index_to_the_reader_but_its_marks_name_it(detector):
    """Game 115's 小王 at 720p: one look at the working threshold reads nothing there (the
    runtime's pooled looks, from a lower floor, do read it), yet its marks name it."""
    zone = south_zone(["SB"])
    assert not [d for d in detector.detect(zone) if d.card == "SB"]  # one look at 0.25: nothing
    card = unread_card(detector, zone, "S", ruled_out=["HR"])
    assert card is not None and card.card == "SB"
    assert all(conf < card.conf / 10 for _, conf in card.others)  # no other card comes near
    x1, y1, x2, y2 = card.box
    assert zone.shape[1] * 0.2 < x1 < x2 < zone.shape[1] * 0.8 and 0 < y1 < y2 < zone.shape[0]


def test_nothing_is_named_without_a_clear_reading_or_a_card_left_to_be(detector):
    assert unread_card(detector, south_zone(["SB"]), "S", ruled_out=JOKERS) is None  # only faint readings left
    assert unread_card(detector, south_zone([]), "S", ruled_out=[]) is None  # bare felt: no marks


def test_a_joker_corner_the_finder_barely_marks_is_named_where_the_reader_is_sure(detector):
    """Tigullio's 小王 (a star knocked out of a disc; a design never trained on) in South's zone
    of game 120's table at 1080p: the finder marks it under ``MARKS``, the reader reads it
    surely on that mark. A hand over the empty zone is marked nowhere, and names nothing."""
    renderer = Renderer(120, (1920, 1080), art=by_name("tigullio"))

    def zone(state: TableState):
        image = renderer.camera(renderer.view(renderer.table(state)))
        return rectify_zone(image, Calibration.from_image(image), "S")

    joker = zone(TableState(rows={"S": ["SB"], "E": [], "W": [], "N": []}))
    marks = [f for _, f in find_tiled(detector, joker, FLOOR, whole=True)]
    assert marks and max(marks) < MARKS
    card = unread_card(detector, joker, "S", ruled_out=["HR"])
    assert card is not None and card.card == "SB" and card.conf < MARKS  # the referee checks it
    hand = zone(TableState(rows={"S": [], "E": [], "W": [], "N": []}, hand=("S", 0.7)))
    assert unread_card(detector, hand, "S", ruled_out=[]) is None


def test_a_neighbours_card_reaching_into_the_zones_corner_is_not_this_seats(detector):
    """Seen in game 122 under the suite's arm shadow: the shadow left West's zone looking
    covered, and the search named North's CA, nudged into West's corner and read SA there
    (0.45), as a card West laid. Its marks lie on North's side of the table."""
    renderer = Renderer(122, (1920, 1080))
    north = ["SQ", "HQ", "HK", "DK", "HA", "CA"]
    image = renderer.camera(renderer.view(renderer.table(TableState(
        rows={"N": north, "E": [], "W": [], "S": []}, knocked={"N": (5, -10.0, -2.0)}))))
    west = rectify_zone(image, Calibration.from_image(image), "W")
    assert [f for _, f in find_tiled(detector, west, FLOOR, whole=True) if f >= MARKS]  # the corner is marked
    assert unread_card(detector, west, "W", ruled_out=[]) is None
