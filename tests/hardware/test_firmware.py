"""Table clock firmware (hardware/firmware/): it builds for the ATmega328P and fits a Nano,
the sketch keeps to its rules, and the whole sketch speaks the protocol, both under simavr
and compiled for the host against a fake Arduino.h. The protocol rules alone, compiled
natively: test_firmware_protocol.py and test_firmware_commands.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hardware import protocol
from tests.hardware.firmware_rig import FIRMWARE, HEADER, ROOT, SKETCH, needs_avr, needs_gcc

NANO_FLASH = 30720  # 32 KiB less the 2 KiB bootloader
NANO_RAM = 2048
STACK_RESERVE = 512  # static RAM must leave this much for the stack


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
    for header in (HEADER, HEADER.with_name("presses.h")):
        code = _code(header)
        assert "Arduino" not in code and "Serial" not in code  # pure: the native harness compiles it


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
