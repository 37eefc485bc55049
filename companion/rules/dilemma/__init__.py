"""The two-prisoner dilemma warm-up: commands, state, pairing, the engine and the views."""
