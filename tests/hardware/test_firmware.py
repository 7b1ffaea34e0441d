"""Table clock firmware (hardware/firmware/): it builds for the ATmega328P and fits a Nano,
and the protocol rules in guandan_clock/protocol.h, compiled natively with the system gcc,
follow docs/clock-protocol.md and agree with the reference in hardware/protocol.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware import protocol

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
SKETCH = FIRMWARE / "guandan_clock" / "guandan_clock.ino"
HEADER = FIRMWARE / "guandan_clock" / "protocol.h"
HARNESS = FIRMWARE / "test" / "protocol_harness.c"
DOC = ROOT / "docs" / "clock-protocol.md"
ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")

NANO_FLASH = 30720  # 32 KiB less the 2 KiB bootloader
NANO_RAM = 2048
STACK_RESERVE = 512  # static RAM must leave this much for the stack

needs_avr = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("make", "avr-gcc", "avr-g++", "avr-objcopy", "avr-size"))
    or not ARDUINO_CORE.is_dir(),
    reason="needs Debian's gcc-avr, binutils-avr and arduino-core-avr",
)
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs the system gcc")


# --- the AVR build ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("firmware-build")
    done = subprocess.run(["make", "-C", str(FIRMWARE), f"BUILD={out}"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "flash:" in done.stdout  # the build prints its size
    return out


def _sections(elf: Path) -> dict[str, int]:
    text = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    sections = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sections[parts[0]] = int(parts[1])
    return sections


def _intel_hex_data_bytes(path: Path) -> int:
    """Checks every record of an Intel HEX file; returns how many data bytes it holds."""
    lines = path.read_text(encoding="ascii").splitlines()
    assert lines, "empty hex file"
    data = 0
    for number, line in enumerate(lines, 1):
        assert re.fullmatch(r":([0-9A-F]{2})+", line), f"line {number}: not a record: {line!r}"
        record = bytes.fromhex(line[1:])
        assert len(record) >= 5 and record[0] == len(record) - 5, f"line {number}: wrong byte count"
        assert sum(record) % 256 == 0, f"line {number}: bad checksum"
        kind = record[3]
        assert kind in (0, 1, 2, 3, 4, 5), f"line {number}: unknown record type {kind}"
        if kind == 0:
            data += record[0]
        if kind == 1:
            assert number == len(lines), "end-of-file record before the end"
    assert lines[-1] == ":00000001FF", "no end-of-file record"
    return data


@needs_avr
def test_firmware_builds_to_a_valid_intel_hex_file(build):
    hex_file = build / "guandan_clock.hex"
    assert hex_file.is_file()
    sections = _sections(build / "guandan_clock.elf")
    assert _intel_hex_data_bytes(hex_file) == sections[".text"] + sections.get(".data", 0)


@needs_avr
def test_firmware_fits_an_arduino_nano(build):
    sections = _sections(build / "guandan_clock.elf")
    flash = sections[".text"] + sections.get(".data", 0)
    ram = sections.get(".data", 0) + sections.get(".bss", 0) + sections.get(".noinit", 0)
    assert flash <= NANO_FLASH, f"flash {flash} > {NANO_FLASH}"
    assert ram <= NANO_RAM, f"static RAM {ram} > {NANO_RAM}"
    assert ram <= NANO_RAM - STACK_RESERVE, f"static RAM {ram} leaves under {STACK_RESERVE} bytes of stack"


@needs_avr
def test_the_default_build_directory_is_git_ignored():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    path = "hardware/firmware/build/guandan_clock.hex"
    assert subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", path]).returncode == 0


def _code(path: Path) -> str:
    """Source without comments or string literals."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def test_sketch_uses_no_libraries_no_delay_and_no_string_class():
    code = _code(SKETCH)
    assert re.findall(r"#include\s*[<\"]([^>\"]+)", SKETCH.read_text(encoding="utf-8")) == ["Arduino.h", "protocol.h"]
    assert not re.search(r"\bdelay\s*\(", code)
    assert not re.search(r"\bString\b", code)
    assert not re.search(r"\b(malloc|new)\b", code)
    header = _code(HEADER)
    assert "Arduino" not in header and "Serial" not in header  # pure: the native harness compiles it


# --- the native protocol harness ----------------------------------------------------------

class Harness:
    def __init__(self, exe: Path) -> None:
        self.exe = exe

    def run(self, *commands: str) -> list[str]:
        done = subprocess.run([str(self.exe)], input="".join(c + "\n" for c in commands),
                              capture_output=True, text=True, timeout=60, check=True)
        lines = done.stdout.split("\n")[:-1]
        assert len(lines) == len(commands), done.stdout
        return lines

    def frame(self, data: bytes) -> tuple[int, list[str]]:
        """Feeds bytes to a fresh framer: (dropped, bodies)."""
        dropped, *bodies = self.run("F " + data.hex())[0].split(" ")
        return int(dropped), [bytes.fromhex(b).decode("ascii") for b in bodies]

    def decide(self, body: str | bytes) -> str:
        raw = body.encode("ascii") if isinstance(body, str) else body
        return self.run("P " + raw.hex())[0]

    def out(self, what: str) -> bytes:
        line = self.run("O " + what)[0]
        return b"" if line == "-" else bytes.fromhex(line)


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Harness:
    if shutil.which("gcc") is None:
        pytest.skip("needs the system gcc")
    exe = tmp_path_factory.mktemp("native") / "protocol_harness"
    done = subprocess.run(["gcc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pedantic",
                           f"-I{HEADER.parent}", str(HARNESS), "-o", str(exe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Harness(exe)


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


# --- the real firmware under simavr -------------------------------------------------------

def _vcd(pins: list[tuple[int, int]], serial: list[tuple[int, bytes]]) -> str:
    """A simavr input trace (1 us steps): button E's pin A0 (PC0) levels and bytes into UART0."""
    events = [(ms * 1000, f"{level}a") for ms, level in pins]
    for ms, data in serial:
        events += [(ms * 1000 + 100 * i, f"b{byte:08b} u") for i, byte in enumerate(data)]  # 100 us a byte
    lines = ["$timescale 1us $end", "$scope module logic $end",
             "$var wire 1 a iogC_0 $end",  # AVR_IOCTL_IOPORT_GETIRQ('C'), pin 0
             "$var wire 8 u uar0_0 $end",  # AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT
             "$upscope $end", "$enddefinitions $end"]
    for when, change in sorted(events):
        lines += [f"#{when}", change]
    return "\n".join(lines) + "\n"


@needs_avr
@pytest.mark.skipif(shutil.which("simavr") is None, reason="needs simavr")
def test_the_firmware_speaks_the_protocol_in_simavr(build, tmp_path):
    trace = tmp_path / "input.vcd"
    trace.write_text(_vcd(
        pins=[(0, 1), (300, 0), (2300, 1)],  # E pressed at 300 ms and held; the trace ends at 2.3 s
        serial=[
            (750, protocol.frame("ACK", 0)),                   # the host acknowledges BTN 0
            (800, b"noise" + protocol.frame("DSP", 1, "E", "0.30")),
            (850, protocol.frame("BEEP", 2, 5000)),             # over 2000 ms
            (900, protocol.frame("LED", 3, "*", "BLINK")),
            (950, protocol.frame("LED", 4, "Q", "ON")),
            (1000, protocol.frame("FOO", 5)),
            (1050, b"$DSP,6,E,1*00\r\n"),                     # bad checksum: dropped, no answer
        ],
    ))
    done = subprocess.run(["simavr", "-m", "atmega328p", "-f", "16000000", "-i", str(trace),
                           str(build / "guandan_clock.elf")], capture_output=True, text=True, timeout=120)
    text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
    sentences = re.findall(r"\$([^$*\r\n]*)\*([0-9A-F]{2})\.\.", text)  # simavr prints "\r\n" as ".."
    assert sentences, text[-2000:]
    for body, cs in sentences:
        assert cs == protocol.checksum(body)
    parsed = [protocol.parse(body) for body, _ in sentences]
    presses = [s for s in parsed if isinstance(s, protocol.Button)]
    beats = [s.ms for s in parsed if isinstance(s, protocol.Heartbeat)]
    replies = [s for s in parsed if isinstance(s, protocol.Ack | protocol.Nak)]

    assert parsed[0] == protocol.Ready(1, "1.0.0", "ESWN")
    # sent 20 ms after the press, then every 200 ms until the ACK at 750 ms: 3 times, unchanged
    assert len(presses) == 3 and len(set(presses)) == 1, presses
    assert presses[0].n == 0 and presses[0].seat == "E" and 295 <= presses[0].ms <= 305
    assert replies == [protocol.Ack(1), protocol.Nak(2, "value"), protocol.Ack(3), protocol.Nak(4, "seat"),
                       protocol.Nak(5, "unknown")]
    assert len(beats) == 2 and 1000 <= beats[0] <= 1010 and 2000 <= beats[1] <= 2010


# --- the whole sketch on the host ---------------------------------------------------------

SKETCH_HARNESS = FIRMWARE / "test" / "sketch_harness.cpp"


@pytest.fixture(scope="module")
def sketch(tmp_path_factory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("needs the system g++")
    exe = tmp_path_factory.mktemp("sketch") / "sketch_harness"
    fake = FIRMWARE / "test" / "fake_arduino"
    done = subprocess.run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", f"-I{fake}", f"-I{HEADER.parent}",
                           "-x", "c++", str(SKETCH), "-x", "c++", str(SKETCH_HARNESS), "-o", str(exe)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return exe


def _host(*fields: object) -> str:
    return "S " + protocol.frame(*fields).hex()


def _reports(exe: Path, commands: list[str]) -> list[dict]:
    """Runs the sketch through commands; one report per 'Q'."""
    done = subprocess.run([str(exe)], input="\n".join(commands) + "\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    reports, report = [], {"tm": {}}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key == "end":
            reports.append(report)
            report = {"tm": {}}
        elif key == "tx":
            report["tx"] = [s.decode()[1:-5] for s in re.findall(rb"\$[^$]*?\r\n", bytes.fromhex(value))]
        elif key == "tm":
            seat, _, frames = value.partition(" ")
            report["tm"]["ESWN"[int(seat)]] = frames
        elif key == "pins":
            report["lamps"] = value.replace(" ", "")
        elif key in ("wait", "nak"):
            report[key] = int(value)
        else:
            report[key] = value
    assert len(reports) == commands.count("Q")
    return reports


@needs_gcc
def test_the_sketch_drives_displays_lamps_buzzer_and_serial(sketch):
    boot, shown, lamp_off, beep, press, repeat, acked, full, room, next_beat, everyone = _reports(sketch, [
        "R 10 1", "Q",
        _host("DSP", 1, "E", "0.30"), _host("LED", 2, "S", "BLINK"), _host("LED", 3, "W", "ON"),
        "S " + b"$DSP,9,N,1*00\r\n".hex(), "R 20 1", "Q",
        "R 300 1", "Q",
        _host("BEEP", 4, 100), "R 400 1", "Q",
        "X 14 1", "R 450 1", "Q",  # something holds A0 (button E) low from 400 ms
        "R 700 1", "Q",
        _host("ACK", 0), "R 1100 1", "Q",
        "W 5", "R 2100 1", "Q",     # the transmit buffer has no room for a heartbeat
        "W 63", "R 2101 1", "Q",
        "R 3000 1", "Q",
        _host("DSP", 5, "*", "8.8.8.8."), "R 3010 1", "Q",  # one display refreshed per loop()
    ])
    dashes = "40|C040404040|8D"  # data command, address 0 and 4 digits, display on at brightness 5
    assert boot["tx"] == ["READY,1,1.0.0,ESWN"]
    assert boot["tm"] == {"E": dashes, "S": dashes, "W": dashes, "N": dashes}
    assert boot["lamps"] == "0000"

    assert shown["tx"] == ["ACK,1", "ACK,2", "ACK,3"]  # the bad checksum got no answer
    assert shown["tm"] == {"E": "40|C000BF4F3F|8D", "S": "", "W": "", "N": ""}
    assert shown["lamps"] == "0110"  # S blinking (lit in the first 250 ms of each 500), W on
    assert lamp_off["lamps"] == "0010" and lamp_off["tx"] == []

    assert beep["tone"] == "19:2700@300 off19@400" and beep["tx"] == ["ACK,4"]

    assert press["tx"] == ["BTN,0,E,400"]  # sent after 20 ms low, stamped with the edge
    assert repeat["tx"] == ["BTN,0,E,400"]  # at 620 ms
    assert acked["tx"] == ["HB,1000"]  # no more repeats after the ACK

    assert full["tx"] == []  # nothing written, nothing blocked
    assert room["tx"] == ["HB,2100"]  # late, with the uptime it was sent at
    assert next_beat["tx"] == ["HB,3000"]  # the heartbeat keeps its 1 s rhythm

    all_eights = "40|C0FFFFFFFF|8D"
    assert everyone["tm"] == {"E": all_eights, "S": all_eights, "W": all_eights, "N": all_eights}
    for report in (boot, shown, lamp_off, beep, press, repeat, acked, full, room, next_beat, everyone):
        assert report["nak"] == 0  # the TM1637 bus never saw a malformed frame
        assert report["wait"] <= 1500  # the longest busy-wait in one loop(), in us
