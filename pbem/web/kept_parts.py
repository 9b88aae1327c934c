"""Parts of a page that depend on nothing but the language and a few flags — a board's key,
its SVG symbols — rendered once per process rather than on every page: `{{ kept_part(name,
presenter, flag=...) }}` in a template. The template object is part of what is kept, so an
edited template (the development server reloads them) is rendered again."""
from __future__ import annotations

import threading

from flask import current_app
from markupsafe import Markup

from ..games.base import current_language

_kept: dict[tuple, tuple[object, Markup]] = {}
_lock = threading.Lock()


def kept_part(name: str, presenter=None, **flags) -> Markup:
    """The template `name` rendered with only `presenter` and `flags` (and the globals)."""
    template = current_app.jinja_env.get_template(name)
    key = (name, current_language(), getattr(presenter, "name", None),
           tuple(sorted(flags.items())))
    found = _kept.get(key)
    if found is not None and found[0] is template:
        return found[1]
    markup = Markup(template.render(presenter=presenter, **flags))
    with _lock:
        _kept[key] = (template, markup)
    return markup


def init_app(app) -> None:
    app.jinja_env.globals["kept_part"] = kept_part
