"""``vision.progress``: tqdm's bars on stderr, redrawn on a terminal, drawn only as they start
and end in a log."""

import io
import sys
import time

from vision.progress import progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_redrawn_as_the_work_goes_on(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress_bar(3, "render", unit="frame") as bar:
        for _ in range(3):
            time.sleep(0.12)
            bar.update(1)
    drawn = terminal.getvalue()
    assert drawn.count("\r") >= 3 and drawn.endswith("\n")  # the start, a redraw at least, the end
    assert drawn.split("\r")[-1].startswith("render: 100%") and "3/3" in drawn and "frame/s" in drawn


def test_in_a_log_a_bar_is_drawn_only_as_it_starts_and_as_it_ends(capsys):
    with progress_bar(40, "cutting train patches") as bar:
        for _ in range(40):
            time.sleep(0.01)  # 0.4 s: redrawn four times on a terminal
            bar.update(1)
    err = capsys.readouterr().err
    assert err.count("\r") == 2 and err.count("\n") == 1 and err.endswith("\n")
    start, end = err.split("\r")[1:]
    assert start.startswith("cutting train patches:   0%") and "0/40" in start
    assert end.startswith("cutting train patches: 100%") and "40/40" in end and "img/s" in end


def test_a_bar_not_enabled_draws_nothing(capsys):
    with progress_bar(5, "evaluating", enabled=False) as bar:
        bar.update(5)
    assert capsys.readouterr().err == ""
