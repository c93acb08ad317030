"""A game's whole random playout as Numba source, rendered from its checked rules: the setup,
the flow (turns, play, if, finish, the end by the scores), the actions' legal moves in the
engine's order (each action of a `play` in turn, its values in their domain's order, those
its `where` and its `require`s allow), their effects, the functions, the score and the returns.

The IR renderer (compile/render_native.py) does not yet cover the listings and the flow, so
this one goes from the checked syntax tree; it renders a part of the language and refuses the
rest with `NotNative` (the construct and its rules line): the caller then plays in Python.

The state is one int64 array `S`: each variable's cells at an offset (its index domains laid
out row-major), then the kernel's own slots (terminal, winners as a bit mask, error, stopped,
moves). Values are coded as in layout.py: ints as they are (INT_NONE: none), bools 0/1, seats
as numbers, cells by id and enum members by position (-1: none). A situation the kernel does
not reproduce exactly (a runtime error, a dead end, a value outside its coding) sets the error
slot: that game is then played again in Python, which gives its exact record.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, FRACTION, INT, PLAYER, TEXT, ListOf, MapOf, OptionalOf, SetOf, Type, element_type, named_type, written_type
from referee.dsl.visitor import Visitor

from .alike_source import AlikeSource
from .board_graph import GRAPH_FUNCTIONS, neighbour_loop
from .board_tables import BoardTables
from .chance_source import ChanceSource
from .created_source import CreatedSource
from .triggers_source import TriggersSource
from .maps_source import MAP_FUNCTIONS, MapsSource
from .trails_source import TRAIL_FUNCTIONS, TrailsSource
from .decisions_source import DecisionsSource
from .subsets_source import SubsetsSource
from .values_source import VALUE_FUNCTIONS, ValuesSource
from .value_sets_source import ValueSetsSource
from .fused_source import FusedSource
from .flow_source import ORDER_HELPERS, PICK_ITEM, STOPPED_AT_MOST, FlowSource
from .not_native import NotNative
from .ordered_texts import order_texts
from .guards_source import GuardsSource
from .lists_source import LIST_FUNCTIONS, ListsSource
from .listing_source import ListingSource
from .placed_listing_source import PlacedListingSource
from .recursion_heads import RecursionHeadsSource
from .repeats_source import RepeatsSource
from .ties_source import TiesSource
from .positions_source import PositionsSource
from .reals_source import RealsSource
from .var_slot import VarSlot
from .texts_source import TextsSource
from .list_vars_source import LIST_VAR_FUNCTIONS, ListVarsSource
from .cell_lists_source import CELL_LIST_FUNCTIONS, CellListsSource
from .nested_source import NESTED_FUNCTIONS, NestedListsSource
from .params_source import ParamsSource
from .teams_source import TeamsSource
from .words_source import WordsSource
from .zones_source import ZONE_FUNCTIONS, ZonesSource

INT_NONE = -(2 ** 63)
ARGUMENT_BITS = 10          # a move's code: action index * MOVE_BASE + each argument's code in 10 bits
MOVE_BASE = 1 << 40
MOST_MOVES = 1 << 16        # the legal moves a kernel lists at most (more: the game goes to Python)
SKIP = -1                   # the code of `skip`, a `play optional`'s move that plays nothing (its kind -1)
SLOTS = ("TERMINAL", "WINNERS", "ERROR", "STOPPED", "MOVES", "CURRENT", "RNG", "EXTRA")     # EXTRA: `again`


class Scope:
    """The rules' locals in scope -> their names in the kernel, in the order they were bound."""

    def __init__(self, names=None):
        self.names = dict(names or {})

    def child(self, **more) -> "Scope":
        return Scope({**self.names, **more})

    def params(self) -> str:
        return "".join(f", {v}" for v in self.names.values())


def untag(node):
    return ast.untag(node)[0]


class KernelSource(
    FusedSource, ValueSetsSource, MapsSource, TrailsSource, DecisionsSource, SubsetsSource, ValuesSource, ListingSource, PlacedListingSource,
    CellListsSource, NestedListsSource, RepeatsSource, TiesSource, ListVarsSource, RecursionHeadsSource, FlowSource, AlikeSource,
    ZonesSource, CreatedSource, TriggersSource, ChanceSource, ListsSource, TeamsSource, ParamsSource, GuardsSource, PositionsSource, WordsSource, RealsSource, TextsSource, Visitor
):
    """Renders the kernel module of one game (options, params and players already applied). A
    visitor of the expressions that have a native form (kinds: none required; the others raise
    NotNative, the fallback note)."""
    choice = "below(mt, n)"         # the draw of one of the n moves listed: the RandomBot's

    def __init__(self, game):
        self.game = game
        self.checked = game.compiler.checked
        self.program = game.program
        self.players = game.num_players
        self.defs: list[str] = []           # the module's functions, in order
        self.fresh_count = 0
        self.boards = BoardTables(game)
        self.find_recursion()
        self.actions = {a.name: (k, a) for k, a in enumerate(self.program.of_kind(ast.Action))}
        self.functions = {f.name: f for f in self.program.of_kind(ast.Function)}
        self.find_decisions()
        self.vars: dict[str, VarSlot] = {}
        self.list_params: dict[str, list] = {}     # (params_source.py)
        self.size = 0
        self.refuse_unhandled()
        order_texts(self)           # (ordered_texts.py: texts in a set coded in their order first)
        self.lay_out_vars()
        self.lay_out_zones()
        self.lay_out_texts()        # (texts_source.py: the room of texts made in play, if any)
        self.slots = {name: self.size + k for k, name in enumerate(SLOTS + self.extra_slots())}
        self.size += len(self.slots)

    # ---- what is refused whole ------------------------------------------------------------
    def refuse_unhandled(self) -> None:
        refused = {ast.Invariant: None, ast.Param: None}
        for declared in self.program.declarations.values():
            node = untag(declared.node if hasattr(declared, "node") else declared)
            for cls, what in refused.items():
                if isinstance(node, cls) and what is not None:
                    raise NotNative(f"{what} ({node.name}) have no native form yet", node.span)
        self.refuse_chance_nodes()          # (explicit chance: chance_source.py)
        for action in self.actions.values():
            if len(action[1].binders) * ARGUMENT_BITS > 40:
                raise NotNative("an action of more than four arguments", action[1].span)

    def lay_out_vars(self) -> None:
        from ..engine.views import index_values
        reference = self.game.new_initial_state(0)
        for name, (_, _, index_types, t) in self.game.var_meta.items():
            declared = self.program.get(name)
            axes = tuple(self.axis(t_k, index_values(reference, name, k, t_k), declared.span)
                         for k, t_k in enumerate(index_types))
            if isinstance(t.without_none(), (SetOf, MapOf)):       # (value_sets_source.py)
                self.lay_out_value_var(name, t, axes, declared.span)
                continue
            if isinstance(t.without_none(), ListOf):
                self.lay_out_list_var(name, t, axes, declared.span)
                continue
            if t == FRACTION:                                       # (reals_source.py)
                self.lay_out_real_var(name, axes, declared.span)
                continue
            default = self.code_of(self.game.var_defaults[name], t, declared.span)
            self.vars[name] = VarSlot(self.size, axes, t, default)
            cells = 1
            for _, size, _ in axes:
                cells *= size
            self.size += cells

    def axis(self, t: Type, values: list, span) -> tuple:
        """(the code of the first index, how many) of an index domain (of type t) of consecutive codes."""
        named = named_type(t)
        if named in self.game.enum_members:
            return (0, len(values), tuple(values))
        if t not in (PLAYER, INT) and named not in self.boards.geometries and named not in self.game.types.components:
            raise NotNative(f"a variable indexed by {t.text}", span)
        if not values or values != list(range(values[0], values[0] + len(values))):
            raise NotNative(f"a variable indexed by {t.text} values that do not follow each other", span)
        return (values[0], len(values), ())

    def code_of(self, value, t: Type, span) -> int:
        named = named_type(t)
        if t.without_none() == FRACTION:        # (reals are tuples: reals_source.py; none stored yet)
            raise NotNative(f"a stored value of type {t.text} (a variable, an attribute, a list's item)", span)
        if value is None:
            return INT_NONE if t.without_none() == INT else -1
        if named in self.game.enum_members:
            return self.game.enum_members[named].index(value)
        if value.__class__ in (int, bool):
            return int(value)
        if value.__class__ is str and t.without_none() == TEXT:
            return self.text_code(value)
        raise NotNative(f"a value of type {t.text} has no native coding", span)

    def none_of(self, t: Type) -> str:
        return str(INT_NONE) if t.without_none() == INT else "-1"

    def type_of(self, node) -> Type:
        found = self.checked.type_of(node)
        if found is None:
            raise NotNative(f"{type(node).__name__}: an expression the checker did not type", node.span)
        return found

    def fresh(self, prefix: str) -> str:
        self.fresh_count += 1
        return f"{prefix}{self.fresh_count}"

    # ---- the module -------------------------------------------------------------------------
    def render(self) -> str:
        self.procedures(Scope)
        self.triggers(Scope)
        self.teams(Scope)
        for fn in self.functions.values():
            self.function(fn)
        for name, (index, action) in self.actions.items():
            self.action(index, action)
        self.setup()
        self.flow()
        self.results()
        head = ["import numpy as np", "from numba import njit, types", "from numba.typed import List",
                "from referee.interpreter.native.bot_random import LANES, below, seed_group",
                "from referee.interpreter.native.kernel_helpers import board_at, between, contains, directions_of, has_line, has_line_word, kept, ray, seat_bit, toward, unowned",
                "from referee.interpreter.native.random_stream import below as game_below, mix, shuffle as shuffle_items",
                f"STATE_SIZE = {self.size}", f"MOST_MOVES = {MOST_MOVES}",
                f"ACTION_NAMES = {tuple(self.actions)!r}", f"PLAYERS = {self.players}", f"MOVE_BASE = {MOVE_BASE}",
                *(f"{name} = {slot}" for name, slot in self.slots.items()),
                *self.boards.constants(), *self.cell_tables(), *self.zones_constants(),
                *self.param_constants(), *self.text_constants()]
        return "\n".join(head) + "\n\n" + "\n\n".join(self.defs) + "\n"

    def define(self, header: str, body: list) -> None:
        self.defs.append(self.recursion_decorator() + "\n" + header + "\n" + "\n".join("    " + line for line in body or ["pass"]))

    def function(self, fn) -> None:
        for suffix in self.copies(fn.name):         # (one a depth, for a recursive function)
            scope = Scope({p.name: f"L_{p.name}" for p in fn.parameters})
            value = self.expr(fn.body, scope, self.known_type(fn.body, written_type(fn.result_type)))
            if self.heads.get(fn.name) == fn.name:
                self.define_head(fn, scope, value)
                continue
            self.define(f"def fn_{fn.name}{suffix}(S, cur{scope.params()}):", [f"return {value}"])

    def action(self, index: int, action) -> None:
        binders = action.binders
        names = [f"L_{b.name}" for b in binders]
        scope = Scope({b.name: name for b, name in zip(binders, names)})
        tests = [b.condition for b in binders if b.condition is not None]
        legal = [f"if not ({self.expr(t, scope, BOOL)}): return False" for t in tests]
        guard, apply, body, apply_scope = self.action_guard(action, scope)
        arguments = "".join(f", {name}" for name in names)
        self.define(f"def legal_{action.name}(S, cur{arguments}):", legal + guard + ["return True"])
        apply += self.block(body, apply_scope, flow=False)
        deciding = self.decision_arguments(action.name)       # (the decision's arrays, if it decides)
        self.define(f"def act_{action.name}(S, cur{arguments}{deciding}):", apply or ["pass"])
        if self.subsets_action(index, action, scope, deciding):
            return
        rows = any(self.over_rows(b) for b in binders)     # (an argument over a list of lists: nested_source.py)
        if not rows and self.placed_listing(index, action, names, Scope(), MOVE_BASE, ARGUMENT_BITS):
            self.run_move(action)   # (a leading let, a fixed inner filter: placed_listing_source.py)
            return
        # the moves of the action: its binders' domains nested, each test in its loop (listing_source.py)
        loop, legal = self.legal_loops(action, names, tests, Scope)
        coded = [self.argument_code(binder, name) for binder, name in zip(binders, names)]   # (nested_source.py)
        code = " + ".join([str(index * MOVE_BASE)] + [f"({name} << {ARGUMENT_BITS * k})" for k, name in enumerate(coded)])
        fits = " and ".join(f"0 <= {name} < {1 << ARGUMENT_BITS}" for name in coded) or "True"
        indent = "    " * len(binders)
        listed = [f"if {legal}:",
                  f"    if n >= MOST_MOVES or not ({fits}):", "        S[ERROR] = 1", "        return n"]
        alike = self.alike_moves(action.name, len(binders), ARGUMENT_BITS)
        before = []
        once = self.listed_once(action, code) if alike is None else None    # (values met twice: repeats_source.py)
        if once is not None:
            before, each = once
            listed += ["    " + line for line in each]
        elif alike is None:
            listed += [f"    buf[n] = {code}", "    n += 1"]
        else:                       # (moves of identical components are one move: alike_source.py)
            before, each = alike
            listed += [f"    code = {code}", *("    " + line for line in each)]
        self.define(f"def moves_{action.name}(S, cur, buf, start):",
                    ["n = start", *before] + loop + [indent + line for line in listed] + ["return n"])
        self.define(f"def any_{action.name}(S, cur):",
                    loop + [indent + f"if {legal}:", indent + "    return True",
                            "return False"])
        self.run_move(action)

    def run_move(self, action, suffix: str = "") -> None:
        """run_NAME(S, cur, move): the action played with the arguments its move's code holds
        (suffix: a copy of a trigger's level, triggers_source.py)."""
        names = [f"L_{b.name}" for b in action.binders]
        lines, decoded = self.argument_decoded(action.binders, names, ARGUMENT_BITS, Scope)
        deciding = self.decision_arguments(action.name)
        self.define(f"def run_{action.name}{suffix}(S, cur, move{deciding}):",
                    lines + [f"act_{action.name}{suffix}(S, cur{''.join(', ' + a for a in decoded)}{deciding})"])

    def domain_loop(self, binder, scope, var: str, changing: bool = False) -> tuple:
        """(the lines of a loop over a binder's domain, how many values it has at most)."""
        domain = untag(binder.domain)
        if isinstance(domain, ast.Name) and domain.id in self.boards.geometries:
            first, size = self.boards.range_of(domain.id)
            return [f"for {var} in range({first}, {first + size}):"], str(size)
        if isinstance(domain, ast.Name) and domain.id in self.game.enum_members:
            size = len(self.game.enum_members[domain.id])
            return [f"for {var} in range({size}):"], str(size)
        if isinstance(domain, ast.Name) and domain.id == "players" and domain.id not in scope.names:
            return [f"for {var} in range(1, PLAYERS + 1):"], "PLAYERS"
        if isinstance(domain, ast.Call) and domain.name == "reversed":
            return self.reversed_loop(domain, scope, var)
        if isinstance(domain, ast.Range):
            low, high = self.expr(domain.low, scope, INT), self.expr(domain.high, scope, INT)
            return [f"for {var} in range({low}, {high} + 1):"], f"max(0, {high} - {low} + 1)"
        zoned = self.zone_domain(domain, scope, var, copy=changing) or neighbour_loop(self, domain, scope, var)
        if zoned is not None:
            return zoned
        t = self.type_of(domain)
        if not isinstance(t.without_none(), ListOf):
            raise NotNative(f"a domain of type {t.text}", domain.span)
        return [f"items_{var} = {self.expr(domain, scope, t)}", f"for {var} in items_{var}:"], f"len(items_{var})"

    # ---- statements ------------------------------------------------------------------------
    def block(self, statements, scope, flow: bool) -> list:
        out = []
        for statement in statements:
            out += self.statement(untag(statement), scope, flow)
        return out

    def statement(self, node, scope, flow: bool) -> list:
        zoned = self.chance_statement(node, scope)         # (explicit chance: chance_source.py)
        zoned = self.zone_statement(node, scope) if zoned is None else zoned
        if zoned is not None:
            return zoned
        kind = type(node)
        if (kind is ast.Assign or kind is ast.Augment) and node.target.name in scope.names:
            return self.local_write(node, scope)
        listed = self.list_var_write(node, scope)
        listed = self.real_var_write(node, scope) if listed is None else listed
        if listed is not None:
            return listed
        if kind is ast.Assign or kind is ast.Augment:
            target = self.target(node.target, scope)
            slot = self.vars[node.target.name]
            value = self.expr(node.value, scope, slot.type)
            if kind is ast.Augment:
                op = node.op.rstrip("=")
                if op not in ("+", "-", "*"):
                    raise NotNative(f"the update {node.op}", node.span)
                value = f"S[i] {op} {value}"
            return [f"i = {target}", "if i < 0:", "    S[ERROR] = 1", "    return", f"S[i] = {value}"]
        if kind is ast.If:
            out = []
            branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
            for k, (condition, body) in enumerate(branches):
                out.append(f"{'if' if k == 0 else 'elif'} {self.expr(condition, scope, BOOL)}:")
                out += ["    " + line for line in (self.block(body, scope.child(), flow) or ["pass"])]
            if node.orelse:         # (a branch's lets are its own)
                out.append("else:")
                out += ["    " + line for line in (self.block(node.orelse, scope.child(), flow) or ["pass"])]
            return out
        if kind is ast.For:
            var = self.fresh("L_")
            loop, _ = self.domain_loop(node.binder, scope, var, changing=True)     # (its body may move them)
            inner = scope.child(**{node.binder.name: var})
            body = []
            if node.binder.condition is not None:
                body.append(f"if not ({self.expr(node.binder.condition, inner, BOOL)}): continue")
            body += self.block(node.body, inner, flow)
            return loop + ["    " + line for line in body or ["pass"]]
        if kind is ast.Let:
            value = self.expr(node.value, scope, self.type_of(node.value))     # (before its name is bound)
            var = self.fresh("L_")
            scope.names[node.name] = var
            return [f"{var} = {value}"]
        if kind is ast.Finish:
            mask = "0" if node.winners is None else self.winners_word(node.winners, scope)
            return ["S[TERMINAL] = 1", f"S[WINNERS] = {mask}", "return"]
        if kind is ast.Log:              # (the log is not played: it changes no move)
            return []
        if flow and kind is ast.Play:
            return self.play(node)
        if flow and kind is ast.Turns:
            return self.turns(node, scope)
        lines = self.flow_statement(node, scope, flow)
        if lines is None:
            lines = self.finish_statement(node, scope)
        if lines is None:
            lines = self.decision_statement(node, scope)
        if lines is not None:
            return lines
        raise NotNative(f"the statement {kind.__name__} has no native form yet", node.span)

    def target(self, target, scope) -> str:
        if not isinstance(target, ast.Target) or target.name not in self.vars:
            raise NotNative("a write to other than a variable", target.span)
        return self.var_index(target.name, target.indexes, scope, target.span)

    def var_index(self, name, indexes, scope, span, slot=None) -> str:
        """The position of a variable's cell in S (-1 when an index is none or outside)."""
        slot = self.vars[name] if slot is None else slot
        if len(indexes) != len(slot.axes):
            raise NotNative("a variable read with other indexes than declared", span)
        if not indexes:
            return str(slot.offset)
        parts = [self.expr(i, scope, self.type_of(i)) for i in indexes]
        sizes = [size for _, size, _ in slot.axes]
        positions = [f"({p}) - {first}" for p, (first, _, _) in zip(parts, slot.axes)]
        if len(parts) == 2:         # (no arrays made: a cell of two indexes is read at every turn)
            return f"cell_of2({slot.offset}, {positions[0]}, {sizes[0]}, {positions[1]}, {sizes[1]})"
        return f"cell_at({slot.offset}, np.array([{', '.join(positions)}]), np.array([{', '.join(map(str, sizes))}]))" \
            if len(parts) > 1 else f"cell_of({slot.offset}, {positions[0]}, {sizes[0]})"

    # ---- the flow ----------------------------------------------------------------------------
    def play(self, node) -> list:
        choose = self.listed_moves(node)
        applied = self.applied_move(node)
        if node.optional:           # (the engine's move `skip` last, where a move is legal: no effect, no trigger)
            choose += ["if n > 0:", "    if n >= MOST_MOVES:", "        S[ERROR] = 1", "        return",
                       f"    buf[n] = {SKIP}", "    n += 1"]
            indent = "    "
            applied = [f"if move != {SKIP}:", *("    " + line for line in applied)]
        else:
            choose += ["if n == 0:", "    S[ERROR] = 1", "    return"]
            indent = ""
        # (counted before it is played: the decisions inside its effect are the moves after it)
        apply = STOPPED_AT_MOST + self.chosen_move() + ["S[MOVES] += 1"] + applied
        apply += ["jumps = 0", "if S[TERMINAL] or S[ERROR] or S[STOPPED]:", "    return"]
        return choose + [indent + line for line in apply]

    def listed_moves(self, node) -> list:
        """The legal moves of a play into buf[:n], listed at max_moves too (then STOPPED_AT_MOST
        stops the game, unless none is legal: the dead end of the engine, which lists them as
        the move before it is played)."""
        for name in node.actions:
            if name not in self.actions:
                raise NotNative(f"play {name}", node.span)
        return [f"n = moves_{name}(S, cur, buf, {'0' if k == 0 else 'n'})" for k, name in enumerate(node.actions)]

    def chosen_move(self) -> list:
        """The policy's move among buf[:n] (the RandomBot's draw; verify's own in its kernel)."""
        return [f"move = buf[{self.choice}]", "kind = move // MOVE_BASE",
                "if len(T) > 1:                  # (analyze: each move's branching, action, seat)",
                "    at = 3 * S[MOVES]", "    if at + 3 > len(T):", "        S[ERROR] = 1", "        return",
                "    T[at], T[at + 1], T[at + 2] = n, kind, cur"]

    def applied_move(self, node) -> list:
        """The action of `move` (its kind) played by cur, then the triggers."""
        apply = []
        for name in node.actions:
            index = self.actions[name][0]
            apply += [f"if kind == {index}:", f"    run_{name}(S, cur, move{self.decision_arguments(name)})"]
        return apply + self.after_move()

    def turns(self, node, scope) -> list:
        seat = self.fresh("seat")
        start = self.expr(node.start, scope, PLAYER)
        until = self.expr(node.until, scope, BOOL) if node.until is not None else "False"
        body = self.block(node.body, scope, flow=True)
        return [f"{seat} = {start}", f"if {seat} < 1 or {seat} > PLAYERS:", "    S[ERROR] = 1", "    return",
                "while True:", f"    if {until}:", "        break", f"    cur = {seat}", f"    S[CURRENT] = {seat}",
                "    S[EXTRA] = 0", *("    " + line for line in body), *("    " + line for line in self.next_seat(seat)),
                *("    " + line for line in self.jumped())]

    def setup(self) -> None:
        lines = ["S[:] = 0", "S[CURRENT] = 1", *self.zones_setup(), *self.real_vars_setup()]
        for name, slot in self.vars.items():
            cells = 1
            for _, size, _ in slot.axes:
                cells *= size
            lines.append(f"S[{slot.offset}:{slot.offset + cells}] = {slot.default}")
        self.define("def setup(S, cur):", lines)
        setup = self.program.setup
        self.define(f"def setup_effects(S, cur{self.setup_arguments()}):",
                    self.block(setup.body, Scope(), flow=False) if setup is not None else [])

    def flow(self) -> None:
        flow = self.program.flow
        if flow is None:
            raise NotNative("a game with no flow")
        body = self.block(flow.body, Scope(), flow=True)
        self.define("def run_flow(S, mt, buf, max_moves, T):",
                    ["cur = S[CURRENT]", "jumps = 0", *body, "by_score(S)"])

    def results(self) -> None:
        score = returns = real_ends = None
        for field in self.program.game.fields:
            if isinstance(field, ast.ScoreField):
                score = field
            if isinstance(field, ast.ReturnsField):
                returns = field
        for name, field in (("score", score), ("returns", returns)):
            if field is None:
                self.define(f"def {name}_of(S, p):", ["return 0"])
                continue
            scope = Scope({field.player_name: "p"})
            t = self.type_of(field.expr)
            if name == "returns" and t == FRACTION:       # (the returns array holds float64)
                value = self.real_returns(field.expr, scope)
            elif name == "score" and t == FRACTION:       # (reals_source.py: ranked exactly)
                real_ends = self.real_scores(field, scope)
                continue
            elif t.without_none() != INT:
                raise NotNative(f"a {name} of type {t.text}", field.expr.span)
            else:
                value = self.expr(field.expr, scope, INT)
            self.define(f"def {name}_of(S, p):", ["cur = S[CURRENT]", f"return {value}"])
        ends = ["S[TERMINAL] = 1", "S[WINNERS] = 0"]
        if real_ends:
            ends += real_ends
        elif score is not None:
            ends += ["best = score_of(S, 1)", "for p in range(2, PLAYERS + 1):", "    best = max(best, score_of(S, p))",
                     f"if best == {INT_NONE}:", "    S[ERROR] = 1",
                     "for p in range(1, PLAYERS + 1):", "    if score_of(S, p) == best:", "        S[WINNERS] |= 1 << p"]
        self.define("def by_score(S):", ends)
        self.has_score, self.has_returns = score is not None, returns is not None

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, node, scope, want: Type) -> str:
        node = untag(node)
        if self.handler(type(node)) is None:
            raise NotNative(f"the expression {type(node).__name__} has no native form yet", node.span)
        real = self.real_hook(node, scope, want)        # (reals_source.py)
        return self.dispatch(node, scope, want) if real is None else real

    def visit_Integer(self, node, scope, want):
        return str(node.value)

    def visit_Boolean(self, node, scope, want):
        return "True" if node.value else "False"

    def visit_Nothing(self, node, scope, want):
        return self.none_of(want)

    def visit_Name(self, node, scope, want):
        name = node.id
        if name in scope.names:
            return scope.names[name]
        if name == "current":
            return "cur"
        if name == "num_players":
            return "PLAYERS"
        if name == "players":
            return "np.arange(1, PLAYERS + 1)"
        if name in self.game.params:
            return self.param_value(name, node)
        if name in self.game.types.options:
            return str(name in self.game.options)
        if name in self.vars and not self.vars[name].axes:
            return f"S[{self.vars[name].offset}]"
        for members in self.game.enum_members.values():
            if name in members:
                return str(members.index(name))
        items = self.zone_name(node, scope)
        if items is None:
            items = self.list_var_value(node, scope)
        if items is None and name in self.game.place_ids:      # (a place of a map: its id)
            items = str(self.game.place_ids[name])
        if items is not None:
            return items
        raise NotNative(f"the name {name} has no native form yet", node.span)

    def visit_Conditional(self, node, scope, want):
        t = self.known_type(node, want)
        if t.without_none() == INT and want is not None and want.without_none() == PLAYER:
            t = want        # (seats written as numbers, `1 : none` into a seat: none is a seat's -1)
        return (f"({self.expr(node.then, scope, t)} if {self.expr(node.condition, scope, BOOL)} "
                f"else {self.expr(node.otherwise, scope, t)})")

    def visit_And(self, node, scope, want):
        return f"({self.expr(node.left, scope, BOOL)} and {self.expr(node.right, scope, BOOL)})"

    def visit_Or(self, node, scope, want):
        return f"({self.expr(node.left, scope, BOOL)} or {self.expr(node.right, scope, BOOL)})"

    def visit_Not(self, node, scope, want):
        return f"(not {self.expr(node.operand, scope, BOOL)})"

    def visit_Compare(self, node, scope, want):
        compared = self.components_compared(node, scope)
        if compared is None:
            compared = self.texts_compared(node, scope)
        if compared is None:
            compared = self.lists_compared(node, scope)
        if compared is not None:
            return compared
        left, right = untag(node.left), untag(node.right)
        t = self.type_of(right) if isinstance(left, ast.Nothing) else self.type_of(left)
        if isinstance(left, ast.Nothing) or isinstance(right, ast.Nothing):
            other = right if isinstance(left, ast.Nothing) else left
            if node.op not in ("==", "!="):
                raise NotNative("an order with none", node.span)
            return f"({self.expr(other, scope, t)} {node.op} {self.none_of(t)})"
        if node.op not in ("==", "!=") and (isinstance(self.type_of(left), OptionalOf)
                                            or isinstance(self.type_of(right), OptionalOf)):
            return self.order_with_none(node, left, right, scope)
        if t.without_none() not in (INT, BOOL, PLAYER) and named_type(t) not in self.boards.geometries \
                and named_type(t) not in self.game.enum_members:
            raise NotNative(f"a comparison of {t.text}", node.span)
        return f"({self.expr(left, scope, t)} {node.op} {self.expr(right, scope, t)})"

    def visit_Binary(self, node, scope, want):
        worked = self.joined_lists(node, scope, want)
        worked = self.arithmetic(node, scope) if worked is None else worked
        if worked is not None:
            return worked
        if node.op not in ("+", "-", "*", "%") or self.type_of(node) != INT:
            raise NotNative(f"the operator {node.op} here", node.span)
        left, right = self.expr(node.left, scope, INT), self.expr(node.right, scope, INT)
        if isinstance(self.type_of(untag(node.left)), OptionalOf) or isinstance(self.type_of(untag(node.right)), OptionalOf):
            raise NotNative("arithmetic on a value that may be none", node.span)
        return f"({left} {node.op} {right})"

    def visit_Negate(self, node, scope, want):
        return f"(-{self.expr(node.operand, scope, INT)})"

    def visit_Subscript(self, node, scope, want):
        if self.is_zone(node, scope):
            return self.zone_items(node, scope)
        item = self.list_item(node, scope)
        if item is None:
            item = self.list_var_value(node, scope)
        item = self.zone_item(node, scope) if item is None else item
        if item is not None:
            return item
        obj = untag(node.obj)
        if not isinstance(obj, ast.Name) or obj.id not in self.vars or obj.id in scope.names:
            raise NotNative("an index into other than a variable", node.span)
        slot = self.vars[obj.id]
        return f"read(S, {self.var_index(obj.id, node.indexes, scope, node.span)}, {slot.default})"

    def visit_ListLiteral(self, node, scope, want):
        nested = self.nested_literal(node, scope, want)
        if nested is not None:
            return nested
        element = element_type(want) if isinstance(want.without_none(), ListOf) else element_type(self.type_of(node))
        items = ", ".join(self.expr(i, scope, element) for i in node.items)
        return f"np.array([{items}], dtype=np.int64)" if node.items else "np.empty(0, dtype=np.int64)"

    def visit_Member(self, node, scope, want):
        where = self.zone_member(node, scope)
        if where is not None:
            return where
        t = self.type_of(node.collection)
        return f"contains({self.expr(node.collection, scope, t)}, {self.expr(node.item, scope, element_type(t))})"

    def visit_NotMember(self, node, scope, want):
        return f"(not {self.visit_Member(node, scope, want)})"

    def visit_Call(self, node, scope, want):
        name, args = node.name, node.arguments
        texts = self.text_call(node, scope)         # (texts_source.py)
        if texts is not None:
            return texts
        if name in self.functions:
            values = [self.expr(a, scope, self.argument_type(name, k, a)) for k, a in enumerate(args)]
            suffix = self.callee_suffix(name)
            if suffix is None:
                return f"too_deep(S, {self.zero_of(self.type_of(node), node.span)})"
            return f"fn_{name}{suffix}(S, cur{''.join(', ' + v for v in values)})"
        if name in ("next", "previous") and len(args) == 1:
            p = self.expr(args[0], scope, PLAYER)
            return f"({p} % PLAYERS + 1)" if name == "next" else f"(({p} - 2) % PLAYERS + 1)"
        if name == "pick" and len(args) == 1 and isinstance(untag(args[0]), ast.Range):
            domain = untag(args[0])
            low, high = self.expr(domain.low, scope, INT), self.expr(domain.high, scope, INT)
            return f"pick_in(S, {low}, {high})"
        if name == "pick" and len(args) == 1:
            return self.pick_from(node, scope)
        if name == "can_play":
            action = untag(args[0])
            if not isinstance(action, ast.Name) or action.id not in self.actions:
                raise NotNative("can_play of other than an action", node.span)
            player = self.expr(args[1], scope, PLAYER) if len(args) > 1 else "cur"
            return f"any_{action.id}(S, {player})"
        valued = self.value_call(node, scope)
        if valued is not None:
            return valued
        zoned = self.zone_call(node, scope)
        if zoned is None:
            zoned = self.cell_list_call(node, scope)
        if zoned is None:
            zoned = self.word_call(node, scope)
        return zoned if zoned is not None else self.boards.call(self, node, scope)

    def visit_Aggregate(self, node, scope, want):
        """A function of its own over the binder's domain (its locals as arguments)."""
        kind, binder = node.kind, node.binder
        if self.makes_nested(node, want):
            return self.nested_aggregate(node, scope, want)
        name = self.fresh(f"agg_{kind}_")
        var = self.fresh("x")
        fused = self.fused_filter(binder.domain) if kind != "longest_trail" else None
        if fused is None:
            loop, capacity = self.domain_loop(binder, scope, var)
            given, test = {}, []
        else:                           # (a function's filter walked in place: fused_source.py)
            loop, capacity, given, test = self.fused_loop(fused, var, scope)
        inner = scope.child(**{binder.name: var})
        element = element_type(self.type_of(binder.domain)).without_none() \
            if not isinstance(untag(binder.domain), (ast.Name, ast.Range)) else None
        test += [f"if not ({self.expr(binder.condition, inner, BOOL)}): continue"] if binder.condition is not None else []
        value_type = self.type_of(node.value) if node.value is not None else (element or INT)
        value = self.expr(node.value, inner, value_type) if node.value is not None else var
        before, each, after = self.aggregate_parts(kind, value, var, node)
        if kind in ("filter", "map", "longest_trail"):           # (the list's room: the domain's size)
            loop = loop[:-1] + [f"out = np.empty({capacity}, dtype=np.int64)", *self.trail_room(kind, capacity)] + loop[-1:]
        body = before + loop + ["    " + line for line in test + each] + after
        self.define(f"def {name}(S, cur{scope.params()}{''.join(', ' + p for p in given.values())}):", body)
        arguments = self.fused_arguments(fused, binder.domain, scope) if fused is not None else []
        return f"{name}(S, cur{''.join(', ' + v for v in [*scope.names.values(), *arguments])})"

    def aggregate_parts(self, kind, value, var, node) -> tuple:
        if kind == "count":
            return ["n = 0"], ["n += 1"], ["return n"]
        if kind == "any":
            return [], [f"if {value}: return True" if node.value is not None else "return True"], ["return False"]
        if kind == "all":
            return [], [f"if not ({value}): return False"] if node.value is not None else [], ["return True"]
        if kind == "first":
            return [], [f"return {var}"], [f"return {self.none_of(self.type_of(node))}"]
        if kind == "sum" and self.type_of(node) == FRACTION:
            return self.real_sum_parts(value)
        if kind in ("min", "max") and self.type_of(node).without_none() == FRACTION:
            return self.real_best_parts(kind, value)
        if kind == "sum":
            return ["total = 0"], [f"total += {value}"], ["return total"]
        if kind == "min" and node.value is None and isinstance(untag(node.binder.domain), ast.Range):
            return [], [f"return {var}"], [f"return {INT_NONE}"]     # (ascending: the first one is the least)
        if kind in ("min", "max"):
            better = "<" if kind == "min" else ">"
            return [f"best = {INT_NONE}", "found = False"], \
                [f"v = {value}", f"if v == {self.none_of(self.type_of(node))}:", "    continue",
                 f"if not found or v {better} best:", "    best = v", "    found = True"], ["return best"]
        if kind in ("filter", "map"):
            return ["n = 0"], [f"out[n] = {value if kind == 'map' else var}", "n += 1"], ["return out[:n]"]
        if kind == "longest_trail":
            return self.trail_parts(value, var, node)
        raise NotNative(f"the aggregate {kind} has no native form yet", node.span)


def render(game) -> str:
    """The kernel module's source for a loaded game, or NotNative."""
    return module_source(KernelSource(game))


def module_source(source: KernelSource) -> str:
    """A rendered kernel with the helpers its functions call and its batch driver."""
    rendered = source.render()      # (first: what it renders says which helpers it needs)
    graph = GRAPH_FUNCTIONS if source.boards.grid else ""
    maps = MAP_FUNCTIONS if source.boards.maps or getattr(source, "compares_lists", False) else ""   # (same_items)
    maps += TRAIL_FUNCTIONS if "TRAIL_WORK" in source.slots else ""
    return (
        rendered + ZONE_FUNCTIONS + LIST_FUNCTIONS + LIST_VAR_FUNCTIONS + CELL_LIST_FUNCTIONS
        + NESTED_FUNCTIONS + VALUE_FUNCTIONS + source.value_functions() + source.real_functions() + source.text_functions() + graph + maps + driver(source) + source.recursion_compiles()
    )


def driver(source: KernelSource) -> str:
    """The batch entry: games of the given seeds played to their end, their results as arrays."""
    players = source.players
    return PICK_ITEM + ORDER_HELPERS + f'''
@njit
def pick_in(S, low, high):
    """pick(low..high): the game's own random stream (splitmix64), its state in S[RNG]."""
    if high < low:
        S[ERROR] = 1
        return low
    index, state = game_below(np.uint64(S[RNG]), high - low + 1)
    S[RNG] = np.int64(state)
    return low + index


@njit
def read(S, i, default):
    return S[i] if i >= 0 else default


@njit
def cell_of(offset, position, size):
    return offset + position if 0 <= position < size else -1


@njit
def cell_of2(offset, first, first_size, second, second_size):
    if not (0 <= first < first_size and 0 <= second < second_size):
        return -1
    return offset + first * second_size + second


@njit
def cell_at(offset, positions, sizes):
    at = 0
    for k in range(len(sizes)):
        if not 0 <= positions[k] < sizes[k]:
            return -1
        at = at * sizes[k] + positions[k]
    return offset + at


@njit
def winner_mask(players):
    mask = 0
    for p in players:
        if p < 1 or p > PLAYERS:
            return -1
        mask |= 1 << p
    return mask


@njit
def play_game(S, mt, buf, seed, max_moves, T):
    """The game of this seed from its setup (the game's random stream seeded with it), its moves
    drawn from mt."""
    setup(S, 1)
    S[RNG] = np.int64(mix(np.uint64(seed)))
    setup_effects(S, 1{source.setup_arguments()})
    if not S[ERROR] and not S[TERMINAL]{' and not S[STOPPED]' if source.setup_arguments() else ''}:
        run_flow(S, mt, buf, max_moves, T)
    if S[TERMINAL] and not S[ERROR]:
        mark_outcome(S)


@njit(cache=True)
def playouts(seeds, max_moves, T):
    """Per game: status (0 finished, 1 stopped at max_moves, 2 to play again in Python), its
    length, its winners as a bit mask, and each seat's score and return. T: an array of one,
    or (analyze, one game a call) of 3 per move, where each move's number of legal moves, action
    and seat are written."""
    games = len(seeds)
    status = np.zeros(games, dtype=np.int64)
    length = np.zeros(games, dtype=np.int64)
    winners = np.zeros(games, dtype=np.int64)
    scores = np.zeros((games, {players}), dtype=np.{source.score_dtype()})
    returns = np.zeros((games, {players}), dtype=np.float64)
    owned_state = np.zeros(STATE_SIZE, dtype=np.int64)
    owned_buf = np.empty(MOST_MOVES, dtype=np.int64)
    S, buf = unowned(owned_state), unowned(owned_buf)      # (not reference-counted: unowned)
    mts = np.empty((LANES, 626), dtype=np.uint64)
    for g in range(games):
        if g % LANES == 0:          # (the RandomBot's generators, LANES seeded at once)
            seed_group(mts, seeds, g)
        mt = mts[g % LANES]
        play_game(S, mt, buf, seeds[g], max_moves, T)
        length[g] = S[MOVES]
        winners[g] = S[WINNERS]
        if S[ERROR] or S[WINNERS] < 0:
            status[g] = 2
        elif S[STOPPED]:
            status[g] = 1
        else:
            for p in range(1, PLAYERS + 1):
                scores[g, p - 1] = score_of(S, p)
                returns[g, p - 1] = returns_of(S, p)
                if scores[g, p - 1] == {INT_NONE} or returns[g, p - 1] == {INT_NONE}:
                    status[g] = 2
    kept(owned_state, owned_buf)
    return status, length, winners, scores, returns
'''
