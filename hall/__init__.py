"""A hall: many table nodes report their events to one server over MQTT (DESIGN §8).

Each table node writes every event to a local outbox first and publishes it from there
(``node``); the hall server subscribes, validates and stores each event exactly once
(``ingest``); retained status topics with a last will say which tables are present
(``presence``). With a tournament in the hall's database, finished matches are entered as
provisional results (``results``), each table is told its seating and its players confirm
with their seat buttons (``draw_post``, ``seating``, ``table_seating``). Topics and QoS are in
``topics``; ``docs/hall.md`` tells how to run a hall.
"""
