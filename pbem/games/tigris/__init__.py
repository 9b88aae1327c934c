"""Tigris & Euphrates: the board game's rules engine (`rules` is the registered instance)."""
from .rules import TigrisRules

rules = TigrisRules()

__all__ = ["rules", "TigrisRules"]
