"""The app under gunicorn with a route that fails under a token path, so a test can read
what Flask's error log says about it (tests only)."""
from pbem.app import create_app
from pbem.games import register
from tests import toygame

register(toygame.rules)
app = create_app()


@app.get("/turn/<token>/fail")
def fail(token):
    raise RuntimeError("a failure inside a turn route")
