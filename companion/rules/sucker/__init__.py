"""So Long Sucker: commands, state, the engine, the views and the scripts."""
