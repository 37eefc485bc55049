"""The dilemma warm-up's part of the session layer: its players' secret links and opening or
creating its sessions."""
