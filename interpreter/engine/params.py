"""What a loader may set: the player range and the typed params, their values checked."""
import re
from fractions import Fraction

from referee.dsl import ast
from referee.dsl.diagnostics import Diagnostic, did_you_mean
from referee.dsl.types import BOOL, FRACTION, INT, TEXT, written_type

from ..runtime.errors import RulesRuntimeError
from .labels import plain_label


def player_range(program):
    """(fewest, most) players of the game's header."""
    fields = [f for f in program.game.fields if isinstance(f, ast.PlayersField)]
    low = fields[0].low
    high = fields[0].high if fields[0].high is not None else low
    return low, high


class ParamValueError(RulesRuntimeError):
    """A typed param of the wrong type or outside its range (`given`: a value given when loading)."""

    def __init__(self, message, span, given):
        super().__init__(message, span)
        self.given = given


def typed_params(program) -> dict:
    """name -> declaration of the params declared with a type: those a loader may set."""
    return {d.node.name: d.node for d in program.declarations.values()
            if isinstance(d.node, ast.Param) and d.node.type is not None}


# a typed param's type -> the classes of its values, and what a value of it is in words
PARAM_CLASSES = {BOOL: (bool,), INT: (int,), FRACTION: (int, Fraction), TEXT: (str,)}
PARAM_WORDS = {BOOL: "true or false", INT: "a whole number (of at most 18 digits)",
               FRACTION: "a number such as 6, 6.5 or 13/2", TEXT: "a text"}
PARAM_INT = re.compile(r"[-+]?[0-9]{1,18}")
# a real param's value: a whole or decimal number (6.5) or a fraction (13/2), 18 digits at most
PARAM_REAL = re.compile(r"[-+]?(?=[0-9./]{1,20}$)[0-9]+(\.[0-9]+|/[0-9]*[1-9][0-9]*)?")


def param_values(program, params, here):
    """The values given for typed params ({name: int, bool, text, or as written: '8', 'true', '6.5'}) as
    (values, None), or (None, a diagnostic E603/E604) for a name that is no typed param or a
    value that is not of its type. Ranges are checked once the game's params are known."""
    declared = typed_params(program)
    values = {}
    for name, value in (params or {}).items():
        param = declared.get(name)
        if param is None:
            untyped = program.get(name)
            if isinstance(untyped, ast.Param):
                return None, Diagnostic("E603", f"param '{name}' has no type, so it cannot be set", untyped.span,
                                        f"declare it with a type to set it: 'param {name}: int = ...'")
            return None, Diagnostic("E603", f"unknown param '{name}'", here, did_you_mean(name, declared)
                                    or f"params that can be set: {', '.join(declared) or 'none'}")
        kind = written_type(param.type)
        if isinstance(value, str):
            text = value.strip()
            if kind == BOOL and text.lower() in ("true", "false"):
                value = text.lower() == "true"
            elif kind == INT and PARAM_INT.fullmatch(text):
                value = int(text)
            elif kind == FRACTION and PARAM_REAL.fullmatch(text):
                value = Fraction(text)
                value = int(value) if value.denominator == 1 else value
        if kind in PARAM_CLASSES and value.__class__ not in PARAM_CLASSES[kind]:
            shown = value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else plain_label(value)
            want = PARAM_WORDS[kind]
            return None, Diagnostic("E604", f"param '{name}' is {want}, not {str(shown)[:40]!r}", param.span)
        values[name] = value
    return values, None
