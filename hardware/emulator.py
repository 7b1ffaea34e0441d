"""The table clock box in Python: the same protocol as the firmware, on a real serial port.

Opens one end of a pseudo-terminal pair (or any pyserial URL) and behaves like the box:
READY when the port opens, a heartbeat every second, button presses repeated every 200 ms
until acknowledged, displays, lamps and the buzzer driven by host commands (each answered
with ACK or NAK). If the port goes away it waits for it to come back, keeping presses the
host has not acknowledged — a box with its own power on a replugged cable.

``python -m hardware.emulator PORT --keys`` runs it with a keyboard UI: keys e s w n
press the seat buttons, r the referee button, q quits.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import threading
import time
from collections import OrderedDict

import serial

from hardware import protocol as p
from hardware.port_thread import PortThread

FIRMWARE = "emu-1.0"
REPEAT_S = 0.2
HEARTBEAT_S = 1.0
MAX_PENDING = 16


class DeviceEmulator(PortThread):
    name = "clock-emulator"

    def __init__(self, port: str, seats: str = "ESWN", send_heartbeats: bool = True,
                 ignore_commands: int = 0) -> None:
        super().__init__()
        self.port = port
        self.seats = seats
        self.send_heartbeats = send_heartbeats
        #: fault injection: this many host commands are lost (neither carried out nor answered)
        self.ignore_commands = ignore_commands
        self.displays = {s: "" for s in p.SEATS}
        self.lamps = {s: "OFF" for s in p.SEATS}
        self.beeps: list[int] = []
        self.framer = p.Framer()
        self.rejected = 0  # well-framed sentences refused with NAK or ignored
        self.opened = 0  # times the port was (re)opened
        self._pending: OrderedDict[int, p.Button] = OrderedDict()
        self._next_n = 0
        self._start = time.monotonic()
        self._lock = threading.Lock()

    # --- buttons ------------------------------------------------------------------------

    def uptime_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def press(self, button: str) -> int:
        """Press a button (``E S W N`` or ``R``); returns the sentence number it is sent as."""
        if button not in p.BUTTONS:
            raise ValueError(f"no such button: {button!r}")
        with self._lock:
            n = self._next_n
            self._next_n = (self._next_n + 1) % 65536
            self._pending[n] = p.Button(n, button, self.uptime_ms())
            while len(self._pending) > MAX_PENDING:
                self._pending.popitem(last=False)
        self._wake()
        return n

    @property
    def pending(self) -> list[int]:
        with self._lock:
            return list(self._pending)

    # --- running ------------------------------------------------------------------------

    def _open(self) -> bool:
        if not self._opened(self.port):
            return False
        self.opened += 1
        self._write(p.encode(p.Ready(p.PROTOCOL, FIRMWARE, self.seats)))
        return True

    def _write(self, data: bytes) -> None:
        """Send ``data`` if the port is open; a port that fails is closed (and reopened by
        the loop). The port is read once: a failed write — READY's, say, as the port opens —
        or ``stop`` from another thread may have closed it since the caller looked."""
        ser = self._ser
        if ser is None:
            return
        try:
            ser.write(data)
        except (serial.SerialException, OSError):
            self._close()

    def _run(self) -> None:
        last_hb = last_repeat = 0.0
        while not self._stop.is_set():
            if self._ser is None and not self._open():
                self._stop.wait(0.05)
                continue
            now = time.monotonic()
            if self.send_heartbeats and now - last_hb >= HEARTBEAT_S:
                last_hb = now
                self._write(p.encode(p.Heartbeat(self.uptime_ms())))
            with self._lock:
                due = list(self._pending.values())
            if due and now - last_repeat >= REPEAT_S:
                last_repeat = now
                for btn in due:
                    if self._ser is not None:
                        self._write(p.encode(btn))
            if self._ser is None:
                continue
            self._read()

    def _read(self) -> None:
        ser = self._ser  # as in ``_write``: it may be closed under us
        if ser is None:
            return
        try:
            fd = ser.fileno()
            ready, _, _ = select.select([fd, self._wake_r], [], [], 0.05)
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
                self._flush_new_presses()
            if fd in ready:
                data = ser.read(4096)
                if not data:
                    raise serial.SerialException("port closed")
                for body in self.framer.feed(data):
                    self._handle(body)
        except (serial.SerialException, OSError, ValueError, TypeError):
            self._close()

    def _flush_new_presses(self) -> None:
        """Send a press made since the last repeat at once, not at the next repeat tick, and
        with it every older press still unacknowledged, oldest first: a newer press must
        never overtake an older one (presses made while the cable was out, seconds apart
        or not, arrive in the order they were made; the host ignores the repeats)."""
        with self._lock:
            pending = list(self._pending.values())
        if not any(self.uptime_ms() - b.ms < REPEAT_S * 1000 for b in pending):
            return
        for btn in pending:
            if self._ser is not None:
                self._write(p.encode(btn))

    def _handle(self, body: str) -> None:
        try:
            s = p.parse(body)
        except p.BadSentence as exc:
            self.rejected += 1
            reason = _nak_reason(body, str(exc))
            if reason is not None:
                self._write(p.encode(p.Nak(int(body.split(",")[1]), reason)))
            return
        if isinstance(s, p.Ack):
            with self._lock:
                self._pending.pop(s.n, None)
            return
        if self.ignore_commands > 0:
            self.ignore_commands -= 1
            return
        seats = p.SEATS if getattr(s, "seat", "") == "*" else getattr(s, "seat", "")
        if isinstance(s, p.Display):
            for seat in seats:
                self.displays[seat] = s.text
        elif isinstance(s, p.Led):
            for seat in seats:
                self.lamps[seat] = s.mode
        elif isinstance(s, p.Beep):
            self.beeps.append(s.ms)
        else:
            self.rejected += 1  # a device-to-host sentence sent to the device
            return
        self._write(p.encode(p.Ack(s.n)))


def _nak_reason(body: str, error: str) -> str | None:
    """As the firmware answers a refused sentence: a host command of the right shape with a
    bad seat, text or value, or an unknown type carrying a number, gets NAK; anything else
    (a wrong field count, a bad number, a device sentence echoed back) is dropped."""
    fields = body.split(",")
    if len(fields) < 2 or not fields[1].isdigit() or int(fields[1]) > 65535:
        return None
    shapes = {"DSP": 4, "LED": 4, "BEEP": 3}
    if fields[0] in shapes:
        if len(fields) != shapes[fields[0]]:
            return None
        for words, reason in (("bad seat", "seat"), ("cannot show", "text")):
            if words in error:
                return reason
        return "value"
    return "unknown" if "unknown sentence" in error else None


def keyboard(emulator: DeviceEmulator, stop: threading.Event | None = None) -> None:
    """Seat buttons from the terminal until q, or until ``stop`` is set (a Ctrl-C caught
    as a stop request rather than an exception: stdin is polled so the request is seen)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)  # keys typed before this are flushed: announce the keys only now
        print("keys: e s w n = seat buttons, r = referee, q = quit", file=sys.stderr, flush=True)
        while stop is None or not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            key = os.read(fd, 1).decode(errors="replace").upper()
            if key in ("Q", ""):
                return
            if key in p.BUTTONS:
                n = emulator.press(key)
                print(f"pressed {key} (BTN {n})  displays {emulator.displays}", file=sys.stderr)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Emulate the table clock box on a serial port.")
    parser.add_argument("port", help="serial port or pyserial URL (e.g. one end of a socat pty pair)")
    parser.add_argument("--keys", action="store_true", help="press buttons from the keyboard")
    args = parser.parse_args(argv)
    # Ctrl-C is how the emulator is stopped: no traceback. Caught outside the port's block, so
    # one that comes as the port opens (READY is sent before the block is entered) is caught too
    try:
        with DeviceEmulator(args.port) as emulator:
            if args.keys:
                keyboard(emulator)
            else:
                threading.Event().wait()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
