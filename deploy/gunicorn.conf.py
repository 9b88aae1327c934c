"""gunicorn settings for pbem, installed as /etc/pbem/gunicorn.conf.py (deploy/README.md):
`gunicorn -c /etc/pbem/gunicorn.conf.py 'pbem.app:create_app()'`."""
import gc
import multiprocessing
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")   # nginx proxies to this
workers = int(os.environ.get("PBEM_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# nginx must front gunicorn, and gunicorn must listen on loopback only (bind above): a worker
# is held by each connection until its whole request has arrived. With "sync" 8 clients that
# connect and send nothing stall 8 workers; "gthread" is no cure in gunicorn 27 (an accepted
# connection goes straight to a thread: 16 idle clients stalled a worker of 8 threads here).
# nginx buffers every request whole before it passes it on, so gunicorn only ever sees
# complete requests (deploy/nginx-pbem.conf).
worker_class = "sync"
timeout = 30
graceful_timeout = 20
max_requests = 2000            # recycle workers now and then
max_requests_jitter = 200
preload_app = False            # each worker opens its own database connection after the fork
forwarded_allow_ips = "127.0.0.1"
accesslog = "-"
errorlog = "-"
loglevel = "info"
# Turn, host and replay links carry their credential in the path: both logs redact it.
logger_class = "pbem.logs.GunicornLogger"


def post_worker_init(worker):
    """Once a worker has built the app, what it is made of (modules, routes, catalogues: about
    80,000 objects) lives as long as the worker: gc.freeze() takes it out of the garbage
    collector's sight. Python's full collection would otherwise walk all of it again every
    few hundred requests: about 0.3 ms a page on average (tests/bench/bench_pages.py)."""
    gc.freeze()
