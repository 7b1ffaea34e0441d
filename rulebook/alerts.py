"""What the table runtime tells its operator: an alert is a code and values, worded on output.

The runtime, like the engine, speaks in codes; whoever prints an alert (``guandan run``,
``scan``, the demo) words it in the reader's language (``rulebook.i18n.ALERTS``), so one
runtime serves a Chinese referee and an English streamer alike, and tests can check what
happened without depending on the wording.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.i18n import DEFAULT_LANG, Said, alert_text


@dataclass(frozen=True)
class Alert(Said):
    """One alert: ``code`` is a key of ``rulebook.i18n.ALERTS``; ``values`` fill its wording."""

    def text(self, lang: str = DEFAULT_LANG) -> str:
        return alert_text(self.code, lang, **dict(self.values))
