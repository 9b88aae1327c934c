"""The game registry: `RULES[name]` is the rules engine of that game.

The games come from two places: every folder in pbem/games/ with an instance named `rules`
(the built-in ones: a game is one folder), and every installed distribution that declares an
entry point in the group `pbem.games` (`tinygame = "pbem_tinygame:rules"`), loaded as pytest
and Flask load their plugins. Both register the same way: the game's package is its folder,
whose `templates/`, `static/` and `translations/` join pbem's, and whose modules `presenter`
and `computer`, where they exist, draw the game and judge its positions (`part`). A plugin
that fails to load is left out with a warning naming it (`LEFT_OUT` keeps why, for `pbem
check`); pbem goes on without it.
"""
from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from .base import (GAME_PACKAGES, IllegalAction, Rules, add_translations, check_options,
                   why_not_rules)

ENTRY_POINT_GROUP = "pbem.games"
RULES: dict[str, Rules] = {}
FOLDERS: dict[str, Path] = {}       # game name -> the folder of its module (translations/, ...)
PACKAGES: dict[str, str] = {}       # game name -> the module that registered it (its package)
LEFT_OUT: dict[str, str] = {}       # entry point name -> why its game is not in RULES
log = logging.getLogger(__name__)


def register(rules: Rules, module: str | None = None) -> Rules:
    """Add a rules engine to the registry (tests register their own small games). The folder
    of `module` (default: the module that defines the engine's class) holds the game's own
    files: its `translations/` join the catalogues, its `templates/` and `static/` the pages'."""
    RULES[rules.name] = rules
    PACKAGES[rules.name] = module = module or type(rules).__module__
    FOLDERS[rules.name] = folder = module_folder(module)
    add_translations(folder / "translations")
    return rules


def part(name: str, module: str):
    """The module `module` ("presenter", "computer") of game `name`'s package, found the same
    way for a folder of pbem/games/ and a plugin's package; None when it has none (no such
    file, or the game is a plain module). An error inside the module is raised."""
    package = PACKAGES.get(name)
    if package is None:
        return None
    try:
        if importlib.util.find_spec(f"{package}.{module}") is None:
            return None
    except ModuleNotFoundError:         # the game is a module, not a package
        return None
    return importlib.import_module(f"{package}.{module}")


def module_folder(module_name: str) -> Path:
    """The folder of a module: a package's own folder, a plain module's parent."""
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    file = getattr(module, "__file__", None)
    return Path(file).resolve().parent if file else Path(next(iter(module.__path__))).resolve()


def register_plugin(point: EntryPoint) -> Rules | None:
    """Load and register the game an entry point names; None (and a warning) if it cannot."""
    try:
        rules = point.load()
        problem = why_not_rules(rules)
        if problem is None and rules.name != point.name:
            problem = f"its rules are named {rules.name!r}, not {point.name!r} as the entry point"
        if problem is None and rules.name in RULES:
            problem = f"the name {rules.name!r} is taken by {type(RULES[rules.name]).__module__}"
    except Exception as exc:        # a plugin's import may raise anything; pbem goes on
        problem = f"{type(exc).__name__}: {exc}"
    if problem is None:
        LEFT_OUT.pop(point.name, None)
        return register(rules, point.module)
    dist = f" (distribution {point.dist.name} {point.dist.version})" if point.dist else ""
    LEFT_OUT[point.name] = why = (f"the game {point.name!r} of entry point "
                                  f"'{point.name} = {point.value}'{dist} is left out: {problem}")
    log.warning("pbem: %s", why)
    return None


def _register_the_games() -> None:
    for name in GAME_PACKAGES:
        module = importlib.import_module(f"{__name__}.{name}")
        register(module.rules, module.__name__)
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        register_plugin(point)


_register_the_games()


__all__ = ["RULES", "FOLDERS", "LEFT_OUT", "PACKAGES", "IllegalAction", "Rules", "check_options",
           "part", "register"]
