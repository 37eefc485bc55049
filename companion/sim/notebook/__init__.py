"""The designers' notebook: every finished prison break is a playtest, set beside what the bots
predicted for the same scenario and group size (``companion playtests``)."""
