"""So Long Sucker's printable rules card."""
