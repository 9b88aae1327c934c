"""The web: turn pages and their JSON API, game pages, the host's pages."""
from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from . import api, dev, games, host, turn

    app.register_blueprint(turn.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(host.bp)
    if app.config["ENV"] == "development":
        app.register_blueprint(dev.bp)
