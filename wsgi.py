"""The WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py wsgi:app`."""
import gc

from pbem.app import create_app

app = create_app()
gc.freeze()     # the app lives as long as the worker: see post_worker_init in deploy/gunicorn.conf.py
