"""What a command needs beyond the base install, and the one line that says so when it is not
there.

``pip install .`` gives a table node and the hall's server: the committed models and an
enrolled deck's run on OpenVINO. Teaching a deck and training, exporting or quantizing
models need the ``train`` extra (torch, ultralytics, NNCF …, ``pyproject.toml``). The
commands that always need it check before any work (``needs_training``); anything else that
reaches for it (``--weights finder.pt`` on a reading command, run through ultralytics) is
caught as the command ends (``training_missing``). Either way the operator reads which
command needs what, in both languages, and how to install it — never a traceback.
"""

from __future__ import annotations

import importlib.util

from vision.cli.inputs import VisionError

#: the modules of the ``train`` extra (and what they bring that the code imports itself)
TRAINING = ("torch", "torchvision", "ultralytics", "nncf", "onnxruntime", "onnxslim", "moderngl")


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):  # a half-installed package: as good as absent
        return True


def needs_training(command: str, *modules: str) -> None:
    """Refuse ``command`` (``enroll``, ``train-reader``, …) before any work unless each of
    ``modules`` (by default torch, ultralytics and NNCF) can be imported."""
    for module in modules or ("torch", "ultralytics", "nncf"):
        if _absent(module):
            raise VisionError("needs_train", command=command, module=module)


def training_missing(exc: ModuleNotFoundError, command: str) -> VisionError | None:
    """The refusal for ``exc`` raised in ``command`` when the module it could not find is
    one the ``train`` extra installs; None for any other (a broken install, a bug)."""
    root = (exc.name or "").partition(".")[0]
    return VisionError("needs_train", command=command, module=root) if root in TRAINING else None
