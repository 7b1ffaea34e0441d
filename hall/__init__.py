"""A hall: many table nodes report their events to one server over MQTT (DESIGN §8).

Each table node writes every event to a local outbox first and publishes it from there
(``node``); the hall server subscribes, validates and stores each event exactly once
(``ingest``); retained status topics with a last will say which tables are present
(``presence``). Topics and QoS are in ``topics``; ``docs/hall.md`` tells how to run a hall.
"""
