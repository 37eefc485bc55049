"""The game master's console: a Textual app that runs a live prison-break session.

It reads the game only through :mod:`companion.rules.prison.views` and changes it only through
:class:`companion.session.session.Session` (submit, undo, note). It never imports the web face:
the composition root hands it async ``services`` (such as the phone server) and a ``links``
callable.
"""
