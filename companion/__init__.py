"""A game master's companion for The Prisoner's Dilemma, a live-action people game."""

__version__ = "0.1.0"
