"""Errors a user's mistake can cause deep in the vision code, kept in a module of their own so
the command line can name them without loading the models' code to do so."""

from __future__ import annotations

from pathlib import Path


class DatasetError(ValueError):
    """A file given as a dataset YAML that is not one, or lacks the images asked for: ``why``
    says what is wrong with ``path``, for callers that name the file their own way."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why
