"""On ``PYTHONPATH`` for a test: the packages a training machine lacks cannot be imported
(``python -m vision`` must not need them)."""

import sys

for name in ("flask", "serial", "paho", "openvino", "ultralytics", "nncf", "psycopg"):
    sys.modules[name] = None
