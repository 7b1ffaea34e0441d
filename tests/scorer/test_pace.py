"""Whether the live loop keeps up with its camera: judged from the frames it takes, their
numbers (what the camera sent) and times (what the loop read a second)."""

from scorer.pace import MIN_FPS, RECOVER, WINDOW_S, Pace


def take(pace: Pace, camera_fps: float, every: int, seconds: float, start: int = 0) -> list:
    """The loop taking every ``every``-th frame of a camera sending ``camera_fps`` for
    ``seconds``, from frame ``start``; the reports it gave, with the frame number."""
    reports = []
    last = start + int(seconds * camera_fps)
    for n in range(start, last, every):
        report = pace.see(n, n / camera_fps)
        if report is not None:
            reports.append((n, report))
    return reports


def test_a_loop_reading_every_frame_is_never_behind():
    assert take(Pace(), 30.0, 1, 60.0) == []


def test_a_slow_recording_read_whole_is_not_behind():
    """Five frames a second is under MIN_FPS, but none was dropped: the file is slow, not the node."""
    assert take(Pace(), 5.0, 1, 60.0) == []


def test_dropping_frames_is_fine_while_the_loop_still_reads_enough():
    assert take(Pace(), 30.0, 2, 60.0) == []  # 15 read a second of 30
    assert take(Pace(), 36.0, 3, 60.0) == []  # 12 of 36


def test_a_loop_reading_a_sixth_of_its_camera_falls_behind_once_and_catches_up_once():
    pace = Pace()
    reports = take(pace, 30.0, 6, 40.0)  # 5 read a second of 30
    assert len(reports) == 1
    n, report = reports[0]
    assert report.behind and report.fps == 5.0 and report.camera_fps == 30.0 and report.seconds == WINDOW_S
    assert WINDOW_S * 30 <= n <= (WINDOW_S + 0.5) * 30  # said as soon as a whole window shows it
    assert pace.behind
    back = take(pace, 30.0, 1, 30.0, start=1200)  # every frame again
    assert len(back) == 1 and not back[0][1].behind and not pace.behind
    assert back[0][0] < 1200 + WINDOW_S * 30  # before the slow frames have left the window


def test_a_pace_just_over_the_limit_does_not_count_as_caught_up():
    """Behind at 7.5 frames read a second, then 11 (over MIN_FPS, under its margin, still
    dropping): no word either way until the loop reads well again."""
    pace = Pace()
    assert [r.behind for _, r in take(pace, 30.0, 4, 30.0)] == [True]
    assert MIN_FPS < 11.0 < MIN_FPS * RECOVER
    assert take(pace, 33.0, 3, 30.0, start=1000) == [] and pace.behind  # 11 read a second of 33
    assert [r.behind for _, r in take(pace, 30.0, 2, 20.0, start=2000)] == [False]  # 15 a second


def test_a_camera_reopened_starts_the_watch_over():
    """Frame numbers start again from 0 after a reconnect: that is not a jump backwards in
    pace, and the new run is judged on its own whole window."""
    pace = Pace()
    take(pace, 30.0, 6, 5.0)  # not yet a whole window: nothing said
    assert take(pace, 30.0, 6, WINDOW_S - 1, start=0) == []  # reopened: the watch began again
    assert not pace.behind
