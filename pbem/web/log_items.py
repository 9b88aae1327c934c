"""The game log's lines as HTML list items, built in Python: a page shows up to 80 of them,
and a template loop over them cost a tenth of drawing a turn page."""
from __future__ import annotations

from markupsafe import Markup, escape


def log_items(lines) -> Markup:
    """`<li>`s of (event, text, new) lines, numbered by the event's seq; what is new to the
    reader marked."""
    marked = ' class="new"'
    return Markup("".join(f'<li value="{int(event.seq)}"{marked if new else ""}>{escape(text)}</li>'
                          for event, text, new in lines))


def init_app(app) -> None:
    app.add_template_filter(log_items)
