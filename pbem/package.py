"""Where pbem finds its own files: templates and migrations ship inside the installed package
(pbem.templates, pbem.migrations in a wheel); a source checkout keeps them at its root."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def folder(name: str) -> Path:
    """pbem/<name> when installed from a wheel, else <checkout>/<name> (editable install)."""
    installed = PACKAGE / name
    if installed.is_dir() and any(installed.iterdir()):
        return installed
    checkout = PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise RuntimeError(f"pbem is installed without its {name}/ folder (looked in {installed} "
                       f"and {checkout}): reinstall it with pip install")
