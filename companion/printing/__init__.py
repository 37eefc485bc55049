"""Printables (PDF, fpdf2, the DejaVu Sans font shipped in ``common/fonts/``): ``common`` for
paper, fonts and the vector QR code; one package per game's printed things: ``prison`` (cards,
token sheets, night tracker, rules card, warden's screen; entry points ``print_session`` and
``print_generic`` in :mod:`companion.printing.prison.document`), ``sucker`` (the rules card),
``dilemma`` (the room's poster). This package never imports the console or the phone server.
"""
