"""The table clock's wire protocol (docs/clock-protocol.md): framing, checksums, sentences.

Pure functions and small values, shared by the host driver and the device emulator. A
``Framer`` turns a byte stream into bodies and counts what it drops; ``parse`` turns a
body into a typed sentence or raises ``BadSentence``, which callers count, never act on.
"""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOL = 1
MAX_SENTENCE = 64
SEATS = "ESWN"
BUTTONS = SEATS + "R"  # R: the referee call button
DISPLAY_CHARS = set("0123456789 -_AbCdEFHLoPrtU")
LED_MODES = ("ON", "OFF", "BLINK")


class BadSentence(ValueError):
    """A sentence to drop and count."""


def checksum(body: str) -> str:
    """Two upper-case hex digits: the XOR of every byte of ``body`` (NMEA 0183)."""
    x = 0
    for b in body.encode("ascii"):
        x ^= b
    return f"{x:02X}"


def frame(*fields: object) -> bytes:
    """``$BODY*CS\\r\\n`` for the given fields."""
    body = ",".join(str(f) for f in fields)
    out = f"${body}*{checksum(body)}\r\n".encode("ascii")
    if len(out) > MAX_SENTENCE:
        raise ValueError(f"sentence longer than {MAX_SENTENCE} bytes: {body!r}")
    return out


class Framer:
    """Splits received bytes into checked sentence bodies; counts everything dropped."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._in_sentence = False
        self.dropped = 0

    def feed(self, data: bytes) -> list[str]:
        bodies = []
        for b in data:
            if b == 0x24:  # '$'
                if self._in_sentence:
                    self.dropped += 1  # a new sentence began before the old one ended
                self._buf.clear()
                self._in_sentence = True
            elif not self._in_sentence:
                continue  # noise between sentences
            elif b == 0x0A:  # '\n' ends a sentence
                self._in_sentence = False
                body = self._check(bytes(self._buf))
                if body is None:
                    self.dropped += 1
                else:
                    bodies.append(body)
            elif len(self._buf) >= MAX_SENTENCE - 2:  # the limit counts the '$' and '\n' too
                self._in_sentence = False
                self.dropped += 1
            else:
                self._buf.append(b)
        return bodies

    @staticmethod
    def _check(raw: bytes) -> str | None:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) < 4 or raw[-3:-2] != b"*":
            return None
        try:
            body, cs = raw[:-3].decode("ascii"), raw[-2:].decode("ascii")
        except UnicodeDecodeError:
            return None
        return body if cs == checksum(body) else None


# --- sentences --------------------------------------------------------------------------

@dataclass(frozen=True)
class Ready:
    protocol: int
    firmware: str
    seats: str


@dataclass(frozen=True)
class Button:
    n: int
    seat: str
    ms: int


@dataclass(frozen=True)
class Heartbeat:
    ms: int


@dataclass(frozen=True)
class Ack:
    n: int


@dataclass(frozen=True)
class Nak:
    n: int
    reason: str


@dataclass(frozen=True)
class Display:
    n: int
    seat: str
    text: str


@dataclass(frozen=True)
class Led:
    n: int
    seat: str
    mode: str


@dataclass(frozen=True)
class Beep:
    n: int
    ms: int


def _int(text: str, low: int, high: int) -> int:
    if not text.isdigit():
        raise BadSentence(f"not a number: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise BadSentence(f"{value} out of range {low}-{high}")
    return value


def _number(text: str) -> int:
    return _int(text, 0, 65535)


def display_cells(text: str) -> int | None:
    """How many of the 4 digits ``text`` takes (a '.' rides on the digit before it);
    ``None`` if it cannot be shown."""
    cells = 0
    prev_char = False
    for ch in text:
        if ch == ".":
            if not prev_char:
                return None
            prev_char = False
            continue
        if ch not in DISPLAY_CHARS:
            return None
        cells += 1
        prev_char = True
    return cells if cells <= 4 else None


def parse(body: str):
    """A sentence value from a checked body; ``BadSentence`` for anything malformed."""
    fields = body.split(",")
    kind, args = fields[0], fields[1:]
    shapes = {"READY": 3, "BTN": 3, "HB": 1, "ACK": 1, "NAK": 2, "DSP": 3, "LED": 3, "BEEP": 2}
    if kind not in shapes:
        raise BadSentence(f"unknown sentence {kind!r}")
    if len(args) != shapes[kind]:
        raise BadSentence(f"{kind} takes {shapes[kind]} fields, got {len(args)}")
    if kind == "READY":
        seats = args[2]
        if not seats or any(s not in SEATS for s in seats):
            raise BadSentence(f"bad seats {seats!r}")
        return Ready(_int(args[0], 1, 999), args[1], seats)
    if kind == "BTN":
        if args[1] not in BUTTONS or len(args[1]) != 1:
            raise BadSentence(f"bad button {args[1]!r}")
        return Button(_number(args[0]), args[1], _int(args[2], 0, 2**32 - 1))
    if kind == "HB":
        return Heartbeat(_int(args[0], 0, 2**32 - 1))
    if kind == "ACK":
        return Ack(_number(args[0]))
    if kind == "NAK":
        return Nak(_number(args[0]), args[1])
    n = _number(args[0])
    if kind == "BEEP":
        return Beep(n, _int(args[1], 1, 2000))
    seat = args[1]
    if len(seat) != 1 or seat not in SEATS + "*":
        raise BadSentence(f"bad seat {seat!r}")
    if kind == "DSP":
        if display_cells(args[2]) is None:
            raise BadSentence(f"cannot show {args[2]!r}")
        return Display(n, seat, args[2])
    if args[2] not in LED_MODES:
        raise BadSentence(f"bad lamp mode {args[2]!r}")
    return Led(n, seat, args[2])


def encode(sentence) -> bytes:
    """The framed bytes of a sentence value."""
    if isinstance(sentence, Ready):
        return frame("READY", sentence.protocol, sentence.firmware, sentence.seats)
    if isinstance(sentence, Button):
        return frame("BTN", sentence.n, sentence.seat, sentence.ms)
    if isinstance(sentence, Heartbeat):
        return frame("HB", sentence.ms)
    if isinstance(sentence, Ack):
        return frame("ACK", sentence.n)
    if isinstance(sentence, Nak):
        return frame("NAK", sentence.n, sentence.reason)
    if isinstance(sentence, Display):
        return frame("DSP", sentence.n, sentence.seat, sentence.text)
    if isinstance(sentence, Led):
        return frame("LED", sentence.n, sentence.seat, sentence.mode)
    if isinstance(sentence, Beep):
        return frame("BEEP", sentence.n, sentence.ms)
    raise TypeError(f"not a sentence: {sentence!r}")
