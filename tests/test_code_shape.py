"""The code stays easy to read: no function in pbem/ over 60 lines, none with more than 10
parameters (a `pbem` command's options aside: click passes each option as one).

Read from the source, so it needs nothing installed; a function that grows past a limit fails
here with its file, line and size, to be split where it grew."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pbem"
MAX_LINES = 60
MAX_PARAMETERS = 10


def functions():
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(PACKAGE.parent), node


def parameters(node) -> int:
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    return len([n for n in names if n not in ("self", "cls")])


def is_command(node) -> bool:
    """Decorated as a click command (`@group.command(...)`, `@click.command(...)`)."""
    for decorator in node.decorator_list:
        call = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(call, ast.Attribute) and call.attr in ("command", "option"):
            return True
    return False


def test_no_function_over_60_lines():
    long = [f"{path}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path, node in functions() if node.end_lineno - node.lineno + 1 > MAX_LINES]
    assert not long, "functions over 60 lines:\n" + "\n".join(long)


def test_no_function_over_10_parameters():
    many = [f"{path}:{node.lineno} {node.name} ({parameters(node)} parameters)"
            for path, node in functions()
            if parameters(node) > MAX_PARAMETERS and not is_command(node)]
    assert not many, "functions over 10 parameters:\n" + "\n".join(many)


def test_the_limits_are_read_as_meant():
    source = "def f(self, a, b, *, c):\n    return a\n\n@games.command('x')\n@click.option('--y')\n" \
             "def g(a, b, c, d, e, f, h, i, j, k, l):\n    pass\n"
    found = {n.name: n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
    assert parameters(found["f"]) == 3 and not is_command(found["f"])
    assert parameters(found["g"]) == 11 and is_command(found["g"])
