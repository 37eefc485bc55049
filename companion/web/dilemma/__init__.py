"""The dilemma warm-up's phone server: join the room, a private page for each player, and the
board.
"""
