"""Tigris & Euphrates: the board game's rules engine (`rules` is the registered instance).

Squares are [row, col], 0-based (row 0 at the top); `label` names them "F4" (column A..P,
row 1..11). The actions `legal_actions` offers:

  {"type": "place_leader", "leader": "king"|"priest"|"farmer"|"trader", "at": [r, c]}
  {"type": "move_leader", "leader": ..., "at": [r, c]}
  {"type": "withdraw_leader", "leader": ...}
  {"type": "place_tile", "colour": "red"|"blue"|"green"|"black", "at": [r, c]}
  {"type": "place_catastrophe", "at": [r, c]}
  {"type": "swap", "tiles": ["red", "red", "green", ...]}
  {"type": "pass"}                              ends the turn before its second action
  {"type": "commit", "count": n}                attacker, then defender, in a revolt or war
  {"type": "choose_war", "leader": ...}         the active player picks the next war
  {"type": "build_monument", "monument": "red/black", "at": [r, c]}   top-left square
  {"type": "decline_monument"}
  {"type": "take_treasures", "at": [[r, c], ...]}   the trader's owner, all but one
  {"type": "standing", "decision": "support", "answer": "ask"|"never"}

Games of rules versions 1 and 2 say "color" for "colour" and "tiles" for "count"
(vocabulary.py); each decision asked of a player is one entry of decisions.py.
"""
from .board import label
from .game import TigrisRules

rules = TigrisRules()

__all__ = ["rules", "TigrisRules", "label"]
