"""The wire protocol: framing, checksums and sentences (docs/clock-protocol.md)."""

import contextlib
import random
import re
from pathlib import Path

import pytest

from hardware import protocol as p


def test_checksum_is_the_xor_of_the_body():
    body = "BTN,7,E,15234"
    x = 0
    for ch in body:
        x ^= ord(ch)
    assert p.checksum(body) == f"{x:02X}"


def test_the_documented_example_is_correct():
    doc = (Path(__file__).parents[2] / "docs" / "clock-protocol.md").read_text(encoding="utf-8")
    block = doc.split("## Example", 1)[1].split("```", 2)[1]
    sentences = re.findall(r"\$([^*]+)\*([0-9A-F]{2})", block)
    assert len(sentences) == 5
    for body, cs in sentences:
        assert p.checksum(body) == cs, body
        p.parse(body)


@pytest.mark.parametrize("sentence", [
    p.Ready(1, "1.0.0", "ESWN"), p.Button(65535, "R", 4_000_000_000), p.Heartbeat(0), p.Ack(3),
    p.Nak(9, "text"), p.Display(1, "E", " 0.30"), p.Display(2, "*", "----"), p.Led(4, "N", "BLINK"),
    p.Beep(5, 2000),
])
def test_every_sentence_round_trips(sentence):
    framer = p.Framer()
    (body,) = framer.feed(p.encode(sentence))
    assert p.parse(body) == sentence


def test_framer_splits_a_stream_and_skips_noise():
    data = b"garbage" + p.frame("HB", 1) + b"\x00\xff" + p.frame("ACK", 2) + p.frame("HB", 3)[:5]
    framer = p.Framer()
    assert framer.feed(data) == ["HB,1", "ACK,2"]
    assert framer.feed(p.frame("HB", 3)[5:]) == ["HB,3"]
    assert framer.dropped == 0


@pytest.mark.parametrize("raw", [
    b"$HB,1*00\r\n",              # bad checksum
    b"$HB,1*4\r\n",               # short checksum
    b"$HB,1\r\n",                 # no checksum
    b"$HB,1*" + b"4" * 80 + b"\r\n",  # too long
    b"$HB,\xff1*30\r\n",          # not ASCII
])
def test_framer_drops_and_counts_bad_frames(raw):
    framer = p.Framer()
    assert framer.feed(raw) == []
    assert framer.dropped == 1


def test_a_new_dollar_restarts_the_sentence():
    framer = p.Framer()
    assert framer.feed(b"$HB,12" + p.frame("ACK", 1)) == ["ACK,1"]
    assert framer.dropped == 1


@pytest.mark.parametrize("body,message", [
    ("FOO,1", "unknown sentence"), ("HB", "takes 1 fields"), ("BTN,1,X,5", "bad button"),
    ("BTN,70000,E,5", "out of range"), ("DSP,1,E,12345", "cannot show"), ("DSP,1,Q,12", "bad seat"),
    ("DSP,1,E,..", "cannot show"), ("LED,1,E,DIM", "bad lamp mode"), ("BEEP,1,0", "out of range"),
    ("READY,1,x,ESWQ", "bad seats"), ("ACK,-1", "not a number"),
])
def test_malformed_sentences_are_refused(body, message):
    with pytest.raises(p.BadSentence, match=message):
        p.parse(body)


def test_display_text_takes_four_cells_dots_ride_along():
    assert p.display_cells(" 0.30") == 4
    assert p.display_cells("-9.59") == 4
    assert p.display_cells("8.8.8.8.") == 4
    assert p.display_cells("12345") is None
    assert p.display_cells("AbCd") == 4
    assert p.display_cells("xy") is None


def test_random_bytes_never_raise_and_are_counted():
    rng = random.Random(5)
    framer = p.Framer()
    for _ in range(2000):
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        for body in framer.feed(chunk):
            with contextlib.suppress(p.BadSentence):
                p.parse(body)
    assert framer.dropped > 0
