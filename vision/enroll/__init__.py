"""Enrolling the event's deck: the table camera shown the 54 cards once, laid out, learns
them (``guandan enroll``; ``--deck DIR`` wherever the detector runs).

``layout`` finds the cards in a picture of the layout and names them by their places;
``pictures`` reads pictures and videos of it and checks them; ``adapt`` teaches the index
reader the deck from the cards' own faces; ``deck`` writes and opens the deck folder.
"""
