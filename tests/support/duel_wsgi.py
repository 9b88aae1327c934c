"""The app under gunicorn, with the Duel test game registered (tests only)."""
from pbem.app import create_app
from pbem.games import register
from tests import toygame

register(toygame.rules)
app = create_app()
