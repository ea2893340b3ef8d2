"""The import graph of services/ and shared/, read with `ast`: no import circle, and
every arrow points down the layers (a module imports only its own layer or a lower
one), with the process packages (api, projector, worker) never importing each other.

Run as a script (`python -m tests.unit.test_import_layers`) it prints the graph's
summary: modules, arrows, arrows between layers."""

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "services")
# Lowest first. A module belongs to the longest prefix listed.
LAYERS = [
    ("rules", ["shared.games"]),
    ("shared", ["shared"]),
    ("ops", ["services.ops"]),  # metrics, logs, health, RQ workers' clock: of every process
    ("core", ["services.game", "services.deps", "services.embedded_redis"]),
    ("webhooks", ["services.webhooks"]),  # subscriptions, fan-out, deliveries
    ("processes", ["services.api", "services.projector", "services.worker", "services.matchmaker"]),
    ("commands", ["services"]),  # cli, run, replay, tournament: over everything
]
# Packages of one layer that must not import each other.
APART = ["services.api", "services.projector", "services.worker", "services.matchmaker"]


def modules():
    """{dotted name: path} of every module under PACKAGES."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name, path, known):
    """The modules of `known` that module `name` imports (at any depth of its code)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # `from a import b`: the module a.b if there is one, else (a name in) a
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph():
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def _owner(name, prefixes):
    matches = [p for p in prefixes if name == p or name.startswith(p + ".")]
    return max(matches, key=len) if matches else None


def layer(name):
    """(index, prefix) of the layer `name` belongs to."""
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        prefix = _owner(name, prefixes)
        if prefix and (best is None or len(prefix) > len(best[1])):
            best = (index, prefix)
    return best


def circles(arrows):
    """Every strongly connected set of more than one module (Tarjan), as sorted lists."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in arrows.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return found


def upward(arrows):
    """Arrows that point to a higher layer, or between two packages kept APART."""
    wrong = []
    for source, targets in sorted(arrows.items()):
        (low, _), apart = layer(source), _owner(source, APART)
        for target in sorted(targets):
            if layer(target)[0] > low:
                wrong.append((source, target, "up"))
            elif apart and _owner(target, APART) not in (None, apart):
                wrong.append((source, target, "across"))
    return wrong


def test_there_is_no_import_circle():
    assert circles(graph()) == []


def test_every_import_points_down_the_layers():
    assert upward(graph()) == []


def test_the_layers_hold_every_module():
    assert [name for name in graph() if layer(name) is None] == []


def main():
    arrows = graph()
    between = Counter()
    for source, targets in arrows.items():
        for target in targets:
            between[(LAYERS[layer(source)[0]][0], LAYERS[layer(target)[0]][0])] += 1
    print(f"{len(arrows)} modules, {sum(map(len, arrows.values()))} arrows")
    print("layers, lowest first: " + " < ".join(name for name, _ in LAYERS))
    for (source, target), count in sorted(between.items()):
        print(f"  {source:>9} -> {target:<9} {count}")
    print(f"circles: {circles(arrows) or 'none'}")
    print(f"arrows up or across: {upward(arrows) or 'none'}")


if __name__ == "__main__":
    main()
