"""The WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py wsgi:app`."""
from pbem.app import create_app

app = create_app()
