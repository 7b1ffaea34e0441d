"""The OpenVINO finder run directly gives what ultralytics gives running the same export.

The model card's figures were first measured through ultralytics' predictor; the direct
path (``vision.live.finder``) must not change them. Compared on the committed sample zones as
they are (320×320, no letterbox), shrunk and stretched to odd shapes (letterboxed up, grey
borders) and, for the 640 export, scaled up (letterboxed down). And the letterbox's geometry
on its own. The bytes' scaling to [0, 1] and BGR to RGB are done inside the compiled network,
not by numpy; where the CPU has bf16 arithmetic OpenVINO runs the full-precision layers in
it, so rounding falls in other places: a box's edges move by up to a pixel or two of a
scaled-down photo and a confidence by a few hundredths, and two overlapping candidates may
come out of NMS the other way round. So every box either is sure of (from ``SURE``) must be
the other's too, overlapping it by 0.8 IoU, its confidence within 0.06 (the channels in the
wrong order would be further apart than that), except at most one box per model that one
side's NMS kept and the other's dropped: a surer box overlaps it just under the NMS
threshold, so a pixel's rounding decides it. The free-shape twins (``whole/``) are compared
with ultralytics running them on a whole seat zone, padded, and with the tiles they replace
in the live loop.
"""

from pathlib import Path
from unittest import mock

import cv2
import numpy as np
import openvino as ov
import pytest

from vision.live.boxes import iou_matrix
from vision.live.detector import CardDetector, DetectorError, find_tiled
from vision.live.finder import GREY, FinderError, OpenVinoFinder, letterbox, to_input
from vision.live.reader import CPU_CONFIG
from vision.live.seat_reading import LOOK_FLOOR
from vision.live.yolo_env import prepare

# make check leaves these out: the finders compared with ultralytics' own, network by network
pytestmark = pytest.mark.slow

MODELS = Path(__file__).parents[2] / "models"
SAMPLES = sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg"))


SURE = 0.3  # the boxes compared: the detector's working threshold is 0.25
CONF_DRIFT = 0.06  # how far the two paths' confidences in one box may lie apart (seen: 0.055)
CLEARLY_SURE = 0.45  # a box the two precisions must both find, whatever the processor
NMS_EDGE = 0.4  # a box this close to the NMS threshold (0.5) under a surer one is kept or dropped by rounding


def ultralytics_find(folder: Path, image: np.ndarray, size: int | tuple[int, int], conf: float
                     ) -> tuple[np.ndarray, np.ndarray]:
    prepare()
    from ultralytics import YOLO

    with full_precision():
        boxes = YOLO(str(folder), task="detect").predict(image, imgsz=size, conf=conf, iou=0.5, device="cpu",
                                                          verbose=False)[0].boxes
    return boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy()


#: a processor with AMX (a recent Xeon), where OpenVINO's defaults and ultralytics' ways differ
AMX = "amx_int8" in (Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else "")


def full_precision():
    """OpenVINO compiling as our finder does (``vision.live.reader.CPU_CONFIG``: float32 where
    the model is not 8-bit): ultralytics leaves the precision to OpenVINO, which on a processor
    with AMX computes in bfloat16, and the two would then differ by that, not by the finder."""
    original = ov.Core.compile_model

    def compile_model(core, model, device_name=None, config=None, **options):
        return original(core, model, device_name, {**(config or {}), **CPU_CONFIG}, **options)

    return mock.patch.object(ov.Core, "compile_model", compile_model)


def shapes(image: np.ndarray, size: int) -> list[np.ndarray]:
    return [image, cv2.resize(image, (size * 3 // 4, size // 2)), cv2.resize(image, (size // 2 + 1, size - 7)),
            cv2.resize(image, (size * 2, size * 2 - 20))]


@pytest.mark.parametrize("folder,size", [("finder_int8_openvino_model", 320), ("finder_openvino_model", 320),
                                         ("finder_640_openvino_model", 640),
                                         ("finder_640_int8_openvino_model", 640)])
def test_the_direct_finder_gives_ultralytics_boxes(folder: str, size: int):
    finder = OpenVinoFinder(MODELS / folder)
    assert finder.size == size
    compared = knife_edges = 0
    for path in SAMPLES[:2]:
        for image in shapes(cv2.imread(str(path)), size):
            ours, our_conf = finder.find(image, 0.05, 0.5)
            theirs, their_conf = ultralytics_find(MODELS / folder, image, size, 0.05)
            assert abs(len(ours) - len(theirs)) <= 2  # a box scored at the floor may fall either side
            twins, edges = agreeing(ours, our_conf, theirs, their_conf)
            compared, knife_edges = compared + twins, knife_edges + edges
    assert compared >= 60
    assert knife_edges <= 1, f"{knife_edges} boxes kept by one side's NMS and not the other's"


def agreeing(ours: np.ndarray, our_conf: np.ndarray, theirs: np.ndarray, their_conf: np.ndarray) -> tuple[int, int]:
    """Each side's sure boxes checked against their twins on the other side (overlapping by
    0.8, confidence within ``CONF_DRIFT``); returns how many were, and how many had no twin
    because the other side's NMS dropped them on the knife edge (``suppressed``)."""
    compared = knife_edges = 0
    for a, a_conf, b, b_conf in ((ours, our_conf, theirs, their_conf), (theirs, their_conf, ours, our_conf)):
        for box, conf in zip(a[a_conf >= SURE], a_conf[a_conf >= SURE], strict=True):
            overlap = iou_matrix(b, box[None])[:, 0]
            twin = overlap.argmax()
            if overlap[twin] < 0.8 and suppressed(box, conf, b, b_conf):
                knife_edges += 1
                continue
            assert overlap[twin] >= 0.8 and abs(b_conf[twin] - conf) <= CONF_DRIFT, (box, conf, b[twin], b_conf[twin])
            compared += 1
    return compared, knife_edges


def suppressed(box: np.ndarray, conf: float, others: np.ndarray, others_conf: np.ndarray) -> bool:
    """Whether the other side's NMS may have dropped ``box`` on the knife edge: a surer box of
    its overlaps it by nearly the NMS threshold (0.5), so a pixel's rounding decides it."""
    overlap = iou_matrix(others, box[None])[:, 0]
    return bool(((overlap >= NMS_EDGE) & (overlap < 0.5) & (others_conf > conf)).any())


def test_the_letterbox_centres_the_image_on_grey():
    image = np.full((100, 200, 3), (10, 20, 30), np.uint8)  # BGR
    boxed, gains, (left, top) = letterbox(image, 320)
    assert boxed.shape == (320, 320, 3) and boxed.dtype == np.uint8
    assert gains == (1.6, 1.6) and (left, top) == (0, 80)
    tensor = to_input(boxed)  # what the exported network itself takes
    assert tensor.shape == (1, 3, 320, 320) and tensor.dtype == np.float32
    assert np.allclose(tensor[0, :, 160, 160], np.array([30, 20, 10]) / 255)  # RGB
    assert np.allclose(tensor[0, :, 40, 160], 114 / 255) and np.allclose(tensor[0, :, 300, 160], 114 / 255)
    assert np.allclose(tensor[0, :, 80, 5], np.array([30, 20, 10]) / 255)  # the image starts where the border ends
    assert np.allclose(tensor[0, :, 79, 5], 114 / 255)


def test_a_folder_that_is_not_a_finder_is_refused(tmp_path: Path):
    with pytest.raises(FinderError, match="no OpenVINO model"):
        OpenVinoFinder(tmp_path)
    with pytest.raises(DetectorError, match="exported for 320"):
        CardDetector(MODELS / "finder_int8_openvino_model", imgsz=640)
    (tmp_path / "finder.xml").write_text("not a network")
    with pytest.raises(DetectorError, match="not a model OpenVINO can read"):
        CardDetector(tmp_path)


def seat_zone() -> np.ndarray:
    """A 260×560 seat zone as the live loop rectifies one (10 px/cm): two committed sample
    zones side by side, cut to the zone's height, cards crossing the seam."""
    left, right = (cv2.imread(str(path)) for path in SAMPLES[1:3])
    return np.ascontiguousarray(np.hstack([left, right])[30:290, 40:600])


@pytest.mark.parametrize("folder", ["finder_int8_openvino_model", "finder_openvino_model"])
def test_the_whole_look_gives_ultralytics_boxes_for_the_padded_zone(folder: str, tmp_path: Path):
    """The free-shape twin looks at a whole zone padded to 288×576: ultralytics running the
    same twin on that padded image (no scaling) boxes what it boxes, shifted by the padding
    (ultralytics knows an OpenVINO folder by its name's ending, hence the link)."""
    if "int8" in folder and AMX:
        pytest.skip("on a processor with AMX ultralytics runs an 8-bit free-shape model another way (reshaped for "
                    "each input, as OpenVINO's dynamic 8-bit kernels fail there), and its boxes then differ from the "
                    "same model's at full precision: no reference for this comparison (the 8-bit twin is checked "
                    "against the full-precision one by test_the_8_bit_whole_look_finds_what_full_precision_finds)")
    finder = OpenVinoFinder(MODELS / folder)
    assert finder.free and finder.size == 320
    zone = seat_zone()
    ours, our_conf = finder.find_whole(zone, 0.05, 0.5)
    padded = cv2.copyMakeBorder(zone, 14, 14, 8, 8, cv2.BORDER_CONSTANT, value=(GREY, GREY, GREY))
    (tmp_path / "whole_openvino_model").symlink_to(MODELS / folder / "whole")
    theirs, their_conf = ultralytics_find(tmp_path / "whole_openvino_model", padded, (288, 576), 0.05)
    theirs = theirs - np.array([8, 14, 8, 14], np.float32)
    assert (our_conf >= SURE).sum() >= 15 and abs(len(ours) - len(theirs)) <= 2
    assert agreeing(ours, our_conf, theirs, their_conf)[1] == 0  # every sure box has its twin


def test_the_8_bit_whole_look_finds_what_full_precision_finds():
    """The 8-bit twin and the full-precision one, each looking at the same whole zone, box the
    same indices: every box either is clearly sure of has its twin in the other, kept at the
    floor a still zone's looks read from. Not the two confidences side by side: 8-bit
    arithmetic rounds differently on AVX2, AVX-512 VNNI and AMX, and a box near the working
    threshold may fall either side of it on one processor (what a user sees is the index
    found, pooled over looks from ``LOOK_FLOOR``)."""
    zone = seat_zone()
    eight, eight_conf = OpenVinoFinder(MODELS / "finder_int8_openvino_model").find_whole(zone, 0.05, 0.5)
    full, full_conf = OpenVinoFinder(MODELS / "finder_openvino_model").find_whole(zone, 0.05, 0.5)
    assert (full_conf >= SURE).sum() >= 15 and (eight_conf >= SURE).sum() >= 15
    for a, a_conf, b, b_conf in ((eight, eight_conf, full, full_conf), (full, full_conf, eight, eight_conf)):
        for box in a[a_conf >= CLEARLY_SURE]:
            overlap = iou_matrix(b, box[None])[:, 0]
            assert (overlap[b_conf >= LOOK_FLOOR] >= 0.8).any(), box


def test_a_whole_look_finds_what_the_tiles_find():
    """One look at the zone and the two overlapping tiles find the same indices: every index
    either is sure of (from ``SURE``) the other has too, overlapping it by 0.7 IoU."""
    detector = CardDetector(MODELS / "finder_int8_openvino_model", boxes=False)
    assert detector.looks_whole
    zone = seat_zone()
    whole = find_tiled(detector, zone, SURE, whole=True)
    tiles = find_tiled(detector, zone, SURE)
    assert len(whole) >= 15 and len(tiles) >= len(whole)  # an index in the tiles' overlap is in both
    for a, b in ((whole, tiles), (tiles, whole)):
        others = np.array([box for box, _ in b])
        for box, conf in a:
            if conf >= SURE + 0.1:  # one just above the threshold may be just below it in the other look
                assert iou_matrix(others, np.array([box])).max() >= 0.7, (box, conf)


def test_a_finder_without_a_twin_looks_at_tiles(tmp_path: Path):
    """A finder exported before the twin existed (or only at one size) still reads zones, in
    tiles, and says so if asked for a whole look; a twin whose shape is not free is refused."""
    static = tmp_path / "finder_openvino_model"
    static.mkdir()
    for name in ("finder.xml", "finder.bin", "metadata.yaml"):
        (static / name).write_bytes((MODELS / "finder_openvino_model" / name).read_bytes())
    detector = CardDetector(static, boxes=False)
    assert not detector.looks_whole
    zone = seat_zone()
    assert len(find_tiled(detector, zone, SURE, whole=True)) == len(find_tiled(detector, zone, SURE)) >= 15
    with pytest.raises(DetectorError, match="not at a whole zone"):
        detector.find(zone, SURE, whole=True)
    with pytest.raises(FinderError, match="exported for one image size"):
        OpenVinoFinder(static).find_whole(zone, SURE, 0.5)
    (static / "whole").mkdir()
    for name in ("finder.xml", "finder.bin"):
        (static / "whole" / name).write_bytes((MODELS / "finder_openvino_model" / name).read_bytes())
    with pytest.raises(FinderError, match="not free"):
        OpenVinoFinder(static)


def test_whole_looks_compile_each_shape_once_and_keep_the_latest(monkeypatch: pytest.MonkeyPatch):
    import vision.live.finder as finder_module

    monkeypatch.setattr(finder_module, "SHAPES_KEPT", 2)
    finder = OpenVinoFinder(MODELS / "finder_int8_openvino_model")
    image = np.full((100, 100, 3), 128, np.uint8)
    for height, width in ((330, 400), (330, 400), (400, 330), (340, 360)):
        finder.find_whole(image[:1].repeat(height, 0)[:, :1].repeat(width, 1), 0.25, 0.5)
    assert list(finder._requests) == [(416, 352), (352, 384)]  # 330 pads to 352, 340 to 352, 400 to 416


@pytest.mark.parametrize("folder", ["finder_int8_openvino_model", "finder_openvino_model",
                                    "finder_640_int8_openvino_model"])
def test_views_looked_at_as_one_batch_give_what_they_give_one_by_one(folder: str):
    """The four views of a zone (and odd shapes, each letterboxed alike) go through the
    network as one batch: the boxes and confidences are those of four single looks."""
    finder = OpenVinoFinder(MODELS / folder)
    zone = cv2.imread(str(SAMPLES[1]))
    images = [np.ascontiguousarray(np.rot90(zone, k)) for k in range(4)] + [seat_zone()]
    assert list(finder._batches) == []  # compiled for a batch size on first use only
    together = finder.find_all(images, 0.05, 0.5)
    assert list(finder._batches) == [5]
    assert sum(len(boxes) for boxes, _ in together) >= 60
    for image, (boxes, confs) in zip(images, together, strict=True):
        alone, alone_confs = finder.find(image, 0.05, 0.5)
        assert np.allclose(boxes, alone, atol=0.05) and np.allclose(confs, alone_confs, atol=1e-4)
