"""Ctrl-C and SIGTERM caught as a stop request (``scorer.stop_signals``), in a real process."""

import signal
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import signal, sys, time
    from scorer.stop_signals import stop_signals
    try:
        with stop_signals() as stop:
            print("ready", flush=True)
            busy_until = time.monotonic() + 0.5
            while time.monotonic() < busy_until:  # the signal lands mid-work: nothing is raised here
                sum(range(1000))
            print("worked on", flush=True)
            stop.wait(10)
            print(f"asked to stop by {stop.signum}", flush=True)
    finally:
        print("closed", flush=True)
    print("handler back", signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
""")


def run_and_signal(signum: int) -> subprocess.CompletedProcess:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=20)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_sets_the_request_instead_of_raising_mid_work():
    done = run_and_signal(signal.SIGINT)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines() == ["worked on", f"asked to stop by {int(signal.SIGINT)}", "closed",
                                        "handler back True"]


def test_sigterm_ends_the_program_as_a_service_manager_expects_once_the_block_has_closed():
    done = run_and_signal(signal.SIGTERM)
    assert done.returncode == 128 + signal.SIGTERM
    assert done.stdout.splitlines() == ["worked on", f"asked to stop by {int(signal.SIGTERM)}", "closed"]
