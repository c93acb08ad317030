"""The checks of declarations: the sections, names and types, params and options, variables,
boards, the game's scores and returns."""
from __future__ import annotations

from .. import ast
from ..builtins import BUILTIN_TYPES, BUILTIN_VALUES, STDLIB_SIGNATURES, TYPE_WORDS
from ..checker import Checker
from ..diagnostics import did_you_mean
from ..limits import MAX_PLAYERS
from ..types import BOOL, FRACTION, INT, NONE, PLAYER, TEXT, UNKNOWN, Named, element_type, named_type


def check_sections(c: Checker):
    program = c.program
    # point at the first declaration of the file itself (not at a comment on line 1)
    own = [d.node.span for d in program.declarations.values() if d.node.span.file == program.path]
    own += [section.span for section in (program.game, program.flow) if section is not None
            and section.span.file == program.path]
    first = min(own, key=lambda span: (span.line, span.column), default=ast.Span(program.path, 1, 1, 1, 2))
    here = ast.Span(first.file, first.line, first.column, first.line, first.column + 1)
    if program.game is None:
        c.error("E401", "missing 'game' section", here, 'start the file with: game "Name" { players 2 }')
    else:
        players = [f for f in program.game.fields if isinstance(f, ast.PlayersField)]
        if not players:
            c.error("E401", "the game section does not say how many players", program.game.span,
                    "add e.g. 'players 2..4'")
        for field in players:
            high = field.high if field.high is not None else field.low
            if field.low < 1 or high < field.low:
                c.error("E408", f"players {field.low}..{high} is not a range of player counts", field.span)
            elif high > MAX_PLAYERS:
                c.error("E408", f"a game is for at most {MAX_PLAYERS} players, not {high}", field.span,
                        "see the limits in docs/language.md")
    if program.flow is None:
        at = program.game.span if program.game is not None else here
        c.error("E402", "missing 'flow' section: the game never asks anybody to move",
                ast.Span(at.file, at.line, at.column, at.line, at.column + 4),
                "say how turns go, e.g. flow { turns from 1 { play move } }")


def check_types_and_names(c: Checker):
    for name, declared in c.program.declarations.items():
        if isinstance(declared.node, ast.Action):
            continue           # actions have names of their own, used only by 'play'
        if name in STDLIB_SIGNATURES or name in BUILTIN_VALUES or name in BUILTIN_TYPES or name in TYPE_WORDS \
                or name == "can_play":
            what = ("a built-in name" if name in BUILTIN_VALUES else "a built-in type" if name in BUILTIN_TYPES
                    else "a word of the language" if name in TYPE_WORDS else "a standard function")
            c.error("E211", f"'{name}' is {what}: a declaration of that name would hide it",
                    declared.node.span, f"give it a name of its own (e.g. 'game_{name}')")
    seen_members = {}
    for enum in c.enums.values():
        for member in enum.members:
            if member in seen_members and seen_members[member] != enum.name:
                c.error("E201", f"'{member}' is a member of both {seen_members[member]} and {enum.name}", enum.span)
            seen_members[member] = enum.name
            # an action's name is used only by 'play' and can_play: it may be a member's too
            if member in c.program.declarations and not isinstance(c.program.declarations[member].node, ast.Action):
                # a built-in enum has no place in the file: the declaration is where to look
                built_in = enum.span.line < 1
                at = c.program.declarations[member].node.span if built_in else enum.span
                c.error("E201", f"enum member '{member}' has the name of a declaration", at,
                        f"'{member}' is a member of the built-in enum {enum.name}" if built_in else None)
    for component in c.components.values():
        if component.maximum is not None:
            t = c.expr(component.maximum, c.globals)
            if c.whole(t, component.maximum.span, "how many there may be") and t.without_none() not in (INT, UNKNOWN):
                c.error("E302", f"how many components of {component.name} there may be is a whole number, "
                                f"not {t.describe()}", component.maximum.span)
        for field in component.fields:
            c.type_name(field.type)
            if field.visibility not in (None, "owner", "public"):
                c.error("E409", f"an attribute is seen by everybody or only by its owner, not '{field.visibility}'",
                        field.span, "write 'owner' after its type, or nothing")
    for zone in c.zones.values():
        if zone.element_type not in c.components:
            c.error("E206", f"a zone holds components, and '{zone.element_type}' is not a component type",
                    zone.span, did_you_mean(zone.element_type, c.components))
        for domain in zone.index:
            c.require_collection(c.expr(domain, c.globals), domain)
    for var in c.vars.values():
        t = c.type_name(var.type)
        for domain in var.index:
            c.require_collection(c.expr(domain, c.globals), domain)
        if var.initial is not None:
            given = c.expr(var.initial, c.globals)
            c.fits(given, t, var.initial.span, f"'{var.name}' holds {t.describe()}, not {given.describe()}")
        elif not t.may_be_none() and t not in (INT, FRACTION, BOOL):
            # (a number starts at 0 and a bool at false; any other value would start at none)
            c.error("E303", f"'{var.name}' holds {t.describe()}, never none, but has no starting value", var.span,
                    "give it one, e.g. '= []'" if t.is_list() else
                    f"give it one ('= ...'), or write '{t}?' for a variable that starts at none")


def check_params_and_options(c: Checker):
    for param in c.params.values():
        given = c.expr(param.value, c.globals)
        if param.type is None:
            c.globals.names[param.name] = given
            continue
        # a typed param: its value may be given when the game is loaded (--param n=8)
        t = c.type_name(param.type)
        if t not in (INT, BOOL, FRACTION, TEXT, UNKNOWN):
            c.error("E212", f"a typed param is an int, a real, a bool or a text, not {t.describe()}", param.type.span,
                    "write 'param NAME: int in LOW..HIGH = VALUE', or leave the type out")
        elif param.low is not None and t != INT:
            c.error("E212", f"only an int param has a range, not {t.describe()}", param.low.span)
        for bound in (param.low, param.high):
            if bound is not None and not c.expr(bound, c.globals).is_whole():
                c.error("E302", "the bounds of a param's range are whole numbers", bound.span)
        if not given.fits(t):
            c.error("E303", f"'{param.name}' holds {t.describe()}, not {given.describe()}", param.value.span)
        c.globals.names[param.name] = t
    for option in c.options.values():
        for setting in option.settings:
            if setting.name not in c.params:
                c.error("E202", f"option '{option.name}' sets '{setting.name}', which is not a param", setting.span,
                        did_you_mean(setting.name, c.params))
            else:
                given, expected = c.expr(setting.value, c.globals), c.globals.names[setting.name]
                if not given.fits(expected) or (given == NONE and not expected.may_be_none()):
                    c.error("E303", f"option '{option.name}' sets '{setting.name}' to {given.describe()}, "
                                    f"but it holds {expected.describe()}", setting.value.span)


def check_var_ranges(c: Checker):
    """`var x: int in LOW..HIGH`: the bounds are known before the game starts (numbers and
    params), so that every value the variable may hold is known. Whether LOW <= HIGH and the
    initial value is inside is checked when the game is loaded, once the params are known."""
    for var in c.vars.values():
        if var.low is None:
            continue
        t = c.type_name(var.type)
        if t.without_none() != INT:
            c.error("E213", f"only an int variable has a range of values, not {t.describe()}", var.low.span,
                    f"write 'var {var.name}: int in LOW..HIGH', or leave the range out")
            continue
        for bound in (var.low, var.high):
            read = next((n.id for n in ast.walk(bound) if isinstance(n, ast.Name)
                         and n.id not in c.params and n.id != "num_players"), None)
            if read is not None:
                c.error("E213", f"the range of '{var.name}' must be known before the game starts, "
                                f"but it reads '{read}'", bound.span,
                        "write its bounds with numbers and params (param NAME = ...)")
            elif not c.expr(bound, c.globals).is_whole():
                c.error("E213", f"the bounds of the range of '{var.name}' are whole numbers", bound.span)


def check_owner_has_a_seat(c: Checker):
    """`owner` shows a zone's or a variable's entry to the seat of its Player index, `others`
    to every seat but that one: without one, nobody (everybody) would ever see it."""
    for kind, group in (("zone", c.zones.values()), ("variable", c.vars.values())):
        for declared in group:
            if declared.visibility not in ("owner", "others"):
                continue
            if any(element_type(c.expr(d, c.globals)).without_none() == PLAYER for d in declared.index):
                continue
            if declared.visibility == "owner":
                c.error("E417", f"{kind} '{declared.name}' is 'owner', but has no Player index: nobody would see it",
                        declared.span, f"index it by the players ({declared.name}[Player, ...]), or mark it 'hidden'")
            else:
                c.error("E418", f"{kind} '{declared.name}' is 'others', but has no Player index: no seat owns it, "
                                "so everybody would see it", declared.span,
                        f"index it by the players ({declared.name}[Player, ...]), or mark it 'public'")


def check_var_display(c: Checker):
    """`bookkeeping` and `status` say how the table shows a variable, never who sees it: a
    status variable is one value that every seat sees; a hidden one is shown nowhere."""
    for var in c.vars.values():
        if var.display == "status" and var.index:
            c.error("E214", f"'{var.name}' has indexes, but the status line shows one value", var.span,
                    "mark 'status' a variable without indexes (a round counter), or this one 'bookkeeping'")
        elif var.display == "status" and var.visibility != "public":
            c.error("E214", f"'{var.name}' is {var.visibility}, but the status line is what every seat sees",
                    var.span, "mark 'status' a public variable only")
        elif var.display == "bookkeeping" and var.visibility == "hidden":
            c.error("E214", f"'{var.name}' is hidden: no view shows it, so 'bookkeeping' changes nothing",
                    var.span, "leave out 'bookkeeping'")


def check_boards(c: Checker):
    for board in c.boards.values():
        shape = board.shape
        if isinstance(shape, ast.GridShape):
            for side in (shape.rows, shape.cols):
                t = c.expr(side, c.globals)
                if c.whole(t, side.span, "a grid's size") and not t.is_number():
                    c.error("E302", "a grid's size is a number", side.span)
            if shape.condition is not None:
                c.condition(shape.condition, c.globals.child(row=INT, col=INT), "which cells exist")
        elif isinstance(shape, ast.HexShape):
            # a legend gives each kind of cell constant attributes, of one type per attribute
            types = {}
            for init, t in c.legend(board.name)[1]:
                if t.without_none() not in LEGEND_TYPES and not (isinstance(t, Named) and t.name in c.enums):
                    c.error("E303", "a legend gives cells numbers, text, true/false or enum members, "
                                    f"not {t.describe()}", init.value.span)
                elif init.name in types and not t.fits(types[init.name]):
                    c.error("E303", f"'{init.name}' is {types[init.name].describe()} in another legend entry, "
                                    f"not {t.describe()}", init.value.span)
                else:
                    types.setdefault(init.name, t)


LEGEND_TYPES = (INT, BOOL, TEXT, NONE, UNKNOWN)
TEAM_TYPES = (INT, BOOL, TEXT, PLAYER)


def check_game_fields(c: Checker):
    if c.program.game is None:
        return
    for field in c.program.game.fields:
        if isinstance(field, ast.ScoreField):
            t = c.expr(field.expr, c.globals.child(**{field.player_name: PLAYER}))
            if not t.is_number():
                c.error("E302", f"a score is a number, but this is {t.describe()}", field.expr.span)
        if isinstance(field, ast.ReturnsField):
            t = c.expr(field.expr, c.globals.child(**{field.player_name: PLAYER}))
            if not t.is_number():
                c.error("E302", f"a player's return is a number, but this is {t.describe()}", field.expr.span)
        if isinstance(field, ast.TeamsField):
            t = c.expr(field.expr, c.globals.child(**{field.player_name: PLAYER}))
            if t.without_none() in TEAM_TYPES or named_type(t) in c.enums:
                c.team_type = t.without_none()
            else:
                c.error("E303", f"a player's team is an enum member, a number, a player, true/false or a text, "
                                f"not {t.describe()}", field.expr.span, "e.g. 'teams p: side[p]', with side an enum")
