"""What a benchmark ran on, printed above its figures: the processor, its cores, and the
widest vector instructions it offers.

Why: the same 8-bit models run about twice as fast on a core with AVX-512 VNNI (an 8-bit dot
product in one instruction) as on one with only AVX2 (``docs/benchmarks.md``). A figure
without the machine it came from cannot be compared with the targets or with yesterday's.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

#: vector instruction sets that decide OpenVINO's speed, widest first: (cpuinfo flag, name)
VECTOR_LEVELS = (("amx_int8", "AMX"), ("avx512_vnni", "AVX-512 VNNI"), ("avx512f", "AVX-512"),
                 ("avx_vnni", "AVX-VNNI"), ("avx2", "AVX2"), ("sse4_2", "SSE4.2"))


def summarise(cpuinfo: str, cores: int) -> str:
    """One line from the text of ``/proc/cpuinfo``: model name (family/model where the name
    is as vague as "AMD EPYC"), cores, and which of ``VECTOR_LEVELS`` it has."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() not in fields:  # the first processor speaks for all
            fields[key.strip()] = value.strip()
    flags = set(fields.get("flags", "").split())
    name = fields.get("model name") or platform.processor() or "unknown processor"
    family = f" (family {fields['cpu family']}, model {fields['model']})" if "cpu family" in fields else ""
    widest = next((label for flag, label in VECTOR_LEVELS if flag in flags), "no SSE4.2")
    has = {"AVX-512": "avx512f" in flags, "VNNI": any(f.endswith("vnni") for f in flags)}  # avx512_vnni, avx_vnni
    lacking = [label for label, present in has.items() if not present]
    return f"{name}{family}, {cores} cores, {widest}" + "".join(f", no {label}" for label in lacking)


def describe() -> str:
    """This machine as ``summarise`` puts it (``/proc/cpuinfo`` where there is one)."""
    info = Path("/proc/cpuinfo")
    text = info.read_text(encoding="utf-8", errors="replace") if info.exists() else ""
    return summarise(text, os.cpu_count() or 1)
