"""The Balance screen: the escape-rate chart drawn from the simulator's points."""
