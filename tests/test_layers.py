"""The layers import downward only: games <- log <- play <- present <- mail/web <- ops.

Read from the source (every import statement, those inside functions too: an import moved into
a function to dodge a cycle is still a cycle), so the test needs no database and fails on the
first module that imports against the direction.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pbem"

# lowest first; a module may import its own layer and the layers below it
LAYERS = {
    "": 0,            # pbem/__init__.py, config, errors, validate, package, logs: plain helpers
    "games": 1,       # pure rules engines
    "bots": 2,        # computer players: pure, on the engines' views
    "db": 3,          # models and connections
    "log": 4,         # the event log
    "play": 5,        # use cases
    "present": 6,     # read models and drawing
    "mail": 7,        # outbox rows -> messages, SMTP
    "web": 7,         # routes
    "ops": 8,         # the command line, checks, backup
    "app": 8,         # the application factory wires everything
}
TOP_MODULES = {"__init__", "config", "errors", "inputs", "validate", "package", "logs", "app",
               "outbound"}


# a game's folder holds more than its engine: its presenter draws it and its effects word what
# an action does (present), its computer player judges it (bots); every other module of the
# folder is the pure engine (games)
GAME_FOLDER_LAYERS = {"presenter": "present", "effects": "present", "computer": "bots"}


def layer_of(module: str) -> tuple[str, int]:
    """("play", 5) for "pbem.play.moves"; the helpers at the top of the package are layer 0."""
    parts = module.split(".")[1:]
    if not parts:
        return "", 0
    head = parts[0]
    if head == "games" and len(parts) == 3 and parts[-1] in GAME_FOLDER_LAYERS:
        head = GAME_FOLDER_LAYERS[parts[-1]]
    if head in LAYERS:
        return head, LAYERS[head]
    if head in TOP_MODULES:
        return "", 0
    raise AssertionError(f"{module} belongs to no layer: add its folder to LAYERS")


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        yield path, ".".join(parts), is_package


def imports_of(path: Path, module: str, is_package: bool):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "pbem":        # from pbem import x: x is a module, or a name of pbem's
                for alias in node.names:
                    is_module = (PACKAGE / f"{alias.name}.py").exists() or \
                        (PACKAGE / alias.name).is_dir()
                    yield node.lineno, f"pbem.{alias.name}" if is_module else "pbem"
            else:
                yield node.lineno, target


def app_layer(module: str) -> int:
    name = module.split(".")[1] if "." in module else ""
    return LAYERS["app"] if name == "app" else layer_of(module)[1]


MODULES = list(modules())


@pytest.mark.parametrize("path,module,is_package", MODULES, ids=[m for _p, m, _i in MODULES])
def test_imports_point_down(path, module, is_package):
    own = app_layer(module)
    wrong = []
    for line, target in imports_of(path, module, is_package):
        if target != "pbem" and not target.startswith("pbem."):
            continue
        if app_layer(target) > own:
            wrong.append(f"{path.name}:{line} imports {target} (layer {app_layer(target)} above "
                         f"{own})")
    assert not wrong, "\n".join(wrong)


def test_the_log_knows_no_mail_and_no_flask():
    for path in sorted((PACKAGE / "log").rglob("*.py")):
        source = path.read_text()
        for forbidden in ("flask", "render_template", "Outbox"):
            assert forbidden not in source, f"{path.name} mentions {forbidden}"


def test_routes_run_no_query():
    """pbem/web parses, calls one use case or read model, and renders: no models, no
    transactions, no queries."""
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                assert not (node.module or "").endswith(("db.models", "db.database", "db")), \
                    f"{path.name}:{node.lineno} imports {node.module}"
                assert "write_transaction" not in names, f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Attribute) and node.attr in (
                    "select", "where", "order_by", "get_or_none", "get_by_id", "execute",
                    "atomic", "for_update", "exists"):
                raise AssertionError(f"{path.name}:{node.lineno} runs a query (.{node.attr})")


@pytest.mark.parametrize("folder", ["ops", "mail", "play", "log", "present", "db"])
def test_nothing_beside_or_below_the_web_imports_it(folder):
    """The commands, the mail and everything under them use what the web uses from a layer
    both reach (pbem/inputs.py for the checks of outside input), never pbem/web itself."""
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts)
        for line, target in imports_of(path, module, path.name == "__init__.py"):
            assert not (target == "pbem.web" or target.startswith("pbem.web.")), \
                f"{path.relative_to(PACKAGE)}:{line} imports {target}"


def test_the_record_checker_imports_no_database():
    """`pbem games check` runs offline: pbem/log/check.py and what it imports (chain,
    importing) import nothing of pbem/db, directly or through another module of pbem."""
    seen, todo = set(), ["pbem.log.check"]
    paths = {module: (path, is_package) for path, module, is_package in MODULES}
    while todo:
        module = todo.pop()
        if module in seen or module not in paths:
            continue
        seen.add(module)
        path, is_package = paths[module]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                targets = [target] + [f"{target}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            for target in targets:
                assert not target.startswith("pbem.db"), f"{module} imports {target}"
                todo.append(target)
    assert {"pbem.log.chain", "pbem.log.importing"} <= seen


def import_graph() -> dict[str, set[str]]:
    """Each module of pbem -> the modules of pbem it imports (every import statement, those
    inside functions too; `from . import x` imports module x, `from .x import y` module x)."""
    known = {module: (path, is_package) for path, module, is_package in MODULES}
    graph = {}
    for module, (path, is_package) in known.items():
        graph[module] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level else []
                target = ".".join(base + ([node.module] if node.module else [])) \
                    if node.level else (node.module or "")
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in known else target
                           for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in known:      # a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without
    recursion): each is an import circle."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_import_circle():
    """No module of pbem imports, directly or through others, a module that imports it back:
    inside a layer too (a circle there is the same smell as one between layers)."""
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert "pbem.play.moves" in import_graph()["pbem.play.replies"]
