"""The ``companion`` command: the composition root."""
