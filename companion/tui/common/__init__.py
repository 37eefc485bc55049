"""What every console shares: dialogs, the footer, the QR widget, moves, following the
session (:mod:`.follow`) and meeting errors (:mod:`.faults`).
"""
