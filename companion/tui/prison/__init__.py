"""The game master's console for the prison break: the picker, set-up, the day phase by phase, and
its screens.
"""
