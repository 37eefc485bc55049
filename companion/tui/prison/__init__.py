"""The game master's console for the prison break: the app, the context its screens are handed,
the picker, set-up, the day phase by phase, and its other screens.
"""
