"""The pure rules core: state, commands, events and per-audience views.

Nothing in this package does I/O or imports the console, the web server or the store.
"""
