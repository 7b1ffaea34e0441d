"""The Flask server: live tables, overlays and the referee console (issue 6)."""
