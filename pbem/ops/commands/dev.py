"""`pbem dev`: the development server with its mail catcher."""
from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext






@click.command("dev")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 0.0.0.0 lets a phone on the same network play.")
@click.option("--port", default=5000, help="The web server's port.")
@click.option("--smtp-port", default=None, type=int, help="The mail catcher port (default: PBEM_MAIL_PORT).")
@with_appcontext
def dev_command(host, port, smtp_port):
    """Development: migrate, then run the server, a local mail catcher and the mail worker."""
    from ..devmail import run_development
    run_development(current_app._get_current_object(), port, smtp_port, host=host)
