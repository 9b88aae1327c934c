"""The routes' `<int:...>` converter; the checks of numbers and JSON from outside are in
pbem/inputs.py, below the web and the commands alike."""
from __future__ import annotations

from werkzeug.routing import IntegerConverter

from ..inputs import MAX_INT


class BoundedInt(IntegerConverter):
    """`<int:...>` in routes: ASCII digits only, at most MAX_INT (larger ids are simply not
    found, never an OverflowError from the database)."""

    regex = r"[0-9]{1,10}"

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", MAX_INT)
        super().__init__(map, *args, **kwargs)
