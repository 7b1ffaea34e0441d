"""The table clock firmware's protocol rules (hardware/firmware/guandan_clock/protocol.h),
compiled natively with the system gcc: framing and checksums, the device's sentences,
presses waiting for an ACK, debouncing and blinking follow docs/clock-protocol.md and agree
with the reference in hardware/protocol.py. Host commands: test_firmware_commands.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware import protocol
from tests.hardware.firmware_rig import DOC, needs_gcc

# --- the native protocol harness ----------------------------------------------------------

def _doc_example() -> list[tuple[str, bytes]]:
    block = DOC.read_text(encoding="utf-8").split("## Example", 1)[1].split("```")[1]
    lines = []
    for line in block.strip().splitlines():
        who, sentence = line.split(":", 1)
        lines.append((who.strip(), sentence.strip().replace("\\r\\n", "\r\n").encode("ascii")))
    assert len(lines) == 5
    return lines


@needs_gcc
def test_the_documented_example_sentences_are_accepted(harness):
    for _, sentence in _doc_example():
        assert harness.frame(sentence) == (0, [sentence[1:-5].decode()])
    # noise before, all in one stream
    stream = b"\x00garbage\r\n" + b"".join(s for _, s in _doc_example())
    assert harness.frame(stream) == (0, [s[1:-5].decode() for _, s in _doc_example()])


@needs_gcc
def test_the_device_writes_the_documented_sentences_byte_for_byte(harness):
    device = [s for who, s in _doc_example() if who == "device"]
    assert harness.out("READY") == device[0]
    assert harness.out("ACK 1") == device[1]
    assert harness.out("BTN 7 E 15234") == device[2]


@needs_gcc
def test_the_device_carries_out_the_documented_host_commands(harness):
    host = [s for who, s in _doc_example() if who == "host"]
    # "0.30" right-aligned: blank, '0' with the colon bit, '3', '0'
    assert harness.decide(host[0][1:-5]) == "ACK 1 DSP 1 00BF4F3F"
    assert harness.decide(host[1][1:-5]) == "CLEAR 7"


def _sentence(body: str, cs: str | None = None) -> bytes:
    return f"${body}*{protocol.checksum(body) if cs is None else cs}\r\n".encode("ascii")


@needs_gcc
@pytest.mark.parametrize("data,expected", [
    (_sentence("HB,1"), (0, ["HB,1"])),
    (b"$HB,1*" + protocol.checksum("HB,1").encode() + b"\n", (0, ["HB,1"])),  # '\r' is optional
    (b"xx$" + _sentence("ACK,3"), (1, ["ACK,3"])),  # a '$' mid-sentence starts over
    (b"$$" + _sentence("ACK,3"), (2, ["ACK,3"])),
    (_sentence("ACK,3")[:-6] + _sentence("ACK,4"), (1, ["ACK,4"])),
    (_sentence("DSP,1,*,----"), (0, ["DSP,1,*,----"])),  # a '*' inside the body
    (_sentence("HB,1", "00"), (1, [])),  # wrong checksum
    (_sentence("DSP,1,E,AAAA", "1F"), (0, ["DSP,1,E,AAAA"])),
    (_sentence("DSP,1,E,AAAA", "1f"), (1, [])),  # lower-case hex refused
    (b"$HB,1\r\n", (1, [])),  # no checksum
    (b"$HB,1*7\r\n", (1, [])),  # one checksum digit
    (b"$*00\r\n", (1, [])),  # empty body
    (b"$HB,1*6G\r\n", (1, [])),  # not hex
    (b"HB,1*17\r\n", (0, [])),  # no '$': noise
    (_sentence("HB,1")[:-2], (0, [])),  # unfinished: nothing yet
])
def test_framing_accepts_good_sentences_and_counts_the_bad(harness, data, expected):
    assert harness.frame(data) == expected


@needs_gcc
def test_non_ascii_bytes_are_refused_even_with_a_matching_checksum(harness):
    body = b"DSP,1,E,\xb0"
    cs = 0
    for b in body:
        cs ^= b
    assert harness.frame(b"$" + body + f"*{cs:02X}\r\n".encode()) == (1, [])


DOC_MAX_SENTENCE = 64  # docs/clock-protocol.md: '$' to '\n', both included


def _long_sentence(total: int) -> tuple[str, bytes]:
    body = "X," + "9" * (total - 8)  # '$' + body + '*CS' + '\r\n'
    sentence = _sentence(body)
    assert len(sentence) == total
    return body, sentence


@needs_gcc
def test_sentences_longer_than_64_bytes_are_dropped(harness):
    for total in range(DOC_MAX_SENTENCE - 4, DOC_MAX_SENTENCE + 6):
        body, sentence = _long_sentence(total)
        fits = total <= DOC_MAX_SENTENCE
        assert harness.frame(sentence) == ((0, [body]) if fits else (1, []))
        # the stream recovers at the next '$'
        expected_bodies = [body, "HB,5"] if fits else ["HB,5"]
        assert harness.frame(sentence + _sentence("HB,5")) == (0 if fits else 1, expected_bodies)
        reference = protocol.Framer()
        assert reference.feed(sentence) == ([body] if fits else [])  # the host's framer agrees
        if not fits:
            with pytest.raises(ValueError):
                protocol.frame(body)  # the host would not send it


_pieces = st.one_of(
    st.builds(_sentence, st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="$"),
                                 min_size=1, max_size=70)),
    st.sampled_from([b"$", b"\r", b"\n", b"*", b"\r\n", b"*00", b"$HB,1*", b"17\r\n"]),
    st.binary(max_size=12),
)


@needs_gcc
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pieces, max_size=8))
def test_framing_agrees_with_the_reference_framer_on_any_stream(harness, pieces):
    data = b"".join(pieces)
    reference = protocol.Framer()
    bodies = reference.feed(data)
    # the reference decodes ASCII or drops; the firmware refuses bytes >= 0x80 the same way
    assert harness.frame(data) == (reference.dropped, bodies)


@needs_gcc
@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(min_codepoint=0, max_codepoint=127, exclude_characters="$\n"), min_size=1, max_size=58))
def test_the_checksum_matches_the_reference_for_any_ascii_body(harness, body):
    good = _sentence(body)
    assert harness.frame(good) == (0, [body])
    wrong = f"{int(protocol.checksum(body), 16) ^ 0x01:02X}"
    assert harness.frame(_sentence(body, wrong)) == (1, [])


# --- device sentences ---------------------------------------------------------------------

@needs_gcc
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 65535), st.sampled_from(protocol.BUTTONS), st.integers(0, 2**32 - 1))
def test_button_and_heartbeat_sentences_match_the_reference_encoder(harness, n, seat, ms):
    assert harness.out(f"BTN {n} {seat} {ms}") == protocol.encode(protocol.Button(n, seat, ms))
    assert harness.out(f"HB {ms}") == protocol.encode(protocol.Heartbeat(ms))
    assert harness.out(f"ACK {n}") == protocol.encode(protocol.Ack(n))


@needs_gcc
def test_refusals_name_the_reason(harness):
    for code, reason in enumerate(["seat", "text", "value", "unknown"], 1):
        assert harness.out(f"NAK 42 {code}") == protocol.encode(protocol.Nak(42, reason))
    assert harness.out("READY") == protocol.encode(protocol.Ready(1, "1.0.0", "ESWN"))


# --- presses waiting for an ACK -----------------------------------------------------------

@needs_gcc
def test_presses_are_repeated_every_200_ms_until_acknowledged(harness):
    out = harness.run(
        "RP E 1000", "RP R 1005",           # two presses: n 0 and 1
        "RD 1010", "RD 1010", "RD 1010",    # each sent once, then nothing due
        "RD 1209", "RD 1210", "RD 1215", "RD 1216",
        "RA 0", "RA 0", "RD 1500", "RD 1501", "RL",
    )
    assert out == [
        "0 1 0", "1 2 0",
        "0 E 1000", "1 R 1005", "-",
        "-", "0 E 1000", "1 R 1005", "-",    # 200 ms after each was last sent
        "1", "0", "1 R 1005", "-", "1",      # an ACK clears; a repeated one finds nothing
    ]


@needs_gcc
def test_at_most_16_presses_wait_and_the_oldest_goes_first(harness):
    out = harness.run(*[f"RP N {t}" for t in range(17)], "RL", "RA 5", "RL", "RD 100")
    assert out[15] == "15 16 0"
    assert out[16] == "16 16 1"  # the 17th press pushed out press 0
    assert out[17] == " ".join(str(n) for n in range(1, 17))
    assert out[18] == "1"
    assert out[19] == " ".join(str(n) for n in range(1, 17) if n != 5)
    assert out[20] == "1 N 1"


@needs_gcc
def test_press_numbers_wrap_at_65536(harness):
    out = harness.run("RI", *["RP W 0"] * 65537, "RA 65535", "RA 0", "RL")
    assert out[-6:-3] == ["65534 16 65519", "65535 16 65520", "0 16 65521"]
    assert out[-3:] == ["1", "1", " ".join(str(n) for n in range(65521, 65535))]


# --- buttons and lamps --------------------------------------------------------------------

@needs_gcc
def test_a_bouncing_press_counts_once_at_its_falling_edge(harness):
    out = harness.run(
        "DI 0 0",
        "DF 1 100", "DF 0 102", "DF 1 104",  # contact bounce
        "DF 1 110", "DF 1 123", "DF 1 124",  # low for 20 ms from the last edge at 104
        "DF 1 500",                          # held: no repeat
        "DF 0 600", "DF 1 605", "DF 0 610", "DF 0 700",  # a 5 ms glitch while released
        "DF 1 800", "DF 1 819", "DF 1 820",
    )
    assert out == ["ok", "-", "-", "-", "-", "-", "press 104", "-", "-", "-", "-", "-", "-", "-", "press 800"]


@needs_gcc
def test_a_button_held_through_a_reset_is_not_a_press(harness):
    assert harness.run("DI 1 0", "DF 1 10", "DF 1 100", "DF 0 200", "DF 0 300") == ["ok", "-", "-", "-", "-"]


@needs_gcc
def test_millis_wraparound_does_not_stall_debouncing(harness):
    top = 2**32 - 5
    assert harness.run(f"DI 0 {top}", f"DF 1 {top + 1}", "DF 1 15", "DF 1 16")[-2:] == ["-", f"press {top + 1}"]


@needs_gcc
def test_lamps_blink_at_2_hz(harness):
    times = [0, 249, 250, 499, 500, 749, 750, 1000]
    out = harness.run(*[f"L 2 {t}" for t in times], "L 1 250", "L 0 0")
    assert out == ["1", "1", "0", "0", "1", "1", "0", "1", "1", "0"]
