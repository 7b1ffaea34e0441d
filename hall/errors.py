"""The one error the hall commands raise for something the user can fix."""

from rulebook.tournament_live import Refusal


class HallError(Refusal, ValueError):
    """A bad broker address, an unreachable broker, a bad name: one line, named by a code
    and worded by the rule books in both languages (the asker's first: ``text(lang)``), since
    a director at a terminal or a referee at the console reads it."""
