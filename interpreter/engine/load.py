"""load_game: read, check and compile a rules file into a Game, or the diagnostics why not."""
import os

from referee.dsl import ast
from referee.dsl.checks import check
from referee.dsl.diagnostics import Diagnostic, did_you_mean
from referee.dsl.program import Unreadable, load_program, refusal

from ..compile.module import is_compiled_module, opened
from ..runtime.errors import DeclarationError, RulesRuntimeError
from .game import Game
from .params import ParamValueError, param_values, player_range


def load_game(path, options=(), players=None, coverage=False, params=None, chance="sampled", texts=None,
              passes_off=(), checked=None):
    """Read, check and compile a rules file (with coverage: counting what its rule tags stand
    on; with params, {name: value}, the values of typed params; chance "explicit": shuffles and
    picks as chance nodes, see State.is_chance_node; texts: an editor's unsaved buffers, see
    load_program; passes_off: names of the compiler's passes to skip; checked: the file's Checked value, when
    made already). Returns (game or None, diagnostics, sources). A compiled module (a .py file
    `referee compile -o` wrote) loads as its rules with its settings, and its functions run."""
    module = None
    if "\0" in str(path):        # no file has this name, rules or compiled module: say so
        return None, [refusal(str(path), Unreadable("unreadable", "not a file name"))], {}
    if is_compiled_module(path):
        module, problem = opened(path, options, players, params)
        if problem is not None:
            return None, [problem], {}
        path, texts = module.rules_path, {os.path.realpath(file): text for file, text in module.rules.items()}
        options, players, params = module.options, module.players, module.params
        if (coverage, chance == "explicit") != (module.coverage, module.explicit_chance):
            module = None       # compiled otherwise: compiled again from its rules
    try:
        if checked is None:
            program, diagnostics, sources = load_program(path, texts=texts)
            if program is None or diagnostics:
                return None, diagnostics, sources
            checked = check(program, sources)
        program, sources, diagnostics = checked.program, checked.sources, checked.diagnostics
    except RecursionError:       # nesting deeper than the parser or the checker follows
        return None, [Diagnostic("E701", "this file nests expressions or blocks too deeply to read",
                                 ast.Span(str(path), 1, 1, 1, 1), "split the deepest expressions into functions")], {}
    if diagnostics:
        return None, diagnostics, sources
    here = program.game.span
    for option in options:
        declared = program.get(option)
        if not isinstance(declared, ast.Option):
            names = [d.node.name for d in program.declarations.values() if isinstance(d.node, ast.Option)]
            return None, [Diagnostic("E601", f"unknown option '{option}'", here,
                                     did_you_mean(option, names) or f"options of this game: {', '.join(names) or 'none'}")], sources
    low, high = player_range(program)
    if players is not None and not (low <= players <= high):
        return None, [Diagnostic("E602", f"this game is for {low}..{high} players, not {players}", here)], sources
    values, problem = param_values(program, params, here)
    if problem is not None:
        return None, [problem], sources
    try:
        game = Game(program, sources, options, players, coverage, values, chance, passes_off, checked, module)
    except ParamValueError as error:
        code = "E604" if error.given else "E701"
        return None, [Diagnostic(code, error.message, error.span)], sources
    except DeclarationError as error:
        return None, [Diagnostic(error.code, error.message, error.span, error.hint)], sources
    except RulesRuntimeError as error:
        span = error.span or here
        return None, [Diagnostic("E701", error.message, span)], sources
    except RecursionError:       # an expression nested deeper than the compiler follows
        return None, [Diagnostic("E701", "this file nests expressions or blocks too deeply to compile", here,
                                 "split the deepest expressions into functions")], sources
    return game, [], sources
