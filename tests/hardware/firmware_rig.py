"""What the table clock firmware's tests (tests/hardware/test_firmware*.py) share: where the
firmware, its sketch, protocol header and harnesses lie, the marks that skip a test on a
machine without the compilers, and the native protocol harness driven from Python."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
SKETCH = FIRMWARE / "guandan_clock" / "guandan_clock.ino"
HEADER = FIRMWARE / "guandan_clock" / "protocol.h"
HARNESS = FIRMWARE / "test" / "protocol_harness.c"
DOC = ROOT / "docs" / "clock-protocol.md"
ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")

needs_avr = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("make", "avr-gcc", "avr-g++", "avr-objcopy", "avr-size"))
    or not ARDUINO_CORE.is_dir(),
    reason="needs Debian's gcc-avr, binutils-avr and arduino-core-avr",
)
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs the system gcc")


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
