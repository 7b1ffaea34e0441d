"""The live table: what the camera reads and the clock's presses, joined with the rules
into record events.

``table.runtime`` takes frames (read by ``vision.live``) and clock presses (from
``hardware``), keeps the match (``engine``) and writes the record through a
``table.record_link.RecordLink`` (the event store, ``store``); alerts go to the
operator and, about a play, to the referee's queue as camera notes.
"""
