"""The console's screens, one module per screen (dialogs share one module)."""
