"""What every game's rules share: the Game protocol, Engine, refusals, History and undo, command
parsing, scenario errors, scripts, rosters, the phrases every sentence is, the English words and
the registry of games.
"""
