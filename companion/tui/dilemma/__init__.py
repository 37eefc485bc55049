"""The console of the dilemma warm-up."""
