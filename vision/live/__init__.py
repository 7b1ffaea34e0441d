"""What runs at a table: camera sources, calibration from the markers, the card detector
(finder, reader, suit reader, box refiners), grouping indices into cards, and each seat's
zone read frame by frame (``vision.live.seat_reading``)."""
