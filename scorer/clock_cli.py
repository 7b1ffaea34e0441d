"""``guandan clock``: the table clock on its own — a Guandan chess clock for a club.

Seats act in turn order E → N → W → S; a press ends the turn and starts the next seat's
countdown; overruns, out-of-turn presses and the end of match time are printed. With
``--port emulator`` the box is emulated in this terminal (keys e s w n press the seat
buttons, r the referee button, q quits).
"""

from __future__ import annotations

import sys
from argparse import Namespace

from engine import timing as c
from hardware.driver import ClockDriver, Connected, Lost, PortMatch
from hardware.emulator import DeviceEmulator, keyboard
from hardware.ptypair import PtyPair, PtyPairError
from hardware.runner import ClockRunner, Notice, OutOfTurn, Rotation, TurnStarted
from rulebook import profiles
from rulebook.i18n import term
from rulebook.tournament_live import Refusal
from scorer.stop_signals import StopRequest, stop_signals


class ClockUsageError(Refusal, ValueError):
    """How ``guandan clock`` was asked that it cannot run (no port, a USB id mistyped, no
    emulator to be had): named by a code, worded in both languages, ``--lang``'s first."""


def parse_usb(text: str) -> PortMatch:
    """``VID:PID`` or ``VID:PID:SERIAL`` in hex, as lsusb prints it (e.g. ``1a86:7523``)."""
    parts = text.split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        return PortMatch(int(parts[0], 16), int(parts[1], 16), parts[2] if len(parts) == 3 else None)
    except ValueError:
        raise ClockUsageError("usb_form", text=text) from None


def describe(notice: Notice, lang: str) -> str | None:
    """One line for the terminal, in the reader's language."""
    if isinstance(notice, TurnStarted):
        action, seats, limit = notice.action, notice.seats, notice.limit
        who = "、".join(term(s, lang) for s in seats) if lang == "zh" else ", ".join(term(s, lang) for s in seats)
        limit_text = (f"限时{limit}秒" if lang == "zh" else f"{limit} s") if limit else (
            "不限时" if lang == "zh" else "no limit")
        return f"{who} · {term('action.' + action, lang)} · {limit_text}" if action in c.LIMIT_FIELD else None
    if isinstance(notice, OutOfTurn):
        return f"! {term(notice.seat, lang)} {'越序按键' if lang == 'zh' else 'pressed out of turn'}"
    if isinstance(notice, c.Overrun):
        return "! " + term(notice.seat, lang) + " " + term(
            "overrun", lang, action=term(f"action.{notice.action}", lang), limit=notice.limit,
            elapsed=notice.elapsed, penalty=term(f"penalty.{notice.penalty}", lang))
    if isinstance(notice, c.TimeUp):
        return f"* {term('time_called', lang)}"
    if isinstance(notice, Connected):
        return f"# {'计时器已连接' if lang == 'zh' else 'clock connected'}: {notice.port}"
    if isinstance(notice, Lost):
        return f"# {'计时器断开' if lang == 'zh' else 'clock lost'}: {notice.reason}"
    return None


def run_clock(args: Namespace) -> None:
    profile = profiles.load(args.profile)
    match = parse_usb(args.usb) if args.usb else None
    if args.port is None and match is None:
        raise ClockUsageError("clock_port")
    with stop_signals() as stop:  # Ctrl-C is how a club stops the clock: it ends cleanly
        emulator = pair = None
        port = args.port
        try:
            if port == "emulator":
                try:
                    pair = PtyPair()
                    pair.plug()
                except PtyPairError as exc:
                    raise ClockUsageError("clock_emulator", why=exc) from None
                port = pair.host_end
                emulator = DeviceEmulator(pair.device_end).start()
            _run(args, profile, port, match, emulator, stop)
        finally:
            if emulator is not None:
                emulator.stop()
            if pair is not None:
                pair.close()


def _run(args: Namespace, profile: profiles.Profile, port: str | None, match: PortMatch | None,
         emulator: DeviceEmulator | None, stop: StopRequest) -> None:
    """The clock on ``port`` until ``stop`` is set (or the keyboard's q, emulated)."""
    lang = args.lang

    def show(notice: Notice) -> None:
        line = describe(notice, lang)
        if line:
            print(line, flush=True)

    driver = ClockDriver(port, match=match)
    runner = ClockRunner(driver, profile, Rotation(args.first), on_notice=show, match_minutes=args.minutes)
    try:
        driver.start()
        print(f"# {profile.profile.title_zh if lang == 'zh' else profile.profile.title_en}", flush=True)
        print(f"# {'等待计时器' if lang == 'zh' else 'waiting for the clock box on'} {port or args.usb}", flush=True)
        runner.start()
        if emulator is not None and sys.stdin.isatty():
            keyboard(emulator, stop)
        else:
            stop.wait()
    finally:
        runner.stop()
        driver.stop()
