"""What every printable shares: paper, fonts, the QR code drawn as vectors."""
