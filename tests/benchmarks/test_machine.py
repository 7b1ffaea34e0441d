"""The line a benchmark prints about its machine: the vector instructions decide the detector's
speed, so a Zen 3 VM (AVX2 only) and a Zen 4 one (AVX-512 VNNI) must be told apart."""

from benchmarks.machine import summarise

ZEN3 = """processor\t: 0
model name\t: AMD EPYC
cpu family\t: 25
model\t\t: 1
flags\t\t: fpu sse4_2 fma avx f16c avx2

processor\t: 1
model name\t: AMD EPYC
flags\t\t: fpu sse4_2 avx2 avx512f avx512_vnni
"""

ZEN4 = """model name\t: AMD EPYC 9R14
cpu family\t: 25
model\t\t: 17
flags\t\t: fpu sse4_2 avx2 avx512f avx512dq avx512_vnni avx512_bf16
"""


def test_an_avx2_machine_says_what_it_lacks():
    # the first processor speaks for all: the second's flags (made up here) are not counted
    assert summarise(ZEN3, 2) == "AMD EPYC (family 25, model 1), 2 cores, AVX2, no AVX-512, no VNNI"


def test_an_avx512_vnni_machine_names_its_widest_instructions():
    assert summarise(ZEN4, 2) == "AMD EPYC 9R14 (family 25, model 17), 2 cores, AVX-512 VNNI"


def test_avx_vnni_without_avx512_counts_as_vnni():
    line = summarise("model name: Intel Core\nflags: sse4_2 avx2 avx_vnni\n", 4)
    assert line == "Intel Core, 4 cores, AVX-VNNI, no AVX-512"
