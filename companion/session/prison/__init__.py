"""The prison break's part of the session layer: its seats (each player's secret link and seat
code) and creating its sessions."""
