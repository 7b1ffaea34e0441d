"""Host commands in the table clock firmware (hardware/firmware/guandan_clock/protocol.h,
compiled natively with the system gcc): carried out, refused or dropped as
hardware/firmware/README.md says, checked against a table, against an oracle written here
and against the reference parser in hardware/protocol.py."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import protocol
from tests.hardware.firmware_rig import needs_gcc

# --- host commands ------------------------------------------------------------------------

FONT = {  # segments a..g = bits 0..6; independent of the C table on purpose
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D, "7": 0x07,
    "8": 0x7F, "9": 0x6F, " ": 0x00, "-": 0x40, "_": 0x08, "A": 0x77, "b": 0x7C, "C": 0x39,
    "d": 0x5E, "E": 0x79, "F": 0x71, "H": 0x76, "L": 0x38, "o": 0x5C, "P": 0x73, "r": 0x50,
    "t": 0x78, "U": 0x3E,
}
SEAT_MASK = {"E": 1, "S": 2, "W": 4, "N": 8, "*": 15}


def test_the_font_covers_exactly_the_protocols_characters():
    assert set(FONT) == protocol.DISPLAY_CHARS


def _render(text: str) -> str:
    cells: list[int] = []
    for ch in text:
        if ch == ".":
            cells[-1] |= 0x80
        else:
            cells.append(FONT[ch])
    cells = [0] * (4 - len(cells)) + cells
    return "".join(f"{c:02X}" for c in cells)


def _number(text: str, high: int) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and int(text) <= high else None


def expected_decision(body: str) -> str:
    """The device's rules (hardware/firmware/README.md, "Host commands")."""
    kind, *args = body.split(",")
    if kind in ("DSP", "LED"):
        if len(args) != 3 or (n := _number(args[0], 65535)) is None:
            return "DROP"
        if args[1] not in SEAT_MASK:
            return f"NAK {n} seat"
        if kind == "DSP":
            if protocol.display_cells(args[2]) is None:
                return f"NAK {n} text"
            return f"ACK {n} DSP {SEAT_MASK[args[1]]:X} {_render(args[2])}"
        if args[2] not in protocol.LED_MODES:
            return f"NAK {n} value"
        return f"ACK {n} LED {SEAT_MASK[args[1]]:X} {['OFF', 'ON', 'BLINK'].index(args[2])}"
    if kind == "BEEP":
        if len(args) != 2 or (n := _number(args[0], 65535)) is None:
            return "DROP"
        ms = _number(args[1], 2000)
        return f"NAK {n} value" if ms is None or ms < 1 else f"ACK {n} BEEP {ms}"
    if kind == "ACK":
        return f"CLEAR {n}" if len(args) == 1 and (n := _number(args[0], 65535)) is not None else "DROP"
    if kind in ("READY", "BTN", "HB", "NAK"):
        return "DROP"
    if args and re.fullmatch(r"[A-Z]+", kind) and (n := _number(args[0], 65535)) is not None:
        return f"NAK {n} unknown"
    return "DROP"


@needs_gcc
@pytest.mark.parametrize("body,decision", [
    ("DSP,1,E,0.30", "ACK 1 DSP 1 00BF4F3F"),
    ("DSP,2,*,----", "ACK 2 DSP F 40404040"),
    ("DSP,3,N,", "ACK 3 DSP 8 00000000"),
    ("DSP,4,S,1.2.3.4.", "ACK 4 DSP 2 86DBCFE6"),
    ("DSP,5,W,AbCd", "ACK 5 DSP 4 777C395E"),
    ("DSP,6,W,EFHL", "ACK 6 DSP 4 79717638"),
    ("DSP,7,W,oPrt", "ACK 7 DSP 4 5C735078"),
    ("DSP,8,W,U _-", "ACK 8 DSP 4 3E000840"),
    ("DSP,65535,E,9", "ACK 65535 DSP 1 0000006F"),
    ("DSP,9,E,12345", "NAK 9 text"),
    ("DSP,9,E,abcd", "NAK 9 text"),
    ("DSP,9,E,.1", "NAK 9 text"),
    ("DSP,9,E,1..2", "NAK 9 text"),
    ("DSP,9,R,1", "NAK 9 seat"),
    ("DSP,9,e,1", "NAK 9 seat"),
    ("DSP,9,,1", "NAK 9 seat"),
    ("DSP,9,EW,1", "NAK 9 seat"),
    ("DSP,65536,E,1", "DROP"),
    ("DSP,-1,E,1", "DROP"),
    ("DSP,,E,1", "DROP"),
    ("DSP,1,E", "DROP"),
    ("DSP,1,E,1,2", "DROP"),
    ("LED,10,S,ON", "ACK 10 LED 2 1"),
    ("LED,11,*,OFF", "ACK 11 LED F 0"),
    ("LED,12,N,BLINK", "ACK 12 LED 8 2"),
    ("LED,13,N,on", "NAK 13 value"),
    ("LED,13,X,ON", "NAK 13 seat"),
    ("LED,13,N", "DROP"),
    ("BEEP,14,1", "ACK 14 BEEP 1"),
    ("BEEP,15,2000", "ACK 15 BEEP 2000"),
    ("BEEP,15,0002000", "ACK 15 BEEP 2000"),
    ("BEEP,16,0", "NAK 16 value"),
    ("BEEP,16,2001", "NAK 16 value"),
    ("BEEP,16,99999999999999", "NAK 16 value"),
    ("BEEP,16,", "NAK 16 value"),
    ("BEEP,16,1x", "NAK 16 value"),
    ("BEEP,16", "DROP"),
    ("BEEP,x,5", "DROP"),
    ("ACK,0", "CLEAR 0"),
    ("ACK,65535", "CLEAR 65535"),
    ("ACK,65536", "DROP"),
    ("ACK", "DROP"),
    ("ACK,1,2", "DROP"),
    ("FOO,17", "NAK 17 unknown"),
    ("FOO,17,a,b,c,d,e", "NAK 17 unknown"),
    ("FOO", "DROP"),
    ("FOO,x", "DROP"),
    ("foo,17", "DROP"),
    ("HB,17", "DROP"),
    ("BTN,17,E,5", "DROP"),
    ("NAK,17,seat", "DROP"),
    ("READY,1,1.0.0,ESWN", "DROP"),
])
def test_host_commands_are_carried_out_refused_or_dropped(harness, body, decision):
    assert expected_decision(body) == decision  # the oracle agrees with the table
    assert harness.decide(body) == decision


_fields = st.sampled_from(["", "0", "1", "7", "007", "2000", "2001", "65535", "65536", "-1", " 1", "x",
                           "E", "S", "W", "N", "*", "R", "e", "EE", "ON", "OFF", "BLINK", "on",
                           "0.30", "----", "8.8.8.8.", "12345", ".1", "1..2", "AbCd", "abcd", "t U"])
_kinds = st.sampled_from(["DSP", "LED", "BEEP", "ACK", "READY", "BTN", "HB", "NAK", "FOO", "dsp", ""])
_text = st.text(alphabet=sorted(protocol.DISPLAY_CHARS) + [".", "a", ","], max_size=6)


@needs_gcc
@settings(max_examples=400, deadline=None)
@given(_kinds, st.lists(st.one_of(_fields, _text), max_size=4))
def test_host_command_decisions_agree_with_the_reference_parser(harness, kind, fields):
    body = ",".join([kind, *fields])
    if len(body) > 58:
        return
    decision = harness.decide(body)
    assert decision == expected_decision(body)
    try:
        sentence = protocol.parse(body)
    except protocol.BadSentence:
        sentence = None
    # whatever the reference calls malformed is never carried out ...
    if sentence is None:
        assert decision == "DROP" or decision.startswith("NAK ")
    # ... and every well-formed host command is
    elif isinstance(sentence, protocol.Display | protocol.Led | protocol.Beep):
        assert decision.startswith(f"ACK {sentence.n} ")
    elif isinstance(sentence, protocol.Ack):
        assert decision == f"CLEAR {sentence.n}"
    else:
        assert decision == "DROP"
