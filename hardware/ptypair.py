"""A real pseudo-terminal pair made by ``socat``: a serial cable with two ends on disk.

The device emulator opens one end and the host driver the other, exactly as the driver
would open a USB serial port. ``unplug()`` kills socat (both ends see the port vanish);
``plug()`` makes a new pair at the same paths, as a replugged device would reappear.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


class PtyPairError(RuntimeError):
    pass


class PtyPair:
    def __init__(self, folder: str | None = None) -> None:
        if shutil.which("socat") is None:
            raise PtyPairError("socat is not installed (Debian package 'socat'); it makes the serial pair")
        self._own_folder = folder is None  # a folder we made is ours to remove on close()
        self.folder = Path(folder or tempfile.mkdtemp(prefix="guandan-pty-"))
        self.device_end = str(self.folder / "device")
        self.host_end = str(self.folder / "host")
        self._proc: subprocess.Popen | None = None

    def plug(self, timeout: float = 5.0) -> None:
        """Create the pair (both paths exist when this returns)."""
        if self._proc is not None:
            return
        for path in (self.device_end, self.host_end):
            if os.path.lexists(path):
                os.unlink(path)
        self._proc = subprocess.Popen(
            ["socat", f"pty,raw,echo=0,link={self.device_end}", f"pty,raw,echo=0,link={self.host_end}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while not (os.path.exists(self.device_end) and os.path.exists(self.host_end)):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.unplug()
                raise PtyPairError("socat did not create the pseudo-terminal pair")
            time.sleep(0.01)

    def unplug(self) -> None:
        """Remove the pair, as pulling the USB cable would."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for path in (self.device_end, self.host_end):
            if os.path.lexists(path):
                os.unlink(path)

    def close(self) -> None:
        """Unplug for good: the pair and the temporary folder it was made in are gone
        (``unplug`` keeps the folder, so that ``plug`` can bring the same paths back)."""
        self.unplug()
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PtyPair:
        self.plug()
        return self

    def __exit__(self, *exc) -> None:
        self.close()
