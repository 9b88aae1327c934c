"""Assyria (Ystari, 2009): the rules engine behind `RULES["assyria"]`."""
from .game import Assyria

rules = Assyria()

__all__ = ["Assyria", "rules"]
