"""So Long Sucker's night's server: the game master's desk and the game master's phone (the
referee's page); the players have no phones in this game."""
