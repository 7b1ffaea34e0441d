"""H.264 at a network camera's bitrate: the frames encoded with x264 and decoded back.

An IP camera sends H.264 at a bitrate set for the network; at 1080p, 4 Mbit/s is common, and
1–2 Mbit/s what a crowded hall's network or a camera's sub-stream gives. The frames are
encoded by libx264 (through PyAV, which bundles FFmpeg: ``pip install av``, a development
dependency) as such a camera does — a bitrate held over a one-second buffer, a key frame
every two seconds, no B-frames — and decoded back. PyAV is imported only when a function
here is called.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np

from vision.corruptions.common import level

#: the bitrate (bit/s), by severity
H264_BITRATE = (4_000_000, 2_000_000, 1_000_000)
KEY_FRAME_S = 2.0


def _av():
    try:
        import av
    except ImportError as error:  # pragma: no cover - av is in the dev extra
        raise ImportError("the H.264 corruption needs PyAV: pip install av") from error
    return av


def _configure(context, width: int, height: int, fps: float, severity: int) -> None:
    bitrate = level(severity, H264_BITRATE)
    context.width, context.height = width, height
    context.pix_fmt = "yuv420p"
    context.bit_rate = bitrate
    context.gop_size = max(1, round(KEY_FRAME_S * fps))
    context.max_b_frames = 0
    context.thread_count = 1  # x264 on several threads does not give the same stream every time
    context.options = {"preset": "veryfast", "maxrate": str(bitrate), "bufsize": str(bitrate),
                       "x264-params": "scenecut=0"}


def _rate(fps: float) -> Fraction:
    return Fraction(fps).limit_denominator(1001)


def h264(frames: Iterable[np.ndarray], fps: float, severity: int) -> Iterator[np.ndarray]:
    """``frames`` (BGR uint8, one size) encoded as H.264 at 4, 2 or 1 Mbit/s (severity 1, 2,
    3) and decoded back, in order, as they come out of the decoder."""
    av = _av()
    encoder = decoder = None
    for image in frames:
        if encoder is None:
            encoder = av.CodecContext.create("libx264", "w")
            height, width = image.shape[:2]
            _configure(encoder, width, height, fps, severity)
            encoder.time_base = 1 / _rate(fps)
            encoder.framerate = _rate(fps)
            decoder = av.CodecContext.create("h264", "r")
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
        for packet in encoder.encode(frame):
            for decoded in decoder.decode(packet):
                yield decoded.to_ndarray(format="bgr24")
    if encoder is None:
        return
    for packet in encoder.encode(None):
        for decoded in decoder.decode(packet):
            yield decoded.to_ndarray(format="bgr24")
    for decoded in decoder.decode(None):
        yield decoded.to_ndarray(format="bgr24")


def write_h264(frames: Iterable[np.ndarray], path: Path, fps: float, severity: int) -> int:
    """``frames`` written to an MP4 file at ``path`` as H.264 at the severity's bitrate (what
    the camera would send; OpenCV decodes it); returns how many were written."""
    av = _av()
    written = 0
    with av.open(str(path), "w") as container:
        stream = None
        for image in frames:
            if stream is None:
                stream = container.add_stream("libx264", rate=_rate(fps))
                height, width = image.shape[:2]
                _configure(stream.codec_context, width, height, fps, severity)
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
            container.mux(stream.encode(frame))
            written += 1
        if stream is not None:
            container.mux(stream.encode(None))
    return written
