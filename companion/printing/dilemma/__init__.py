"""The dilemma warm-up's printable: the room's QR poster."""
