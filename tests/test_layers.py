"""The layers of the code, as docs/architecture.md draws them: a module imports only modules of
its own layer or of layers below it (imports inside functions count too), `dsl/` never imports
`interpreter/`, no two modules import each other through any chain, and no module (of the
code, the tests or the benchmarks) is over 1,000 lines."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"dsl": "referee.dsl", "interpreter": "referee.interpreter"}

# the layers, lowest first: a module may import its own layer and those before it
LAYERS = (
    ("referee.dsl",),
    ("referee.interpreter.runtime",),
    ("referee.interpreter.compile",),
    ("referee.interpreter.engine",),
    ("referee.interpreter.native",),
    ("referee.interpreter.tools",),
    ("referee.interpreter.play",),
    ("referee.interpreter.adapters",),
    ("referee.interpreter.cli", "referee.interpreter.lsp", "referee.interpreter.web"),
)
# the package itself (interpreter/__init__.py) only maps old module names to new ones
ABOVE_ALL = ("referee.interpreter",)

# import chains that still go round (each names its modules); none may be added
KNOWN_CYCLES: set = set()

# imports that still reach up a layer, to be taken away; none may be added
KNOWN_CROSSINGS: set = set()
# modules still over 1,000 lines (paths from the root), to be split by concept; none may be added
KNOWN_LONG: set = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts[0] = PACKAGES[parts[0]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict:
    return {module_name(p): p for top in PACKAGES for p in sorted((ROOT / top).rglob("*.py"))}


def imports(name: str, path: Path, known) -> set:
    """The project's modules that `name` imports, at the top or inside functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source)
    return {m for m in found if m in known and m != name}


def graph() -> dict:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(name: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if any(name == top or name.startswith(top + ".") for top in layer):
            return rank
    assert name in ABOVE_ALL, f"{name} is in no layer: add its folder to LAYERS"
    return len(LAYERS)


def cycles(edges: dict) -> list:
    """The strongly connected parts of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_every_module_imports_only_its_layer_and_those_below():
    wrong = [f"{name} imports {target}" for name, targets in graph().items() for target in sorted(targets)
             if name not in ABOVE_ALL and layer_of(target) > layer_of(name)]
    assert set(wrong) - KNOWN_CROSSINGS == set()
    assert KNOWN_CROSSINGS - set(wrong) == set(), "a known crossing is gone: take it out of KNOWN_CROSSINGS"


def test_no_import_cycle():
    found = set(cycles(graph()))
    assert found - KNOWN_CYCLES == set()
    assert KNOWN_CYCLES - found == set(), "a known cycle is gone: take it out of KNOWN_CYCLES"


def test_the_checker_finds_a_cycle_and_a_layer_crossing():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [frozenset({"a", "b", "c"})]
    assert layer_of("referee.interpreter.cli.main") > layer_of("referee.interpreter.engine.game")


def test_no_module_over_a_thousand_lines():
    """The code's modules, the tests' and the benchmarks'."""
    paths = [*modules().values(), *(p for top in ("tests", "benchmarks") for p in sorted((ROOT / top).rglob("*.py")))]
    long = {str(path.relative_to(ROOT)) for path in paths
            if len(path.read_text(encoding="utf-8").splitlines()) > 1000}
    assert long - KNOWN_LONG == set()
    assert KNOWN_LONG - long == set(), "a long module was split: take it out of KNOWN_LONG"
