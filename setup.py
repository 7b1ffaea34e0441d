"""The one build step that pyproject.toml cannot express: the wheel carries the committed
models that a table reads with.

They live in ``models/`` at the checkout's top, next to the full-precision and PyTorch files
that training and enrolling start from. A checkout (``pip install -e .``) reads them there.
An installed copy (``pip install .``) has no checkout, so the wheel carries the models that
the reading commands load (``vision.live.detector``: the 8-bit finders and readers, each with
the JSON beside it that says what it was made from) as ``vision/live/models/``, where
``vision.live.places`` finds them. The rest stays out of the wheel to keep it small.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

MODELS = Path(__file__).resolve().parent / "models"
#: the committed models that ``run``, ``scan``, ``detect`` and ``demo`` load, relative to ``models/``
SHIPPED = ("finder_int8_openvino_model/**/*", "finder_640_int8_openvino_model/**/*",
           "*_int8.xml", "*_int8.bin", "*_int8.json")
#: where they go in the wheel (``vision.live.places.SHIPPED``)
INTO = Path("vision", "live", "models")


def shipped_models() -> list[Path]:
    """The files of ``models/`` that the wheel carries."""
    return sorted({path for pattern in SHIPPED for path in MODELS.glob(pattern) if path.is_file()})


class BuildWithModels(build_py):
    """``build_py`` that also copies the shipped models into the built package. An editable
    install reads ``models/`` in place and copies nothing."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source in shipped_models():
            target = Path(self.build_lib) / INTO / source.relative_to(MODELS)
            self.mkpath(str(target.parent))
            self.copy_file(str(source), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [str(Path(self.build_lib) / INTO / source.relative_to(MODELS)) for source in shipped_models()]


setup(cmdclass={"build_py": BuildWithModels})
