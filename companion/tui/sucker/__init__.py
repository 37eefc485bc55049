"""The So Long Sucker referee's console."""
