"""The live game: the SQLite log, undo as recorded reverts and subscribers; every game's seats
and links; creating, opening and holding sessions; what the consoles are handed (contracts).
"""
