"""pbem: a play-by-email turn server for slow board games."""

__version__ = "0.3.2.dev0"
