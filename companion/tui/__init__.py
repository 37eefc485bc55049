"""The game master's consoles, one package per game: ``prison`` (the prison break), ``dilemma``
(the warm-up), ``sucker`` (So Long Sucker) and ``balance`` (the escape-rate chart), around
``common`` (dialogs, footer, QR widget, moves, following the session, faults).

Each console reads its game only through its rules' views and changes it only through the
session: a night's server serves the phones, and the console holds a session attached to it
(:mod:`companion.session.attached`). None imports the web face, printing or the simulator: the
composition root hands it callables (links, printer, Balance screen).
"""
