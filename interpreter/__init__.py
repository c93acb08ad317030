"""The interpreter, in layers (each imports only those before it; tests/test_layers.py checks):

    runtime/    what generated code calls, one surface (runtime/__init__.py's __all__): values,
                chance, located checks, writes, steps, errors, numbers, zone rows, stdlib
    compile/    a checked program -> one generated Python module per (options, players, params)
    engine/     Game and State over a compiled module: load_game, moves, views, coverage sites
    tools/      verify, the leak finder, coverage reports, logs, analyze; reports as values
    play/       bots, simulation, worker pools, clusters, tournaments
    adapters/   OpenSpiel and PettingZoo
    cli/ lsp/   the command line and the language server

Modules of the flat layout before it (`referee.interpreter.openspiel_game`, ...) are found
under their old names still: MOVED maps each to its new place.
"""
import importlib
import importlib.abc
import importlib.util
import sys

MOVED = {
    "errors": "runtime.errors", "exact": "runtime.exact", "random_source": "runtime.random_source",
    "stdlib": "runtime.stdlib", "boards": "runtime.boards", "zone_rows": "runtime.zone_rows",
    "maintained": "runtime.maintained",
    "compiler": "compile.compiler", "codegen": "compile.codegen", "work": "compile.work",
    "render": "engine.render",
    "leaks": "tools.leaks", "verify": "tools.verify", "coverage": "tools.coverage",
    "gamelog": "tools.gamelog", "analyze": "tools.analyze",
    "bots": "play.bots", "determinize": "play.determinize", "parallel": "play.parallel",
    "cluster": "play.cluster", "tournament": "play.tournament",
    "action_space": "adapters.action_space", "openspiel_game": "adapters.openspiel_game",
    "pettingzoo_env": "adapters.pettingzoo_env",
    "console": "cli.console", "colour": "cli.colour", "progress": "cli.progress",
    "completion": "cli.completion",
}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `referee.interpreter.<old name>` as the module now at its new place (the same
    module object, so that classes and functions are the same under both names)."""

    def __init__(self):
        self.own_specs = {}

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(f"{__name__}.{MOVED[spec.name.rpartition('.')[2]]}")
        sys.modules[spec.name] = module
        self.own_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        # the import system gave the module the old name's spec: it keeps its own
        module.__spec__ = self.own_specs[module.__spec__.name]


if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(MovedModules())
