"""Printables: player cards, token sheets, night tracker, rules card and warden's screen (PDF).

Built with fpdf2 and the DejaVu Sans font shipped in ``fonts/``. The entry points are in
:mod:`companion.printing.prison.document` (``print_session``, ``print_generic``); this package never
imports the console or the phone server.
"""
