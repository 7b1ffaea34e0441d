"""Errors a person reads, named by a code and the values its words need.

The engine, the stores and the profiles name what they refuse instead of wording it: the
words, in Chinese and English, are the rule books' (``rulebook.tournament_live.REFUSALS``),
so one refusal reads in the asker's language wherever it surfaces. ``str`` gives the code
and values, for a log; subclasses that know the words say them instead.
"""

from __future__ import annotations


class Coded(Exception):
    """An error named by ``code``, with the ``values`` its words need.

    >>> str(Coded("no_table", round=1, table=9))
    'no_table round=1 table=9'
    """

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code, values)
        self.code = code
        self.values = values

    def __str__(self) -> str:
        return " ".join([self.code, *(f"{k}={v}" for k, v in self.values.items())])
