"""Frames drawn with OpenGL through moderngl, headless: the lamps' shadow maps, the light
left on the table's plane, the scene (multisampled if asked), the lens's blur and its
distortion, then the sensor's pass to BGR bytes.

The context comes from EGL (Mesa's llvmpipe where there is no GPU: Debian's libegl-mesa0
and libgl1-mesa-dri); with a display, the default backend is tried next. The passes are
shaped by what a CPU rasteriser can afford on a small machine: static light baked
(``vision.stage.lighting``), bilinear rather than anisotropic filtering, 8-bit targets in
the camera's gamma, the shadows of a frame worked out on the table's plane once, and only
the box a frame changes drawn again (``vision.stage.dirty``).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import math

import moderngl
import numpy as np

from vision.stage import lighting, meshes, shaders
from vision.stage.camera import Camera, delivered, lens_map, on_table
from vision.stage.dirty import dirty_box
from vision.stage.frame import SOLIDS, Frame, Lamp, Optics
from vision.stage.lighting import lamp_matrix, lamp_tan
from vision.stage.table import CARD_CORNER, CARD_H, CARD_W, CLOTH_CM, WOOD_TILE_CM

SHADOW_PX = 1024
#: the shadows on the table's plane are worked out on a square this many pixels a side,
#: covering ``TABLE_LIGHT_HALF`` cm either side of the centre
TABLE_LIGHT_PX = 512
TABLE_LIGHT_HALF = 100.0
FAR = 1.0e4


class StageError(RuntimeError):
    """The stage cannot draw here: no OpenGL context, or a picture it was given is wrong."""


def context() -> moderngl.Context:
    """A headless OpenGL 3.3+ context: EGL first, then whatever the platform offers."""
    _their_llvm_first()
    errors = []
    for backend in ("egl", None):
        try:
            return moderngl.create_standalone_context(backend=backend) if backend else \
                moderngl.create_standalone_context()
        except Exception as exc:  # moderngl raises plain Exceptions for a missing library or display
            errors.append(f"{backend or 'default'}: {exc}")
    raise StageError("no OpenGL context (" + "; ".join(errors) + ")")


def _their_llvm_first() -> None:
    """Load triton's library (torch's compiler, which every torch optimiser imports) before
    Mesa's llvmpipe loads its own LLVM: the other way round, a process that draws the stage
    and then trains — a benchmark that enrolls a stage game's deck, a test run — crashes
    when training starts. The frames drawn are the same either way. Nothing where triton is
    not installed."""
    if importlib.util.find_spec("triton") is None:
        return
    with contextlib.suppress(ImportError, OSError):  # a triton that does not load leaves nothing to clash with
        importlib.import_module("triton._C.libtriton")


class Renderer:
    """Draws frames of one table under one camera, its lamps (at most two) and ``optics``;
    the cloth, the wood, the card pictures and the lamps' light on the table are uploaded
    once. ``samples``: multisampling (0 or 1: none)."""

    def __init__(self, camera: Camera, cloth: np.ndarray, wood: np.ndarray, cards: list[np.ndarray],
                 lamps: tuple[Lamp, ...], optics: Optics | None = None, wood_turn: float = 0.0,
                 samples: int = 0) -> None:
        if not 1 <= len(lamps) <= 2:
            raise StageError(f"one or two lamps, not {len(lamps)}")
        self.camera, self.lamps, self.optics = camera, lamps, optics or Optics()
        self._drawn: bytes | None = None
        self._last: Frame | None = None
        self.ctx = ctx = context()
        w, h = camera.size
        self._programs()
        self.textures = self._upload(cloth, wood, cards)
        baked = lighting.table_bake(lamps, camera.centre, CLOTH_CM / 2)
        self.textures["baked"] = ctx.texture((lighting.BAKE_PX, lighting.BAKE_PX), 4, baked.tobytes(), dtype="f4")
        quads = meshes.table_quads()
        cloth_first = np.concatenate([quads[6:], quads[:6]])  # the wood under the cloth fails the depth test unshaded
        self.table_vao = ctx.vertex_array(self.table_prog, [(ctx.buffer(cloth_first), "3f", "in_pos")])
        screen = ctx.buffer(meshes.fullscreen())
        self.sensor_vao = ctx.vertex_array(self.sensor_prog, [(screen, "2f", "in_pos")])
        self.lens_vao = ctx.vertex_array(self.lens_prog, [(screen, "2f", "in_pos")])
        self.optics_vao = ctx.vertex_array(self.optics_prog, [(screen, "2f", "in_pos")])
        self.light_vao = ctx.vertex_array(self.light_prog, [(screen, "2f", "in_pos")])
        self.card_mesh = ctx.buffer(meshes.card_grid())
        self.solid_meshes = {"sphere": ctx.buffer(meshes.sphere()), "cylinder": ctx.buffer(meshes.cylinder()),
                             "box": ctx.buffer(meshes.box())}
        self.instances: dict[str, moderngl.Buffer] = {}
        self.shadow_maps = [ctx.texture((SHADOW_PX, SHADOW_PX), 1, dtype="f4") for _ in lamps]
        self.shadow_fbos = [ctx.framebuffer([t], ctx.depth_renderbuffer((SHADOW_PX, SHADOW_PX)))
                            for t in self.shadow_maps]
        self.lamp_vps = [lamp_matrix(lamp) for lamp in lamps]
        self.table_light = ctx.texture((TABLE_LIGHT_PX, TABLE_LIGHT_PX), 2, dtype="f2")
        self.table_light.repeat_x = self.table_light.repeat_y = False
        self.table_light_fbo = ctx.framebuffer([self.table_light])
        samples = samples if 1 < samples <= ctx.max_samples else 0
        self.msaa = ctx.framebuffer([ctx.renderbuffer((w, h), 4, samples=samples)],
                                    ctx.depth_renderbuffer((w, h), samples=samples)) if samples else None
        self.scene_tex = ctx.texture((w, h), 4)
        self.scene_tex.repeat_x = self.scene_tex.repeat_y = False
        self.scene = ctx.framebuffer([self.scene_tex], None if samples else ctx.depth_renderbuffer((w, h)))
        self.picture = ctx.texture((w, h), 4)
        self.picture.repeat_x = self.picture.repeat_y = False
        self.picture_fbo = ctx.framebuffer([self.picture])
        self.lensed = ctx.texture((w, h), 4)
        self.lensed_fbo = ctx.framebuffer([self.lensed])
        self.output = ctx.framebuffer([ctx.renderbuffer((w, h), 4)])
        # drawn upside down, so that rows run from the top in every pass (and front faces turn clockwise)
        flip = np.diag([1.0, -1.0, 1.0, 1.0])
        self.render_focal = camera.render_focal()
        self.view_proj = (flip @ camera.projection_matrix(self.render_focal) @ camera.view_matrix()).astype(np.float32)
        self.lens = ctx.texture((w, h), 4, lens_map(camera, self.optics.vignette).tobytes(), dtype="f2")
        grain = np.random.default_rng(0).standard_normal((1024, 1024, 4)).astype(np.float16)
        self.grain = ctx.texture((1024, 1024), 4, grain.tobytes(), dtype="f2")
        for tex in (self.lens, self.grain, self.lensed):
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.wood_turn = (math.cos(wood_turn), math.sin(wood_turn))
        self._fixed_uniforms()

    def _programs(self) -> None:
        ctx, h = self.ctx, shaders.HEADER
        card = dict(half_w=CARD_W / 2, half_h=CARD_H / 2, corner=CARD_CORNER)
        lit = shaders.LIGHTING
        self.card_prog = ctx.program(vertex_shader=shaders.card_source(shaders.CARD_VERTEX, **card),
                                     fragment_shader=shaders.card_source(lit + shaders.CARD_FRAGMENT, **card))
        self.card_shadow = ctx.program(vertex_shader=shaders.card_source(shaders.CARD_VERTEX, **card),
                                       fragment_shader=shaders.card_source(shaders.CARD_DISTANCE_FRAGMENT, **card))
        def program(vertex: str, fragment: str) -> moderngl.Program:
            return ctx.program(vertex_shader=h + vertex, fragment_shader=h + fragment)

        self.solid_prog = program(shaders.SOLID_VERTEX, lit + shaders.SOLID_FRAGMENT)
        self.solid_shadow = program(shaders.SOLID_VERTEX, shaders.DISTANCE_FRAGMENT)
        self.table_prog = program(shaders.TABLE_VERTEX, lit + shaders.TABLE_FRAGMENT)
        self.lens_prog = program(shaders.FULLSCREEN_VERTEX, shaders.LENS_FRAGMENT)
        self.sensor_prog = program(shaders.FULLSCREEN_VERTEX, shaders.SENSOR_FRAGMENT)
        self.optics_prog = program(shaders.FULLSCREEN_VERTEX, shaders.OPTICS_FRAGMENT)
        self.light_prog = program(shaders.FULLSCREEN_VERTEX, shaders.TABLE_LIGHT_FRAGMENT)

    def _upload(self, cloth: np.ndarray, wood: np.ndarray, cards: list[np.ndarray]) -> dict[str, moderngl.Texture]:
        ctx = self.ctx
        out = {}
        for name, image in (("cloth", cloth), ("wood", wood)):
            tex = ctx.texture((image.shape[1], image.shape[0]), 3, np.ascontiguousarray(image).tobytes())
            tex.build_mipmaps()
            tex.filter = (moderngl.LINEAR_MIPMAP_NEAREST, moderngl.LINEAR)
            out[name] = tex
        shapes = {c.shape for c in cards}
        if len(shapes) != 1 or next(iter(shapes))[2] != 4:
            raise StageError(f"card pictures must share one RGBA size, got {sorted(shapes)}")
        h, w, _ = cards[0].shape
        faces = ctx.texture_array((w, h, len(cards)), 4, np.ascontiguousarray(np.stack(cards)).tobytes())
        faces.build_mipmaps()
        faces.repeat_x = faces.repeat_y = False
        out["faces"] = faces
        return out

    def _fixed_uniforms(self) -> None:
        """What stays the same all game: the camera, the lamps, the texture units."""
        vps = self.lamp_vps + self.lamp_vps[-1:] * (2 - len(self.lamp_vps))
        padded = list(self.lamps) + list(self.lamps[-1:]) * (2 - len(self.lamps))
        fixed = {
            "view_proj": self.view_proj.T.tobytes(), "eye": tuple(self.camera.centre), "lamps": len(self.lamps),
            "lamp_pos": [tuple(lamp.position) for lamp in padded],
            "lamp_axis": [tuple(np.asarray(lamp.axis) / np.linalg.norm(lamp.axis)) for lamp in padded],
            "lamp_cone": [(math.cos(math.radians(lamp.cone[0])), math.cos(math.radians(lamp.cone[1])))
                          for lamp in padded],
            "lamp_radius": [lamp.radius for lamp in padded], "lamp_tan": [lamp_tan(lamp) for lamp in padded],
            "lamp_vp": np.concatenate([m.T.ravel() for m in vps]).astype(np.float32).tobytes(),
            "shadow0": 1, "shadow1": 2, "cloth": 3, "wood": 4, "faces": 5, "table_light": 6, "baked": 9,
            "table_half": TABLE_LIGHT_HALF, "bake_half": lighting.BAKE_HALF, "cloth_half": CLOTH_CM / 2,
            "wood_span": WOOD_TILE_CM, "wood_turn": self.wood_turn,
            "size": (float(TABLE_LIGHT_PX), float(TABLE_LIGHT_PX)),
            "ambient": tuple(self.optics.ambient), "exposure": tuple(self.optics.exposure),
            "focus": self.optics.focus, "blur": self.optics.blur,
            "lamp_level": [tuple(lamp.level) for lamp in padded[:len(self.lamps)]] + [(0.0, 0.0, 0.0)] * (
                2 - len(self.lamps)),
            "lamp_rgb": [tuple(np.asarray(lamp.level) * lamp.position[2] ** 2) for lamp in padded],
        }
        for prog in (self.table_prog, self.card_prog, self.solid_prog, self.light_prog):
            for name, value in fixed.items():
                _set(prog, name, value, raw=isinstance(value, bytes))
        cam = self.camera
        size = (float(cam.width), float(cam.height))
        for name, value in {"picture": 0, "lens": 7, "size": size}.items():
            _set(self.lens_prog, name, value)
        for name, value in {"lensed": 0, "grain": 8}.items():
            _set(self.sensor_prog, name, value)
        for name, value in {"scene": 0, "size": size, "least": self.optics.least}.items():
            _set(self.optics_prog, name, value)

    def _instances(self, name: str, data: np.ndarray) -> moderngl.Buffer:
        """A buffer of at least ``data``'s size holding it (grown as needed, never shrunk)."""
        raw = np.ascontiguousarray(data, np.float32).tobytes()
        buffer = self.instances.get(name)
        if buffer is None or buffer.size < len(raw):
            if buffer is not None:
                buffer.release()
            buffer = self.instances[name] = self.ctx.buffer(reserve=max(len(raw), 4096) * 2)
        buffer.write(raw)
        return buffer

    def _draw_objects(self, frame: Frame, card_prog: moderngl.Program, solid_prog: moderngl.Program) -> None:
        if len(frame.cards):
            buffer = self._instances("cards", frame.cards)
            vao = self.ctx.vertex_array(card_prog, [(self.card_mesh, "3f", "in_pos"), _per_instance(
                card_prog, buffer, ("in_m0", "in_m1", "in_m2", "in_m3", "in_bend", "in_card"))])
            vao.render(moderngl.TRIANGLES, instances=len(frame.cards))
            vao.release()
        for kind in SOLIDS:
            rows = frame.solids.get(kind)
            if rows is None or not len(rows):
                continue
            buffer = self._instances(kind, rows)
            mesh = (self.solid_meshes[kind], "3f 3f", "in_pos", "in_normal") if "in_normal" in solid_prog else \
                (self.solid_meshes[kind], "3f 12x", "in_pos")
            vao = self.ctx.vertex_array(solid_prog, [mesh, _per_instance(
                solid_prog, buffer, ("in_m0", "in_m1", "in_m2", "in_m3", "in_colour"))])
            vao.render(moderngl.TRIANGLES, instances=len(rows))
            vao.release()

    def _raised(self, frame: Frame) -> bool:
        """Whether anything stands high enough over the cloth to shadow it: an arm, a card
        in the air (a pile's height is not)."""
        return any(len(rows) for rows in frame.solids.values()) or bool(
            len(frame.cards) and float(frame.cards[:, 14].max()) > 1.5)

    def _shadows(self, frame: Frame, box: tuple[int, int, int, int] | None) -> None:
        """Each lamp's shadow map, then the light left on the table's plane under ``box``
        (in the render; None: all of it), the only part the scene will read."""
        self.table_light_fbo.use()
        if not self._raised(frame):
            self.table_light_fbo.clear(1.0, 1.0, 1.0, 1.0)
            return
        for lamp, fbo, vp in zip(self.lamps, self.shadow_fbos, self.lamp_vps, strict=True):
            fbo.use()
            fbo.clear(FAR, FAR, FAR, 1.0, depth=1.0)
            for prog in (self.card_shadow, self.solid_shadow):
                prog["view_proj"].write(vp.T.tobytes())
                prog["lamp"].value = tuple(lamp.position)
            self._draw_objects(frame, self.card_shadow, self.solid_shadow)
        for unit, tex in enumerate(self.shadow_maps, start=1):
            tex.use(unit)
        self.table_light_fbo.scissor = None if box is None else on_table(
            self.camera, self.render_focal, box, TABLE_LIGHT_HALF, TABLE_LIGHT_PX)
        self.table_light_fbo.use()
        self.light_vao.render(moderngl.TRIANGLES)
        self.table_light_fbo.scissor = None

    def draw(self, frame: Frame) -> np.ndarray:
        """The frame as the camera delivers it: H×W×3 BGR bytes. The scene, the lens's blur
        and its distortion are drawn again only where the cards or the solids moved."""
        key = frame.scene_key()
        if key != self._drawn:
            box = None if self._last is None else dirty_box(self._last, frame, self.camera, self.render_focal,
                                                              self.lamps)
            if box != (0, 0, 0, 0):
                self._draw_scene(frame, box)
                self._draw_lens(box)
            self._last, self._drawn = frame, key
        ctx, look = self.ctx, frame.look
        ctx.disable(moderngl.DEPTH_TEST)
        self.output.use()
        self.lensed.use(0)
        self.grain.use(8)
        _set(self.sensor_prog, "gain", tuple(look.gain))
        _set(self.sensor_prog, "noise", tuple(look.noise))
        _set(self.sensor_prog, "shift", tuple(int(v) for v in np.random.default_rng(look.frame).integers(0, 1024, 2)))
        self.sensor_vao.render(moderngl.TRIANGLES)
        w, h = self.camera.size
        return np.frombuffer(self.output.read(components=3, alignment=1), np.uint8).reshape(h, w, 3)

    def _draw_scene(self, frame: Frame, box: tuple[int, int, int, int] | None) -> None:
        """The scene in the camera's gamma, with each pixel's circle of confusion, then the
        lens's blur; inside ``box`` only (None: all of it)."""
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.CULL_FACE)
        self._shadows(frame, box)
        for unit, tex in enumerate(self.shadow_maps, start=1):
            tex.use(unit)
        for unit, name in ((3, "cloth"), (4, "wood"), (5, "faces"), (9, "baked")):
            self.textures[name].use(unit)
        self.table_light.use(6)
        target = self.msaa or self.scene
        target.scissor = box
        target.use()
        target.clear(0.0, 0.0, 0.0, 0.0, depth=1.0, viewport=box)
        ctx.front_face = "cw"
        self.table_vao.render(moderngl.TRIANGLES)
        self._draw_objects(frame, self.card_prog, self.solid_prog)
        ctx.front_face = "ccw"
        target.scissor = None
        if self.msaa:
            ctx.copy_framebuffer(self.scene, self.msaa)
        ctx.disable(moderngl.DEPTH_TEST)
        self.picture_fbo.scissor = box
        self.picture_fbo.use()
        self.scene_tex.use(0)
        self.optics_vao.render(moderngl.TRIANGLES)
        self.picture_fbo.scissor = None

    def _draw_lens(self, box: tuple[int, int, int, int] | None) -> None:
        """The picture bent by the lens, where ``box`` (in the undistorted render) lands."""
        self.lensed_fbo.scissor = None if box is None else delivered(self.camera, self.render_focal, box)
        self.lensed_fbo.use()
        self.picture.use(0)
        self.lens.use(7)
        self.lens_vao.render(moderngl.TRIANGLES)
        self.lensed_fbo.scissor = None

    def release(self) -> None:
        self.ctx.release()


def _set(prog: moderngl.Program, name: str, value, raw: bool = False) -> None:
    """Set a uniform the shader uses (the compiler drops the ones it does not, and shortens
    arrays to what it reads)."""
    if name not in prog:
        return
    uniform = prog[name]
    if raw:
        uniform.write(value[:uniform.array_length * uniform.dimension * 4])
        return
    if isinstance(value, list):
        value = value[0] if uniform.array_length == 1 else value[:uniform.array_length]
    uniform.value = value


def _per_instance(prog: moderngl.Program, buffer: moderngl.Buffer, names: tuple[str, ...]) -> tuple:
    """A per-instance buffer of vec4s for ``prog``, skipping those its shader does not use
    (the shadow pass needs no colours)."""
    used = [name for name in names if name in prog]
    return (buffer, " ".join("4f" if name in prog else "16x" for name in names) + "/i", *used)
