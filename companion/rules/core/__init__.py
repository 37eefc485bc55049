"""What every game's rules share: the Game protocol, History and undo, command parsing, scripts,
rosters and the registry of games.
"""
