"""The import graph of ScoreLens's own modules, grouped into rooms stacked bottom to top.

Run from the repository root: ``python scripts/import_graph.py``. It prints the rooms, every arrow that goes back up
(a module importing one in a higher room) and every cycle, among modules and among rooms; it exits with status 1
when there is a module cycle or an arrow back up other than :data:`INTENDED`. ``tests/contracts/test_layering.py`` checks the
same graph.

An import counts wherever it is written: at module level, inside a function (it runs on first call) or under
``if TYPE_CHECKING:`` (mypy reads it): each is a dependency a reader of the module has to follow. Imports by a
computed name (``importlib.import_module(f"...")``) are invisible here; the registry's discovery of families is one.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL = ("metrics", "rendering", "dashboard", "pages", "app.py")


@dataclass(frozen=True)
class Room:
    """A group of modules: those named ``prefix`` or below it, for each of ``prefixes``."""

    name: str
    prefixes: tuple[str, ...]

    def holds(self, module: str) -> int:
        """The length of the longest prefix naming ``module``, 0 when none does."""
        return max((len(p) for p in self.prefixes if module == p or module.startswith(p + ".")), default=0)


# Bottom to top: a room may import the rooms below it, never one above.
ROOMS = (
    Room("kernels", ("metrics.kernels",)),
    Room("core", ("metrics", "metrics.core")),
    Room("io", ("metrics.io",)),
    Room("families", ("metrics.families",)),
    Room("parallel", ("metrics.parallel",)),  # the local engine's rows, which the dask engine computes too
    Room("distributed", ("metrics.distributed",)),
    Room("evaluate", ("metrics.evaluate",)),  # picks the engine
    Room("annotations", ("metrics.annotations",)),  # human error annotations; their scores are metrics
    Room("stats", ("metrics.stats",)),
    Room("meta", ("metrics.meta",)),  # meta-evaluation: human scores and metrics, with the statistics' resampling
    Room("analysis", ("metrics.analysis",)),
    # errors by category and span agreement: annotations read with the statistics, buckets and metric evidence
    Room(
        "annotation analysis",
        tuple(f"metrics.annotations.{m}" for m in ("categories", "flags", "agreement", "analysis")),
    ),
    Room("reports", ("metrics.reports",)),
    Room("cli", ("metrics.cli",)),
    Room("rendering", ("rendering",)),
    Room("dashboard", ("dashboard",)),
    Room("pages", ("pages", "app")),
)

# The one arrow back up by design: the registry finds the families by importing them.
INTENDED = frozenset({("metrics.core.registry", "metrics.families")})


class Kind(str, Enum):
    """Where an import is written, so when it runs."""

    MODULE = "module"  # on import of the module
    FUNCTION = "function"  # on a call
    TYPING = "typing"  # never: ``if TYPE_CHECKING:``, for the type checker


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    kind: Kind


@dataclass(frozen=True)
class Graph:
    modules: Mapping[str, Path]
    edges: tuple[Edge, ...]

    def room(self, module: str) -> Room:
        best = max(ROOMS, key=lambda r: r.holds(module))
        if not best.holds(module):
            raise ValueError(f"{module} is in no room; add it to ROOMS in scripts/import_graph.py")
        return best

    def level(self, module: str) -> int:
        return ROOMS.index(self.room(module))

    def successors(self) -> dict[str, set[str]]:
        result: dict[str, set[str]] = {m: set() for m in self.modules}
        for edge in self.edges:
            result[edge.source].add(edge.target)
        return result

    def room_successors(self) -> dict[str, set[str]]:
        result: dict[str, set[str]] = {r.name: set() for r in ROOMS}
        for edge in self.edges:
            source, target = self.room(edge.source).name, self.room(edge.target).name
            if source != target:
                result[source].add(target)
        return result


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files(root: Path = ROOT) -> Iterator[Path]:
    for name in TOP_LEVEL:
        path = root / name
        if path.is_dir():
            yield from sorted(path.rglob("*.py"))
        elif path.is_file():
            yield path


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if not level:
        return module or ""
    parts = importer.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """``name`` or its longest prefix that is one of ``modules``."""
    parts = name.split(".")
    for stop in range(len(parts), 0, -1):
        candidate = ".".join(parts[:stop])
        if candidate in modules:
            return candidate
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, kind: Kind = Kind.MODULE) -> Iterator[tuple[ast.Import | ast.ImportFrom, Kind]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, kind
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _imports(node, Kind.FUNCTION if kind is Kind.MODULE else kind)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), Kind.TYPING)
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), kind)
        else:
            yield from _imports(node, kind)


def _targets(node: ast.Import | ast.ImportFrom, importer: str, path: Path) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = _absolute(node.module, node.level, importer, path.name == "__init__.py")
    for alias in node.names:
        yield f"{base}.{alias.name}"  # a submodule if there is one, else a name in ``base``: resolved by _known


def build(root: Path = ROOT) -> Graph:
    modules = {module_name(path, root): path for path in source_files(root)}
    edges = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, kind in _imports(tree):
            for target in dict.fromkeys(_targets(node, module, path)):
                known = _known(target, modules)
                if known is not None and known != module:
                    edges.append(Edge(module, known, node.lineno, kind))
    unique = {(e.source, e.target, e.kind): e for e in sorted(edges, key=lambda e: e.line, reverse=True)}
    return Graph(modules, tuple(sorted(unique.values(), key=lambda e: (e.source, e.line, e.target))))


def intended(edge: Edge) -> bool:
    return any(edge.source == s and (edge.target == t or edge.target.startswith(t + ".")) for s, t in INTENDED)


def arrows_back_up(graph: Graph) -> tuple[Edge, ...]:
    """Every import of a module in a higher room than the importer's."""
    return tuple(e for e in graph.edges if graph.level(e.target) > graph.level(e.source))


def components(successors: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in successors:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(successors[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(successors[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found)


def shortest_cycle(successors: Mapping[str, Iterable[str]], start: str) -> tuple[str, ...]:
    """A shortest path from ``start`` back to itself (``start`` first and last)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(successors[node]):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return (start, *reversed(path[:-1]), start) if node != start else (start, start)
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    raise ValueError(f"{start} is on no cycle")


def module_cycles(graph: Graph) -> list[list[str]]:
    return components(graph.successors())


def without_intended(graph: Graph) -> Graph:
    return Graph(graph.modules, tuple(e for e in graph.edges if not intended(e)))


def room_cycles(graph: Graph) -> list[list[str]]:
    return components(graph.room_successors())


def _cycle_lines(cycles: Sequence[Sequence[str]], successors: Mapping[str, Iterable[str]]) -> list[str]:
    return [f"  {{{', '.join(c)}}}, e.g. {' -> '.join(shortest_cycle(successors, c[0]))}" for c in cycles]


def report(graph: Graph) -> list[str]:
    """The rooms, the arrows back up and the cycles, as lines of text."""
    counts = {r.name: sum(graph.room(m) == r for m in graph.modules) for r in ROOMS}
    lines = [f"rooms, bottom to top ({len(ROOMS)}, {len(graph.modules)} modules, {len(graph.edges)} imports):"]
    lines += [
        f"  {k:2d} {r.name:<12} {counts[r.name]:3d} modules  {', '.join(r.prefixes)}" for k, r in enumerate(ROOMS)
    ]
    up = arrows_back_up(graph)
    pairs = {(graph.room(e.source).name, graph.room(e.target).name) for e in up}
    unintended = sum(not intended(e) for e in up)
    lines.append(f"\narrows back up: {len(up)} imports ({unintended} not intended), {len(pairs)} room pairs")
    for e in up:
        rooms = f"{graph.room(e.source).name} -> {graph.room(e.target).name}"
        mark = "  (intended)" if intended(e) else ""
        lines.append(f"  {rooms:<26} {e.source}:{e.line} -> {e.target} [{e.kind.value}]{mark}")
    cycles = module_cycles(graph)
    lines.append(f"\nmodule cycles: {len(cycles)} ({sum(len(c) for c in cycles)} modules)")
    lines += _cycle_lines(cycles, graph.successors())
    for label, kept in (("", graph), (", leaving out the intended arrow", without_intended(graph))):
        rooms_cycles = room_cycles(kept)
        lines.append(f"\nroom cycles{label}: {len(rooms_cycles)}")
        lines += _cycle_lines(rooms_cycles, kept.room_successors())
    return lines


def main(argv: Sequence[str] = ()) -> int:
    graph = build(Path(argv[0]).resolve() if argv else ROOT)
    print("\n".join(report(graph)))
    failed = module_cycles(graph) or any(not intended(e) for e in arrows_back_up(graph))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
