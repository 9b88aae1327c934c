"""The web: turn pages and their JSON API, game pages, replays, the host's pages."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, request


def register_blueprints(app: Flask) -> None:
    from . import api, dev, games, host, replay, turn

    app.register_blueprint(turn.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(host.bp)
    if app.config["ENV"] == "development":
        app.register_blueprint(dev.bp)

    @app.context_processor
    def language_switch():
        return {"lang_url": lang_url}


def lang_url(code: str) -> str:
    """This page in another language: the same path and query, with ?lang= set."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in ("lang", "done")]
    return request.path + "?" + urlencode(args + [("lang", code)])
