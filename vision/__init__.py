"""Frames in, cards laid out: ``vision.live`` runs at a table (camera, calibration, the
card detector, each seat's zone read over time); ``vision.training`` makes and measures
the models; ``vision.synth`` renders the decks, tables and whole games they learn from.
``python -m vision`` runs the camera side's commands alone, on a training machine."""
