"""The rule books as data and as words: the rule profiles an event plays by (TOML files,
``rulebook.profiles``) and everything people read — terms, violations, alerts, the
account of a match, tournament sheets — in Chinese (the default) and English.

Just above the pure engine (which speaks in codes and reads no files), so every layer
that shows something to a person can reach it without importing upward.
"""
