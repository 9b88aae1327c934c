"""GET /health: the health report as JSON, 200 when healthy and 503 otherwise (no secrets)."""
from __future__ import annotations

from flask import Blueprint, jsonify

from ..play import health

bp = Blueprint("health", __name__)


@bp.get("/health")
def show():
    result = health.report()
    response = jsonify(result)
    response.status_code = 200 if result["status"] == "ok" else 503
    return response
