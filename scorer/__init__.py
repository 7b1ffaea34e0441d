"""The ``guandan`` commands: the one place that wires the layers together (camera, clock, rules, store, hall, web)."""
