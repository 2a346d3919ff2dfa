"""No import cycle inside `mnemolint`, counting every import: module level, inside functions (lazy)
and under `TYPE_CHECKING`. A lazy import hides a cycle from Python, not from a newcomer."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SOURCE / "mnemolint"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [base]).strip(".")
                # `from mnemolint.fix import writer` imports the module `mnemolint.fix.writer`
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
                ]
            else:
                continue
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
                    graph[name].update(_packages_run_by(target, name, modules))
    return graph


def _packages_run_by(target: str, importer: str, modules: dict[str, Path]) -> set[str]:
    """Importing `a.b.c` first runs the `__init__` of `a` and `a.b`, unless the importer is inside
    them (then they are running already): `mnemolint` itself excepted, which imports nothing."""
    parts = target.split(".")
    packages = {".".join(parts[:end]) for end in range(2, len(parts))}
    return {package for package in packages if package in modules and not (importer + ".").startswith(package + ".")}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_lazy_and_type_only_imports_and_the_packages_they_run() -> None:
    graph = _graph()
    assert "mnemolint.engine" in graph["mnemolint.fix.fixer"]
    assert "mnemolint.cli" in graph["mnemolint.__main__"]
    assert "mnemolint.kinds" in graph["mnemolint.parse.document"]  # a type-only import of kinds.base
    assert "mnemolint.rules" not in graph["mnemolint.rules.index"]  # inside it: already running


def test_cycles_are_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []
