"""What every console shares: dialogs, the footer, the QR widget, services, moves and following the
session.
"""
