"""A plugin whose import fails, as one built against another pbem might."""
from pbem.games.base import no_such_name  # noqa: F401  (an ImportError on purpose)

rules = None
