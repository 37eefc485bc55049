"""One module per ``companion`` subcommand; each offers ``register(subparsers)``.

Keep imports at the top of these modules light (standard library and the rules core): the
console, the web server and the PDF writer are imported inside the functions that use them.
"""
