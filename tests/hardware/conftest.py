"""Fixtures shared by the hardware tests: the firmware's native protocol harness
(hardware/firmware/test/protocol_harness.c), compiled with the system gcc once per test
module that asks for it (tests/hardware/test_firmware_*.py)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.hardware.firmware_rig import HARNESS, HEADER, Harness


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Harness:
    if shutil.which("gcc") is None:
        pytest.skip("needs the system gcc")
    exe = tmp_path_factory.mktemp("native") / "protocol_harness"
    done = subprocess.run(["gcc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pedantic",
                           f"-I{HEADER.parent}", str(HARNESS), "-o", str(exe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Harness(exe)
