"""Whether the live loop keeps up with its camera: judged from the frames it takes, their
numbers (what the camera sent) and times (what the loop read a second)."""

from table.pace import BEHIND, CAUGHT_UP, GAP_S, MIN_FPS, RECOVER, SLOW_CAMERA, WINDOW_S, Pace


def take(pace: Pace, camera_fps: float, every: int, seconds: float, start: int = 0) -> list:
    """The loop taking every ``every``-th frame of a camera sending ``camera_fps`` for
    ``seconds``, from frame ``start`` (its time ``start / camera_fps``); the reports it gave,
    with the frame number."""
    reports = []
    for n in range(start, start + int(seconds * camera_fps), every):
        report = pace.see(n, n / camera_fps)
        if report is not None:
            reports.append((n, report))
    return reports


def codes(reports: list) -> list[str]:
    return [report.code for _, report in reports]


def test_a_loop_reading_every_frame_of_a_camera_is_never_behind():
    assert take(Pace(), 30.0, 1, 60.0) == []


def test_dropping_frames_is_fine_while_the_loop_still_reads_enough():
    assert take(Pace(), 30.0, 2, 60.0) == []  # 15 read a second of 30
    assert take(Pace(), 36.0, 3, 60.0) == []  # 12 of 36


def test_a_loop_reading_a_sixth_of_its_camera_falls_behind_once_and_catches_up_once():
    pace = Pace()
    reports = take(pace, 30.0, 6, 40.0)  # 5 read a second of 30
    assert codes(reports) == [BEHIND]
    n, report = reports[0]
    assert (report.fps, report.camera_fps, report.seconds) == (5.0, 30.0, WINDOW_S)
    assert WINDOW_S * 30 <= n <= (WINDOW_S + 0.5) * 30  # said as soon as a whole window shows it
    back = take(pace, 30.0, 1, 30.0, start=1200)  # every frame again
    assert codes(back) == [CAUGHT_UP] and not pace.behind
    assert back[0][0] < 1200 + WINDOW_S * 30  # before the slow frames have all left the window


def test_a_pace_just_over_the_limit_does_not_count_as_caught_up():
    """Behind at 7.5 frames read a second, then 11 (over MIN_FPS, under its margin, still
    dropping): no word either way until the loop reads well again."""
    pace = Pace()
    assert codes(take(pace, 30.0, 4, 30.0)) == [BEHIND]
    assert MIN_FPS < 11.0 < MIN_FPS * RECOVER
    assert take(pace, 33.0, 3, 30.0, start=1000) == [] and pace.behind  # 11 read a second of 33
    assert codes(take(pace, 30.0, 2, 20.0, start=2000)) == [CAUGHT_UP]  # 15 a second


def test_a_camera_sending_too_few_frames_is_told_once_not_blamed_on_the_node():
    """Five frames a second, every one read: the camera (or a recording) is slow, not the
    node — said once, as such."""
    pace = Pace()
    reports = take(pace, 5.0, 1, 60.0)
    assert codes(reports) == [SLOW_CAMERA] and not pace.behind
    assert (reports[0][1].fps, reports[0][1].camera_fps) == (5.0, 5.0)
    assert take(pace, 30.0, 1, 20.0, start=400) == []  # back to 30: nothing more to say


def test_a_camera_reopened_or_silent_starts_the_watch_over():
    """Frame numbers start again from 0 after a reconnect, and a camera that sent nothing
    for a while (numbers going on by one, the time by more than GAP_S) is not a slow one:
    the watch begins again and judges a whole window of its own."""
    pace = Pace()
    take(pace, 30.0, 6, 5.0)  # not yet a whole window: nothing said
    assert take(pace, 30.0, 6, WINDOW_S - 1, start=0) == []  # reopened: the watch began again
    assert not pace.behind
    steady = Pace()
    said = [steady.see(n, n / 30) for n in range(300)]  # 10 s of 30 a second
    silence = GAP_S + 7  # then nothing for 8 s, then 30 a second again, numbered on
    said += [steady.see(n, n / 30 + silence) for n in range(300, 900)]
    assert said == [None] * 900 and not steady.slow_told


def test_frames_stamped_the_same_time_after_a_long_silence_are_no_verdict():
    """After a gap the window empties to the newest frame; a next frame stamped the same
    instant (a coarse clock) leaves no time to judge a pace over: nothing said, no
    division by zero, and the watch goes on."""
    pace = Pace()
    assert pace.see(1, 0.0) is None and pace.see(100, 20.0) is None
    assert pace.see(101, 20.0) is None
    assert codes(take(pace, 30.0, 6, 20.0, start=606)) == [BEHIND]
