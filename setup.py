"""Only the package list lives here (pyproject.toml has the rest): every package under pbem/,
plus the root folders templates/ and migrations/ mapped into it by pyproject's package-dir."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["pbem", "pbem.*"]) + ["pbem.templates", "pbem.migrations"])
