"""The prison break's phone pages and JSON API: a private page for each seat, and the room's
board."""
