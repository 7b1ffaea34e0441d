"""Synthetic training data for the corner-index detector (DESIGN §5).

The detector runs on upright, rectified seat zones of the table plane, so that is what
this package renders, deterministically from a seed, with numpy and OpenCV only (the
machine that builds the data has two CPU cores and no GPU):

* decks — ``style`` (what a deck prints: fonts, index layout, colours, pips, court and
  joker art, backs; train and held-out splits), ``fonts`` (OpenCV and TrueType faces),
  ``shapes`` (suit symbols as polygons), ``faces`` (drawing), ``deck`` (``render_card``);
* zones — ``plays`` (which cards form a row), ``surface`` (the table), ``props`` (hands,
  piles, phones, cups, chips, score sheets …), ``lighting``, ``camera`` (the round trip
  through a camera and a perspective warp), ``scene`` (composition), ``labels`` (YOLO boxes
  of visible indices, derived from an ID mask painted alongside the pixels);
* datasets — ``recipe`` (YAML recipes), ``build`` (an ultralytics dataset, in parallel),
  ``progress``, ``cli`` (``guandan dataset build``), ``preview`` (pictures for people).
"""
