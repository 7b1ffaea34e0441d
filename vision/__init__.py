"""Cameras, table calibration, the card detector and play detection (issues 3 and 4)."""
