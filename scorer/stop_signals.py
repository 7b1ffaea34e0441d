"""Ctrl-C and SIGTERM as a request to stop, answered where the program is ready to stop.

Python's default turns Ctrl-C into an exception raised wherever the main thread happens to be:
half-way through starting a thread, or through a notice it is printing. A clock stopped at
such a moment could leave its threads waiting on each other, and a club's Ctrl-C would hang.
Inside ``stop_signals()`` both signals only set an event; the command waits on it and then
takes its threads, its emulated box and its serial pair down in order.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class StopRequest(threading.Event):
    """Set by Ctrl-C (SIGINT) or SIGTERM; ``signum`` says which came first."""

    signum: int | None = None


@contextlib.contextmanager
def stop_signals() -> Iterator[StopRequest]:
    """Catch SIGINT and SIGTERM for the duration of the block (main thread only; elsewhere
    the event is simply never set by a signal). A SIGTERM ends the program with 128 + 15
    once the block has closed, as a service manager expects."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def request(signum: int, frame: object) -> None:
        if stop.signum is None:
            stop.signum = signum
        stop.set()

    previous = {s: signal.signal(s, request) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if stop.signum == signal.SIGTERM:
        raise SystemExit(128 + signal.SIGTERM)
