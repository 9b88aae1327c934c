"""The app under gunicorn for benchmarks: the Duel test game and a bare "hello" route."""
import gc

from pbem.app import create_app
from pbem.games import register
from tests import toygame

register(toygame.rules)
app = create_app()
gc.freeze()         # as wsgi.py and deploy/gunicorn.conf.py do


@app.get("/hello")
def hello():
    return "hello"
