"""Dependencies are pinned to tested ranges: every one has an upper bound, and what this
environment runs lies inside the ranges (so the suite that passed here tested them)."""
from __future__ import annotations

import tomllib
from importlib.metadata import version

import pytest
from packaging.requirements import Requirement

from tests.install.conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
REQUIREMENTS = [Requirement(raw) for raw in
                PROJECT["dependencies"] + PROJECT["optional-dependencies"]["postgres"]]


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_each_dependency_has_a_tested_range(requirement):
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in requirement.specifier), \
        f"{requirement} has no upper bound"
    assert requirement.specifier.contains(version(requirement.name), prereleases=True)
