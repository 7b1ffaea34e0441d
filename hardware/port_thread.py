"""One thread that owns a serial port, woken at once by other threads through a pipe.

Both ends of the clock's cable work this way — the host driver and the device emulator:
the thread selects on the port and a wake pipe, so a command queued by another thread is
written in the same moment rather than at the next poll. Subclasses write ``_run``.
"""

from __future__ import annotations

import contextlib
import os
import threading

import serial


class PortThread:
    name = "serial-port"

    def __init__(self) -> None:
        self._ser: serial.Serial | None = None
        self._port_lock = threading.Lock()  # the port is set and cleared under it (``_close``)
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    def _wake(self) -> None:
        os.write(self._wake_w, b"!")

    def _opened(self, port: str) -> bool:
        """Open ``port`` as the thread's own; False where it cannot be opened now."""
        try:
            ser = serial.serial_for_url(port, baudrate=115200, timeout=0, write_timeout=1)
        except (serial.SerialException, OSError):
            return False
        with self._port_lock:
            self._ser = ser
        return True

    def _close(self) -> None:
        """Close the port, from any thread. It is taken and cleared in one step under a lock:
        a close from another thread that looked at the port, then cleared it after the
        owning thread had opened it again, left the new port open but forgotten, and the
        thread unable to open its device again (seen as a flaky emulator test under load)."""
        with self._port_lock:
            ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(OSError):
                ser.close()

    def start(self):
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread:
            self._thread.join(timeout=5)
        self._close()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
