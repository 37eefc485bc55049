"""The prison break (The Prisoner's Dilemma people game): commands, events and state, the engine,
the views and the scripts.
"""
