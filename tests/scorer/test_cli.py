"""The ``guandan`` command as users run it: real subprocesses, real files."""

import json
import re
import subprocess
import sys

import pytest

from scorer.cli import DEMO_RECORD, main
from tests.base_install import blocked_env


def guandan(*args, input=None):
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True,
                          input=input, timeout=120)


def test_help_explains_every_command():
    out = guandan("--help")
    assert out.returncode == 0
    for command in ("replay", "rules", "selfplay", "profiles", "demo"):
        assert command in out.stdout
    assert "--lang" in guandan("replay", "--help").stdout


def test_every_command_explains_itself():
    from scorer.cli import build_parser

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # the registered sub-commands
    assert len(commands) >= 15
    for name, sub in commands.items():
        text = sub.format_help()  # raises on a malformed help string
        assert name in text and len(text) > 80


def test_selfplay_then_replay_in_both_languages(tmp_path):
    record = tmp_path / "game.jsonl"
    made = guandan("selfplay", "--seed", "5", "--hands", "2", "--profile", "linquan", "--out", str(record))
    assert made.returncode == 0, made.stderr
    zh = guandan("replay", str(record))
    assert zh.returncode == 0, zh.stderr
    assert "第1把" in zh.stdout and "第2把" in zh.stdout
    assert "进贡" in zh.stdout and "还贡" in zh.stdout or "抗贡" in zh.stdout
    assert "名次" in zh.stdout and "上游" in zh.stdout and "积分" in zh.stdout
    en = guandan("replay", "--lang", "en", str(record))
    assert "Hand 1" in en.stdout and "finishing order" in en.stdout and "match points" in en.stdout


def test_replay_json_summary(tmp_path):
    record = tmp_path / "game.jsonl"
    guandan("selfplay", "--seed", "9", "--hands", "1", "--forget-report", "1", "--out", str(record))
    out = json.loads(guandan("replay", "--json", str(record)).stdout)
    assert out["result"]["winner"] in ("EW", "NS", None)
    assert out["hands"] >= 1
    assert any(v["code"] == "missed_report" for v in out["violations"])


@pytest.mark.parametrize("content,message", [
    (None, "no such file"),
    ('{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"jiangsu"}\n{bad\n',
     "line 2: not valid JSON"),
    ('{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"moon"}\n', "no such profile"),
    ("", "the record is empty"),
])
def test_user_mistakes_get_one_line_and_status_2(tmp_path, content, message):
    path = tmp_path / "r.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    out = guandan("replay", str(path))
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


#: every test that runs ``guandan demo`` from the checkout: it makes its store afresh in the
#: checkout's ``var/demo.db``, so two at once in two workers would delete each other's
#: (make test runs pytest-xdist with ``--dist loadgroup``: a group runs in one worker)
SHARES_DEMO_DB = pytest.mark.xdist_group("checkout-var-demo-db")


@SHARES_DEMO_DB
def test_demo_replays_the_bundled_record():
    assert DEMO_RECORD.exists()
    out = guandan("demo", "--from-record", "--no-serve")
    assert out.returncode == 0, out.stderr
    assert "第1把" in out.stdout and ("胜方" in out.stdout or "平局" in out.stdout)


@SHARES_DEMO_DB
def test_demo_then_plays_the_match_live_on_the_dashboard():
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "demo", "--from-record", "--port", str(port),
                             "--speed", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        seen = []
        while time.monotonic() < deadline:
            try:
                seen = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2).read())
                if seen and seen[0].get("hand"):
                    break
            except OSError:
                pass
            time.sleep(0.2)
        assert seen and seen[0]["table"] == "demo" and seen[0]["hand"] >= 1
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0


@pytest.mark.video
@SHARES_DEMO_DB
def test_demo_reads_the_bundled_recording_through_the_camera_pipeline_with_the_emulated_clock(tmp_path):
    """The real thing end to end: video → detector → tracker → clock presses over a
    pseudo-terminal → engine → store → the dashboard's API, at four times real time — on a
    base install, without torch, ultralytics or NNCF (tests/base_install.py)."""
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "demo", "--port", str(port), "--speed", "4",
                             "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**blocked_env(tmp_path / "site"), "TMPDIR": str(tmp_path)})
    try:
        deadline = time.monotonic() + 90
        events = []
        while time.monotonic() < deadline:
            try:
                events = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/demo/events",
                                                           timeout=2).read())
                if sum(e["type"] == "play" for e in events) >= 3:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        types = [e["type"] for e in events]
        assert types[0] == "header" and types.count("play") >= 3, types
        assert types.index("deal") < types.index("play")  # the first press with cards laid dealt the hand
        assert events[0].get("reports_heard") is False  # a camera table
        plays = [e for e in events if e["type"] == "play"]
        assert all(e["seat"] in "ESWN" and e["cards"] for e in plays)
        presses = [e for e in events if e["type"] == "press"]  # the clock's button presses are recorded too
        assert presses and presses[0]["seat"] == plays[0]["seat"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "# live: http://127.0.0.1" in out
    assert not list(tmp_path.glob("guandan-pty-*"))  # the emulated clock's serial pair went with it
    # the referee console can be tried: the account printed is in the demo's store
    from scorer.demo import REFEREE, VAR
    from store.event_store import Store

    said = re.search(rf"# referee console http://127.0.0.1:{port}/referee +\(user {REFEREE}, password (\S+)\)", out)
    assert said and Store(VAR / "demo.db").check_password(REFEREE, said.group(1))


def test_a_records_unknown_profile_in_chinese_then_english_with_lang(tmp_path):
    """A profile's refusal at any command: one line, Chinese first, the asker's ``--lang`` first."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"moon"}\n', encoding="utf-8")
    zh = guandan("replay", str(path))
    assert zh.returncode == 2 and zh.stderr.startswith("guandan: moon：没有这个规则；内置规则为 jiangsu")
    en = guandan("replay", str(path), "--lang", "en")
    assert en.returncode == 2 and en.stderr.startswith("guandan: moon: no such profile; bundled profiles are jiangsu")
    halves = zh.stderr.removeprefix("guandan: ").rstrip("\n").split(" / ")
    assert en.stderr == f"guandan: {halves[1]} / {halves[0]}\n"


HEADER = '{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"jiangsu"}\n'


def test_a_broken_records_line_in_chinese_then_english_with_lang(tmp_path):
    """A card written wrong, a deal in the middle of a hand: where and why, in the rule
    books' words, Chinese first, the asker's ``--lang`` first."""
    card = tmp_path / "card.jsonl"
    card.write_text(HEADER + '{"seq":1,"t":1,"type":"deal","leader":"E"}\n'
                    '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S5","X5"]}\n', encoding="utf-8")
    zh = guandan("replay", str(card))
    assert zh.returncode == 2 and zh.stderr == (
        f"guandan: {card}：记录无法复盘：第3行：不是牌：'X5'（花色 S/H/C/D 加点数 2-9 T J Q K A；大小王为 HR/SB） / "
        f"{card}: the record cannot be replayed: line 3: not a card: 'X5' (suit S/H/C/D then rank 2-9 T J Q K A, "
        "or SB/HR for the jokers)\n")
    en = guandan("replay", str(card), "--lang", "en")
    halves = zh.stderr.removeprefix("guandan: ").rstrip("\n").split(" / ")
    assert en.returncode == 2 and en.stderr == f"guandan: {halves[1]} / {halves[0]}\n"
    deal = tmp_path / "deal.jsonl"
    deal.write_text(HEADER + '{"seq":1,"t":1,"type":"deal","leader":"E"}\n{"seq":2,"t":2,"type":"deal"}\n',
                    encoding="utf-8")
    replayed = guandan("replay", str(deal))
    assert replayed.returncode == 2 and replayed.stderr.startswith(
        f"guandan: {deal}：记录无法复盘：第3行：上一副牌还没打完，不能发牌 / {deal}: the record cannot be replayed: "
        "line 3: a deal while the previous hand is still being played")
    loaded = guandan("table", "load", str(card), "--db", str(tmp_path / "s.db"), "--lang", "en")
    assert loaded.returncode == 2 and loaded.stderr.startswith(
        f"guandan: {card}: cannot read the record (line 3: not a card: 'X5' (suit S/H/C/D") and \
        f" / {card}：无法读取记录（第3行：不是牌：'X5'（花色 S/H/C/D" in loaded.stderr


def test_profiles_lists_and_shows():
    assert "linquan" in guandan("profiles").stdout
    shown = json.loads(guandan("profiles", "linquan").stdout)
    assert shown["report"]["threshold"] == 7
    bad = guandan("profiles", "nowhere")
    assert bad.returncode == 2 and "no such profile" in bad.stderr


@pytest.mark.parametrize("args, said", [
    (["selfplay", "--hands", "0"], "argument --hands: 须大于0，不是 0 / must be more than 0, not 0"),
    (["selfplay", "--hands", "-3"], "argument --hands: 须大于0，不是 -3 / must be more than 0, not -3"),
    (["selfplay", "--forget-report", "1.5"],
     "argument --forget-report: 概率应在0到1之间，不是 1.5 / a chance is from 0 to 1, not 1.5"),
    (["demo", "--speed", "-1"], "argument --speed: 须大于0，不是 -1 / must be more than 0, not -1"),
    (["demo", "--speed", "nan"], "argument --speed: 须大于0，不是 nan / must be more than 0, not nan"),
    (["demo", "--from-record", "--speed", "fast"], "argument --speed: 不是数：'fast' / not a number: 'fast'"),
])
def test_numbers_out_of_range_are_refused_by_the_options_name(args, said, capsys):
    """In both languages, Chinese first: an option's value is read before ``--lang``."""
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2 and said in capsys.readouterr().err


@SHARES_DEMO_DB
def test_a_port_another_program_holds_is_one_clear_line_not_a_dashboard_that_is_not_there(tmp_path):
    """The demo and the web server bind their port before they start: one held by another
    program (a streamer's OBS, a second guandan) is said at once, in both languages."""
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        for command in (["demo", "--from-record", "--port", str(port), "--speed", "50"],
                        ["serve", "--port", str(port), "--db", str(tmp_path / "s.db")]):
            done = subprocess.run([sys.executable, "-m", "scorer.cli", *command], capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
            assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and f"无法使用端口 {port}" in done.stderr


@pytest.mark.parametrize("command", [["demo"], ["serve"], ["run", "--camera", "0"]])
def test_a_port_out_of_range_is_refused_by_name(command, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--port", "70000"])
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and (
        "argument --port: 端口号应为1到65535，不是 70000 / a port is from 1 to 65535, not 70000") in said


def test_an_output_file_that_cannot_be_written_is_one_line_naming_it(tmp_path):
    """``selfplay --out`` and ``scan --out`` into a folder that is not there: the user's path,
    why (the OS's words, in both languages' lines), exit 2 — the scan says so before it reads
    a frame."""
    missing = tmp_path / "no-such-folder" / "match.jsonl"
    video = tmp_path / "game.mp4"
    from vision.synth.render_game import render

    render(11, tmp_path, size=(640, 360), max_events=1)
    for command in (["selfplay", "--hands", "1", "--out", str(missing)], ["scan", str(video), "--out", str(missing)]):
        done = subprocess.run([sys.executable, "-m", "scorer.cli", *command], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        # no --lang on selfplay, none asked of scan: Chinese first, then English
        assert done.stderr.startswith(f"guandan: {missing}：无法") and f" / {missing}: " in done.stderr
        assert done.stderr.count("No such file or directory") == 2 and len(done.stderr.splitlines()) == 1
