"""The live game: an event store in SQLite, undo as recorded reverts, and subscribers."""
