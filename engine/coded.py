"""Errors a person reads, named by a code and the values its words need.

The engine, the stores and the profiles name what they refuse instead of wording it: the
words, in Chinese and English, are the rule books' (``rulebook.tournament_live.REFUSALS``),
so one refusal reads in the asker's language wherever it surfaces. ``str`` gives the code
and values, for a log; subclasses that know the words say them instead.

A kind of error that has always said itself in English — a broken game record, a card
name mistyped — keeps that English in ``ENGLISH`` beside it: ``str`` says it, for a log,
a doctest and a program reading it (the rules service), and the rule books take the same
English and give it its Chinese (``rulebook.engine_words``), so there is one English
sentence per code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar


class Coded(Exception):
    """An error named by ``code``, with the ``values`` its words need.

    >>> str(Coded("no_table", round=1, table=9))
    'no_table round=1 table=9'
    """

    #: code → its English, ``{name}`` fields filled from ``values`` (a class that says itself)
    ENGLISH: ClassVar[Mapping[str, str]] = {}

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code, values)
        self.code = code
        self.values = values

    def __str__(self) -> str:
        english = self.ENGLISH.get(self.code)
        if english is not None:
            return english.format(**self.values)
        return " ".join([self.code, *(f"{k}={v}" for k, v in self.values.items())])
