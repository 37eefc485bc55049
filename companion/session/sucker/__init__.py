"""So Long Sucker's part of the session layer: opening its sessions."""
