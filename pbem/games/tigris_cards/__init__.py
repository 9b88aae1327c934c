"""Euphrat & Tigris: the card game (Reiner Knizia), a pure rules engine."""
from .rules import TigrisCards

rules = TigrisCards()

__all__ = ["rules", "TigrisCards"]
