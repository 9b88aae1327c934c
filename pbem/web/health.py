"""GET /health: the health report as JSON, 200 when it finds no problem and 503 otherwise (its
notes change nothing; `pbem check` exits 1 on the same problems); no secrets."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from ..play import health

bp = Blueprint("health", __name__)


@bp.get("/health")
def show():
    result = health.report(current_app.config)
    response = jsonify(result)
    response.status_code = 200 if result["status"] == "ok" else 503
    return response
