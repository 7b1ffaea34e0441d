"""The stage: a second world of rendered footage, a 3D table scene drawn with OpenGL.

The live loop is tuned on footage from one renderer; a figure measured there holds only for
that world. The stage is written apart from it, from the rule books and a camera's physics
(a lens, a lamp, a sensor, a codec), and shares none of its code, so the loop can be tuned in
one world and measured in the other (DESIGN §5, "Worlds"; ``docs/stage.md``).

``vision.stage.world.render`` stages the first hand of a bots' match and writes ``game.mp4``,
``truth.jsonl`` and ``meta.json`` as ``benchmarks/table.py`` reads them.
"""
