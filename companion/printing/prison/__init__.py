"""The prison break's printables: cards, token sheets, the night tracker, the rules card, the
warden's screen.
"""
