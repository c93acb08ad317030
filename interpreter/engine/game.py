"""Games and states: the OpenSpiel-like interface every tool (CLI, bots, tests) goes through.

A `Game` is a checked program compiled for one choice of options and one player count.
A `State` is one position: `current_player`, `legal_moves`, `apply`, `is_terminal`,
`returns`, `view(player)`, `clone`. Randomness comes only from the seed given at the start.
"""
from __future__ import annotations

import itertools
import os
import re
from fractions import Fraction
from functools import partial
from operator import itemgetter
from typing import Iterable, Optional

import attrs

from referee.dsl import ast
from referee.dsl.builtins import BUILTIN_ENUMS
from referee.dsl.checker import ANY, PLACEHOLDER_TEXT, check, element_of, strip_optional
from referee.dsl.diagnostics import Diagnostic, did_you_mean
from referee.dsl.limits import MAX_BOARD_CELLS, MAX_STEP_ROUNDS, MAX_STEP_WORK
from referee.dsl.program import load_program

from ..runtime import random_source
from ..runtime import stdlib
from ..runtime.boards import build_geometry, grid_cells, hex_cells
from ..compile.compiler import PUBLIC, Compiler, names_in
from ..runtime import (CHANCE, LOOP_CAP, RuleText, entity_labeler, list_labeler, plain_label, plain_labeler,
                       player_labeler, seat, seen_labeler)
from ..runtime.values import same_value
from ..runtime.writes import entity_column_value
from ..compile.codegen import Context
from ..compile.module import is_compiled_module, opened
from .coverage import Coverage
from ..runtime.errors import DeadEnd, DeclarationError, Finished, IllegalMove, NeedChoice, RulesRuntimeError, SameNamedMoves
from ..runtime.zone_rows import canonical_key

TERMINAL = 0
SKIP = "skip"
LABEL_OF = itemgetter("__label__")      # a component's label (its entity's)


class Move:
    """One legal move: an action with its arguments, a choice among options, or a skip.
    Its text name is made on first use: a random playout names only the moves it plays."""
    __slots__ = ("kind", "action", "args", "_name", "_state", "owner")

    def __init__(self, kind, action, args, name, state=None, owner=None):
        self.kind, self.action, self.args, self._name, self._state = kind, action, args, name, state
        # the segments of the MoveList it came from: applying it needs no search (not the list
        # itself, which holds its moves: a cycle would outlive every move's list until the
        # garbage collector ran, with all the argument tuples listed)
        self.owner = owner

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = move_name(self._state, self.action, self.args)
            self._state = None
        return self._name

    def __repr__(self):
        return f"Move({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Move) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


CHOICE_SEGMENT = -1      # (the action index of a MoveList segment that holds a choice's options)


class MoveList:
    """The legal moves of a state, in their stable order. The enumerators' argument tuples are
    kept as they are; a Move object is made only for a move that is looked at."""
    __slots__ = ("state", "segments", "length", "made")

    def __init__(self, state, segments):
        # segments: (action index, argument tuples, names or None), (CHOICE, option tuples (i,),
        # names) or (None, Move objects, None) for a skip
        self.state = state
        self.segments = segments
        length = 0
        for segment in segments:
            length += len(segment[1])
        self.length = length
        self.made = None

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        if i.__class__ is not int:
            if isinstance(i, slice):
                return [self[k] for k in range(*i.indices(self.length))]
            i = i.__index__()
        if i < 0:
            i += self.length
        if not 0 <= i < self.length:
            raise IndexError("move index out of range")
        made = self.made
        if made is None:
            made = self.made = {}        # index -> Move: a playout looks at one or two
        move = made.get(i)
        if move is None:
            k = i
            for index, items, names in self.segments:
                if k < len(items):
                    break
                k -= len(items)
            # (the loop always breaks: 0 <= i < length)
            if index is CHOICE_SEGMENT:
                move = Move("choice", -1, items[k], names[k], None, self.segments)
            elif index is None:
                move = items[k]
                move = Move(move.kind, move.action, move.args, move._name, move._state, self.segments)
            else:
                move = Move("action", index, items[k], names[k] if names is not None else None, self.state, self.segments)
            made[i] = move
        return move

    def __iter__(self):
        for i in range(self.length):
            yield self[i]

    def __contains__(self, move):
        return any(m == move for m in self)

    def index(self, move):
        for i, m in enumerate(self):
            if m == move:
                return i
        raise ValueError(f"{move!r} is not a legal move")

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return f"MoveList({list(self)!r})"


@attrs.define
class Pending:
    """A step stopped at a choice. The state that stopped (`owner`) goes on by sending the
    chosen option to `steps`, the step's generator, which resumes where it stopped. A clone
    of it replays instead: `runner` on a copy of `snapshot` with the `choices` made so far."""
    snapshot: object
    runner: object
    may_choose: bool
    choices: tuple
    names: list
    chooser: int
    prompt: str
    public_names: Optional[list] = None     # the options as the other players see them
    weights: Optional[list] = None          # at a chance node: how likely each option is (relative)
    steps: object = attrs.field(default=None, eq=False)   # the stopped generator (resumed once, by its owner)
    owner: object = attrs.field(default=None, eq=False)
    current: int = attrs.field(default=None, eq=False)     # whose turn it was when the step stopped


PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Game:
    def __init__(self, program, sources, options: Iterable[str] = (), num_players: Optional[int] = None,
                 coverage: bool = False, params: Optional[dict] = None, chance: str = "sampled", module=None):
        if chance not in ("sampled", "explicit"):
            raise ValueError(f"chance is 'sampled' or 'explicit', not {chance!r}")
        # sampled: every random draw comes from the state's seeded source, inside the effects;
        # explicit: a shuffle or a pick stops at a chance node (current_player() == CHANCE)
        self.explicit_chance = chance == "explicit"
        self.program = program
        self.sources = sources
        self.path = program.path
        self.title = program.game.title
        low, high = self.player_range = player_range(program)
        self.num_players = num_players if num_players is not None else low
        self.options = frozenset(options)
        # typed params given when loading (name -> int or bool), in file order
        self.given_params = {name: params[name] for name in typed_params(program) if name in (params or {})}
        self.seats = list(range(1, self.num_players + 1))
        self.enum_members = {name: list(members) for name, members in BUILTIN_ENUMS.items()}
        self.enum_members.update({e.name: list(e.members) for e in program.of_kind(ast.Enum)})
        self.memo_owner = [None]       # the state whose values the cached functions hold
        self.boards = stdlib.Boards()      # (filled by the declarations: geometries, and by cell)
        self.board_functions = self.boards.functions
        self.cell_columns = {}
        self.column_index = {}         # component attribute -> its column in State.columns
        self.key_marks = {}            # zone key -> key_mark(game, key), once known
        self.setup_base = None         # the state the setup's part that draws nothing makes
        self.created = {}              # a created component's values -> its labels and signature
        # a signature (what makes two components identical) -> its number in the signature
        # column: a small negative int, hashed at once where a tuple of every attribute would
        # be hashed whole on each test (never a component's own number, which is >= 0)
        self.signature_numbers = {}
        self.line_spans = {}           # generated function's file name -> {line: span of the rules}
        self.move_names = {}           # the labels of all components -> {(action, args): name}
        self.params = {}
        self.var_defaults = {}
        self.var_ranges = {}           # variable -> (low, high) of its declared range (`int in 1..6`)
        self.geometries = self.boards.geometries
        self.geometry_by_cell = self.boards.geometry_by_cell
        self.static_entities = []
        self.static_by_type = {}
        self.label_templates = {}
        self.score = None
        self.declared_returns = None   # f(s, p) of `returns p: EXPR`, when the header has it
        returns_field = next((f for f in program.game.fields if isinstance(f, ast.ReturnsField)), None)
        self.returns_span = returns_field.span if returns_field is not None else None
        # with coverage, the generated code counts what the rule tags stand on (coverage.py)
        self.coverage = Coverage(program, sources) if coverage else None
        # (module: a compiled module of these rules and settings, whose functions run: module.py)
        compiler = Compiler(program, self, sources, module)
        self.types = compiler.types
        self._setup_declarations(compiler)
        compiler.codegen.namespace.update(
            run_step=run_step, effect_runner=effect_runner, filtered_domain=filtered_domain,
            flow_runs_on=flow_runs_on, dead_end=dead_end, simultaneous_step=simultaneous_step,
            finish_by_score=finish_by_score)
        rules = compiler.compile_all()
        self.actions, self.action_index, self.functions, self.procedures = (
            rules.actions, rules.action_index, rules.functions, rules.procedures)
        self.triggers_may_choose, self.fire_one_trigger, self.trigger_span = (
            rules.triggers_may_choose, rules.fire_one_trigger, rules.trigger_span)
        self.invariants, self.setup_may_choose, self.setup, self.setup_parts = (
            rules.invariants, rules.setup_may_choose, rules.setup, rules.setup_parts)
        self.flow, self.run_flow, self.score, self.declared_returns = (
            rules.flow, rules.run_flow, rules.score, rules.declared_returns)
        if self.coverage is not None:
            self.coverage.reset()        # what was computed while compiling is no game's
        self.compiler = compiler
        self.step_budget = compiler.step_budget
        self.binder_labelers = [[self.labeler(element) for (_, _, _, element) in a.binders] for a in self.actions]
        # what the others see of a move: the action's public text when it has one, else its
        # name with the owner-only attributes of its arguments masked
        declared = self.types.actions
        self.public_templates = [
            self.parse_template(declared[a.name].public_template, [b[0] for b in a.binders])
            if declared[a.name].public_template is not None else None for a in self.actions]
        self.public_binder_labelers = {
            a.index: [self.labeler(element, PUBLIC) for (_, _, _, element) in a.binders] for a in self.actions
            if any(strip_optional(b[3]) in self.private_fields for b in a.binders)
            or self.public_templates[a.index] is not None}
        self.templates = [self.parse_template(a.template, [b[0] for b in a.binders], a.name) for a in self.actions]
        # (action, k) -> f(s, *args): the text of the k-th {expression} of its label
        self.label_expressions = {}
        self.label_expression_order = {}
        self.namers = [self.namer(a, parts, tail) for a, (parts, tail) in zip(self.actions, self.templates)]
        # (after the namers: a label's expression may read attributes as columns too)
        self.column_names = list(self.column_index)
        self.static_columns = [[entity_column_value(self, entity, eid, name) for eid, entity in enumerate(self.static_entities)]
                               for name in self.column_names]
        self.argument_is_component = [tuple(strip_optional(b[3]) in self.types.components for b in a.binders)
                                      for a in self.actions]
        # Where a template names every argument, equal labels mean equal names.
        self.dedupe_by_labels = []
        for action, (parts, _) in zip(self.actions, self.templates):
            named = {position for _, position in parts if position is not None}
            if named == set(range(len(action.binders))):
                self.dedupe_by_labels.append(tuple(
                    strip_optional(b[3]) in self.types.components or strip_optional(b[3]) in self.types.boards
                    for b in action.binders))
            else:
                self.dedupe_by_labels.append(None)
        fused = {}
        for instruction in self.flow:
            # what listing the legal moves of a decision needs, looked up once
            instruction.listed = tuple((i, self.actions[i], self.dedupe_by_labels[i]) for i in instruction.actions)
            if len(instruction.actions) > 1:
                key = tuple(instruction.actions)
                if key not in fused:
                    fused[key] = compiler.fused_listing(instruction.actions)
                instruction.fused = fused[key]
        compiler.adopt_done()

    # ---- built once ----
    def _setup_declarations(self, compiler):
        settings = {}
        for option in self.types.options.values():
            if option.name in self.options:
                for setting in option.settings:
                    settings[setting.name] = setting.value
        # a param given when loading is that value; the others may use params declared after
        # them: compute each once those it names are known
        self.params.update(self.given_params)
        pending = {name: settings.get(name, param.value) for name, param in self.types.params.items()
                   if name not in self.given_params}
        while pending:
            ready = [name for name, value in pending.items() if not names_in(value) & set(pending)]
            if not ready:
                raise RulesRuntimeError("these params depend on each other in a cycle: " + ", ".join(pending),
                                        self.types.params[next(iter(pending))].span)
            for name in ready:
                self.params[name] = compiler.constant(pending.pop(name))
        self.params = {name: self.params[name] for name in self.types.params}   # file order
        for name, param in self.types.params.items():
            if param.type is not None:
                self._check_typed_param(compiler, param)
        self.private_fields = {}
        for component in self.types.components.values():
            if component.label:
                self.label_templates[component.name] = component.label
            private = {f.name for f in component.fields if f.visibility == "owner"}
            if private:
                self.private_fields[component.name] = private
        for board in self.types.boards.values():
            shape = board.shape
            if isinstance(shape, ast.GridShape):
                rows, cols = compiler.constant(shape.rows), compiler.constant(shape.cols)
                if isinstance(rows, int) and isinstance(cols, int) and min(rows, cols) < 1:      # (a param made it so)
                    raise DeclarationError("E701", f"a grid of {rows} by {cols} has no cells", shape.span,
                                           "a grid has at least one row and one column")
                if isinstance(rows, int) and isinstance(cols, int) and max(rows, 0) * max(cols, 0) > MAX_BOARD_CELLS:
                    raise RulesRuntimeError(f"a grid of {rows} by {cols} has more than {MAX_BOARD_CELLS} cells "
                                            "(see the limits in docs/language.md)", shape.span)
                cells = grid_cells(rows, cols)
                if shape.condition is not None:
                    exists = compiler.expr(shape.condition, self.types.globals.child(row="int", col="int"))
                    cells = [c for c in cells if exists(None, {"row": c[0], "col": c[1]})]
                kind = "grid"
            else:
                legend = {e.symbol: {i.name: compiler.constant(i.value) for i in e.inits} for e in shape.legend}
                try:
                    cells = list(hex_cells(shape.drawing, legend))
                except ValueError as error:
                    raise RulesRuntimeError(str(error), shape.span)
                if not cells:
                    raise DeclarationError("E701", "the map has no hexes", shape.span, "draw at least one hex")
                if len(cells) > MAX_BOARD_CELLS:
                    raise RulesRuntimeError(f"the map has more than {MAX_BOARD_CELLS} hexes "
                                            "(see the limits in docs/language.md)", shape.span)
                kind = "hex"
            placed = []
            for row, col, label, attributes in cells:
                eid = len(self.static_entities)
                entity = {"row": row, "col": col, **attributes, "__type__": board.name, "__label__": label}
                self.static_entities.append(entity)
                placed.append((eid, row, col))
            geometry = build_geometry(board.name, kind, placed)
            self.geometries[board.name] = geometry
            self.static_by_type[board.name] = list(geometry.cells)
            for eid in geometry.cells:
                self.geometry_by_cell[eid] = geometry
        for var in self.types.vars.values():
            t = self.types.type_name(var.type)
            if var.initial is not None:
                self.var_defaults[var.name] = compiler.constant(var.initial)
                players = compiler.player_values(var.name)
                if players is not None and self.var_defaults[var.name] not in players:
                    raise RulesRuntimeError(f"{var.name} is a player, but starts at {self.var_defaults[var.name]!r} "
                                            f"(players are 1..{self.num_players})", var.initial.span)
            else:
                self.var_defaults[var.name] = {"int": 0, "real": 0, "bool": False}.get(t, None)
            if var.low is not None:
                self.var_ranges[var.name] = self._var_range(compiler, var)
        self.zone_meta = {}
        for zone in self.types.zones.values():
            index_types = [element_of(compiler.type_of(d, self.types.globals)) for d in zone.index]
            owner = index_types.index("Player") if "Player" in index_types else None
            self.zone_meta[zone.name] = (zone.kind, zone.visibility, owner, index_types)
        self.var_meta = {}
        for var in self.types.vars.values():
            index_types = [element_of(compiler.type_of(d, self.types.globals)) for d in var.index]
            owner = index_types.index("Player") if "Player" in index_types else None
            self.var_meta[var.name] = (var.visibility, owner, index_types, self.types.type_name(var.type))

    def _var_range(self, compiler, var) -> tuple:
        """(low, high) of `var x: int in LOW..HIGH`, the params known: it must hold a value,
        and the variable's initial value."""
        low, high = compiler.constant(var.low), compiler.constant(var.high)
        for bound, value in ((var.low, low), (var.high, high)):
            if value.__class__ is not int:
                raise DeclarationError("E213", f"a bound of the range of '{var.name}' is {plain_label(value)}, "
                                               "not a whole number", bound.span)
        if low > high:
            both = attrs.evolve(var.low.span, end_line=var.high.span.end_line, end_column=var.high.span.end_column)
            raise DeclarationError("E213", f"the range of '{var.name}', {low}..{high}, holds no value", both,
                                   "write the smaller bound first")
        start = self.var_defaults[var.name]
        if start is not None and not low <= start <= high:
            raise DeclarationError("E213", f"'{var.name}' starts at {start}, outside its range {low}..{high}",
                                   var.initial.span if var.initial is not None else var.span,
                                   f"give it a starting value in the range ('= {low}')")
        return low, high

    def _check_typed_param(self, compiler, param):
        """A typed param's value, given or computed, must be of its type and in its range."""
        value, given = self.params[param.name], param.name in self.given_params
        if param.type.name == "bool":
            if value.__class__ is not bool:
                raise ParamValueError(f"param '{param.name}' is true or false, not {plain_label(value)}", param.span, given)
            return
        if value.__class__ is not int:
            raise ParamValueError(f"param '{param.name}' is a whole number, not {plain_label(value)}", param.span, given)
        if param.low is not None:
            low, high = compiler.constant(param.low), compiler.constant(param.high)
            if not (isinstance(low, int) and isinstance(high, int)):
                raise RulesRuntimeError("the bounds of a param's range must be whole numbers", param.low.span)
            if not low <= value <= high:
                raise ParamValueError(f"param '{param.name}' must be in {low}..{high}, not {value}", param.span, given)

    def typed_param_values(self) -> dict:
        """name -> value of every typed param (what --param may set), in file order."""
        return {name: self.params[name] for name, p in self.types.params.items() if p.type is not None}

    def neighbor_table(self) -> dict:
        """cell -> the tuple of its neighbours, on every board."""
        return self.boards.neighbor_table()

    def component_column(self, name) -> str:
        """The generated name of the list that holds attribute `name` of every component,
        indexed by the component (attributes never change once created): `_A<k>`, bound from
        `s.columns[k]` at the top of a generated function."""
        k = self.column_index.get(name)
        if k is None:
            k = self.column_index[name] = len(self.column_index)
        return f"_A{k}"

    def cell_column(self, name) -> list:
        """The attribute `name` of every board cell, indexed by the cell (cells never change)."""
        if name not in self.cell_columns:
            self.cell_columns[name] = [entity.get(name) for entity in self.static_entities]
        return self.cell_columns[name]

    def labeler(self, t, viewer=None):
        """f(s, value) -> the text for a value of type t. viewer None: the full text (the
        referee's); a seat, or PUBLIC: what that seat sees (owner-only attributes of components
        it does not own read '?')."""
        t = strip_optional(t)
        if t == "Player":
            return player_labeler()
        if viewer is not None and t in self.private_fields:
            return seen_labeler(viewer)
        if t in self.types.components or t in self.types.boards:
            return entity_labeler()
        if t.startswith("list["):
            return list_labeler(self.labeler(element_of(t), viewer))
        return plain_labeler()

    def namer(self, action, parts, tail):
        """A generated f(s, *args) -> the move's full name, from the action's template."""
        cg = self.compiler.codegen
        pieces = []
        for literal, position in parts:
            if literal:
                pieces.append(repr(literal))
            if position is not None and not isinstance(position, int):
                pieces.append(self.label_expression(action, position))
                continue
            if position is not None:
                value, t = f"a{position}", strip_optional(action.binders[position][3])
                if t == "Player":
                    pieces.append(f'("P" + str({value}) if {value} is not None else "none")')
                elif t in self.types.components or t in self.types.boards:
                    pieces.append(f'(_E[{value}]["__label__"] if {value} is not None else "none")')
                elif t.startswith("list["):
                    pieces.append(f"{cg.bind(self.labeler(t))}(s, {value})")
                else:
                    pieces.append(f"{cg.bind(plain_label)}({value})")
        if tail:
            pieces.append(repr(tail))
        arguments = "".join(f", a{k}" for k in range(len(action.binders)))
        name = re.sub(r"\W", "_", action.name)
        # (many pieces are joined: a long sum is too deep for Python's compiler)
        text = f"''.join(({', '.join(pieces)},))" if len(pieces) > 16 else ' + '.join(pieces) or repr('')
        return self.compiler.define(f"def name_{name}(s{arguments})", [f"    return {text}"])

    def label_expression(self, action, node) -> str:
        """The source that makes the text of a label's {expression} in a namer (its arguments
        a0, a1...), its function kept for the masked public text (move_name)."""
        compiler = self.compiler
        cg = compiler.codegen
        scope = self.types.globals.child(**{b[0]: b[3] for b in action.binders})
        ctx = Context("local", {b[0]: f"a{k}" for k, b in enumerate(action.binders)})
        value = cg.source(node, scope, ctx)
        text = f"{cg.bind(self.labeler(compiler.type_of(node, scope)))}(s, {value})"
        k = len([key for key in self.label_expressions if key[0] == action.index])
        arguments = "".join(f", a{j}" for j in range(len(action.binders)))
        name = re.sub(r"\W", "_", action.name)
        self.label_expressions[(action.index, k)] = (
            compiler.define(f"def label_{name}_{k}(s{arguments})", [f"    return {text}"]),
            {n.id for n in ast.walk(node) if isinstance(n, ast.Name)})
        self.label_expression_order.setdefault(action.index, []).append(node)
        return text

    def parse_template(self, template, names, action=None):
        """([(literal text, what follows it)], tail): what follows is an argument's position, an
        {expression} of the label (its node, of action `action`), or None."""
        parts = []
        position = 0
        for match in PLACEHOLDER_TEXT.finditer(template):
            inside = match.group(1)
            if inside in names:
                shown = names.index(inside)
            else:
                shown = self.types.label_expressions.get((action, inside)) if action is not None else None
            parts.append((template[position:match.start()], shown))
            position = match.end()
        tail = template[position:]
        return parts, tail

    # ---- the state interface ----
    def new_initial_state(self, seed: int = 0) -> "State":
        self.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)
        s = None
        try:
            if self.setup_may_choose:
                # explicit chance: the setup is a step that may stop at a chance node
                s = self.empty_state(seed)
                s.choices, s.cursor = (), 0
                drive(s, self.setup_runner(s), setup_snapshot(s), self.setup_runner, ())
                advance(s)
                return s
            if self.setup_parts is not None:
                s = self.from_setup_prefix(seed)        # (no empty state made first)
            else:
                s = self.empty_state(seed)
                try:
                    self.setup(s)
                except Finished:
                    return s
            self.setup_done(s)
            advance(s)
            s.rebuildable = True        # (set after the first steps: so that rebuild_snapshot's state takes copies)
        except PYTHON_ERRORS as error:
            raise located(s if s is not None else self.empty_state(seed), error, "setting up the game") from error
        return s

    def empty_state(self, seed) -> "State":
        """A state before its setup: the components every game has, no zone filled yet."""
        s = State(self)
        s.rng = random_source.seed_state(seed)
        s.entities = list(self.static_entities)
        s.columns = [column[:] for column in self.static_columns]
        s.by_type = {k: list(v) for k, v in self.static_by_type.items()}
        s.seed = seed
        return s

    def from_setup_prefix(self, seed) -> "State":
        """A new state at the end of its setup: the beginning of the setup that draws nothing
        is run once per game compiled, each game starts from a copy of what it made."""
        if self.setup_base is None:
            first = self.empty_state(0)      # (that part draws nothing: each game gets its own seed)
            self.setup_parts[0](first)
            self.setup_base = setup_snapshot(first)
        s = setup_snapshot(self.setup_base)
        # its own zone lists: a state changed by hand (a test) must not change the next games
        s.zones = {key: list(items) for key, items in s.zones.items()}
        s.owned = s.zones        # (every list its own: the zones themselves)
        s.rng = random_source.seed_state(seed)
        s.seed = seed
        self.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)
        self.setup_parts[1](s)
        return s

    def setup_done(self, s):
        s.by_type = {k: tuple(v) for k, v in s.by_type.items()}
        s.names = self.names_for_labels_of(s)

    def names_for_labels_of(self, s) -> dict:
        """The cache of move names for the labels of s's components: games whose components
        have the same labels name their moves alike, and share one."""
        labels = tuple(map(LABEL_OF, s.entities[len(self.static_entities):]))
        if labels not in self.move_names and len(self.move_names) >= 16:
            self.move_names.clear()     # setups that differ from game to game: keep a few
        return self.move_names.setdefault(labels, {})

    def setup_runner(self, s):
        """The setup as a step (explicit chance): it may stop at chance nodes."""
        try:
            yield from self.setup(s)
        except Finished:
            return
        self.setup_done(s)


def setup_snapshot(s) -> "State":
    """A copy of a state before or during its setup, to replay the setup from: the
    components are still being created, so it keeps its own lists of them."""
    copy = s.clone()
    copy.entities = list(s.entities)
    copy.columns = [column[:] for column in s.columns]
    copy.by_type = {k: list(v) for k, v in s.by_type.items()}
    return copy


UNMARKED = object()


def key_mark(game, key):
    """What a change of zone `key` makes stale: (the stamp of its family, the part of the
    family under its first index or None, `key` when the game logs the changes of that part (a
    filter kept up to date: maintained.py) or None), or None when no cached value reads its
    family."""
    family = key if key.__class__ is str else key[0]
    mark = game.zone_marks.get(family)
    if mark is None:
        return None
    if not mark[1]:
        return mark[0], None, None
    part = (family, key[1] if key.__class__ is not str else None)
    return mark[0], part, (key if mark[2] else None)


def player_range(program):
    fields = [f for f in program.game.fields if isinstance(f, ast.PlayersField)]
    low = fields[0].low
    high = fields[0].high if fields[0].high is not None else low
    return low, high


class State:
    __slots__ = ("game", "entities", "by_type", "zones", "loc", "vars", "rng", "pc", "env",
                 "current", "extra", "terminal", "winners", "pending", "history", "public_history",
                 "choices", "cursor", "log", "turn", "seed", "_legal", "owned", "shared", "names",
                 "replayable", "columns", "shown_to", "entities_mine", "var_index", "var_index_mine",
                 "log_at", "rebuildable")

    def __init__(self, game):
        self.game = game
        self.entities = []
        # the attributes the compiled rules read, one list per attribute indexed by component
        # (Game.column_names), grown by `create`; shared by clones, as entities are
        self.columns = []
        self.by_type = {}
        self.zones = {}
        self.loc = []
        self.vars = {}
        self.rng = 0
        self.pc = 0
        self.env = {}
        self.current = 1
        self.extra = False
        self.terminal = False
        self.winners = []
        self.pending = None
        self.history = []
        # one (seat, text) per applied move, as the other players saw it; text None: a sealed
        # simultaneous move not yet revealed
        self.public_history = []
        self.choices = ()
        self.cursor = 0
        self.log = []
        self.turn = 0
        self.seed = 0
        self._legal = None
        # zone key -> its list, for the lists this state may change in place (the zones dict
        # itself when it owns them all): a clone shares the lists of its original until one
        # of them changes a zone (copy on write)
        self.owned = {}
        # history, public_history and log are shared with a clone until one of them writes
        self.shared = False
        # (action, arguments) -> the move's name: names depend only on the components, which
        # never change after the setup, so a state and its clones share them
        self.names = {}
        # whether new_initial_state(seed) and the moves of the history make this state again
        self.replayable = True
        # whether this state is one that new_initial_state made and only moves changed (not a
        # clone: whoever clones may draw its random source anew, as search bots do): its seed
        # and history make it again, so its steps take no copy from before them (Unbuilt)
        self.rebuildable = False
        # component -> the players a `reveal` showed it to, until it moves (never changed in
        # place: a clone shares it)
        self.shown_to = {}
        # whether this state may change its entities and columns in place (x.a = ...): they
        # are shared with clones, and with the other games of the game, until one changes
        self.entities_mine = False
        # variable -> {value: its indexes holding it}, for the variables the compiled rules ask
        # that of (Compiler.var_indexes); shared with clones until one of them writes
        self.var_index = {}
        self.var_index_mine = True
        # a copy taken before a step (snapshot): the length of the log it shares, which the
        # state it was taken from goes on appending to
        self.log_at = None

    def clone(self) -> "State":
        """A copy to play on, in a time that does not grow with the game's history: zones and
        the history lists are shared, each copied by whichever state changes it first."""
        other = State.__new__(State)
        other.game = self.game
        other.entities = self.entities
        other.columns = self.columns
        other.by_type = self.by_type
        other.zones = self.zones.copy()
        self.owned = {}
        other.owned = {}
        other.loc = self.loc[:]
        other.vars = self.vars.copy()
        other.rng = self.rng
        other.pc = self.pc
        other.env = self.env.copy()
        other.current = self.current
        other.extra = self.extra
        other.terminal = self.terminal
        other.winners = self.winners
        other.pending = self.pending
        other.history = self.history
        other.public_history = self.public_history
        self.shared = other.shared = True
        other.choices = self.choices
        other.cursor = self.cursor
        other.log = self.log
        other.turn = self.turn
        other.seed = self.seed
        other._legal = self._legal
        other.names = self.names
        other.replayable = self.replayable
        other.shown_to = self.shown_to
        self.entities_mine = other.entities_mine = False
        other.var_index = self.var_index
        self.var_index_mine = other.var_index_mine = False
        other.log_at = None
        other.rebuildable = False
        return other

    def snapshot(self) -> "State":
        """A copy from before a step that may stop at a choice, for a clone of the stopped
        state to replay the step from. Unlike a clone, this state keeps appending to its trails
        without copying them (they only grow): the copy keeps the log's length (the replay takes
        the history lists of the clone it replays for)."""
        shared = self.shared
        other = self.clone()
        self.shared = shared
        other.log_at = len(self.log)
        return other

    def changed(self):
        """Call after changing a state by hand (its vars, zones or components, not through the
        engine): the values the compiled rules cached from it are forgotten. (The engine's own moves
        keep them exact; reading a function or the scores from outside forgets them anyway.)"""
        self.game.memo_reset(self)
        self._legal = None
        self.names = self.game.names_for_labels_of(self)    # (labels changed by hand name moves anew)
        self.var_index, self.var_index_mine = {}, True     # built again from the variables
        self.replayable = False      # its seed and moves no longer make it
        self.rebuildable = False

    def own_trails(self):
        """Copy the history lists and the log before changing them, if a clone shares them."""
        if self.shared:
            self.history = self.history[:]
            self.public_history = self.public_history[:]
            self.log = self.log[:]
            self.shared = False

    def _become(self, other: "State"):
        for slot in State.__slots__:
            setattr(self, slot, getattr(other, slot))

    # ---- changes used by compiled effects ----
    def own(self, key) -> list:
        """The list of a zone, copied first if it is shared with a clone (None: no such zone)."""
        items = self.owned.get(key)
        if items is None:
            items = self.zones.get(key)
            if items is not None:
                items = self.zones[key] = self.owned[key] = items[:]
        if self.game.zone_marks is not None:
            self.mark_changed(key)       # the caller is about to change it in place (shuffle)
        return items

    def mark_changed(self, key):
        """A zone's content changes: the values cached from it (its family, and the part of it
        under its first index) are stale."""
        game = self.game
        mark = game.key_marks.get(key, UNMARKED)
        if mark is UNMARKED:
            mark = game.key_marks[key] = key_mark(game, key)
        if mark is not None:
            game.memo_stamps[mark[0]] += 1
            if mark[1] is not None:
                parts = game.memo_parts
                parts[mark[1]] = parts.get(mark[1], 0) + 1
                if mark[2] is not None:
                    parts.log.append(mark[2])

    def move(self, x, key, under=False):
        loc = self.loc
        here = loc[x]
        owned = self.owned
        if here is not None:
            items = owned.get(here)
            if items is None:
                items = self.zones[here] = owned[here] = self.zones[here][:]
            if items[-1] == x:
                items.pop()         # the top (a deal, a draw): no scan of the whole pile
            else:
                items.remove(x)
        target = owned.get(key)
        if target is None:
            zones = self.zones
            target = zones.get(key)
            if target is None:
                key = canonical_key(key)      # (a new zone)
                target = zones[key] = []
            else:
                target = zones[key] = target[:]
            if owned is not zones:
                owned[key] = target
        if under:
            target.insert(0, x)
        else:
            target.append(x)
        loc[x] = key
        if self.shown_to and x in self.shown_to:
            self.shown_to = {y: seats for y, seats in self.shown_to.items() if y != x}
        game = self.game
        if game.zone_marks is not None:
            # (mark_changed, inline: a move is the commonest change)
            key_marks = game.key_marks
            for changed in (key, here) if here is not None else (key,):
                mark = key_marks.get(changed, UNMARKED)
                if mark is UNMARKED:
                    mark = key_marks[changed] = key_mark(game, changed)
                if mark is not None:
                    game.memo_stamps[mark[0]] += 1
                    if mark[1] is not None:
                        parts = game.memo_parts
                        parts[mark[1]] = parts.get(mark[1], 0) + 1
                        if mark[2] is not None:
                            parts.log.append(mark[2])

    def deal(self, n, source, key, under):
        """The top n components of zone `source` moved one by one onto (or under) zone
        `key`, as n moves would: the lists owned and the caches marked once, not per card
        (one card, one move: the move marks them inline)."""
        zones = self.zones
        items = zones.get(source)
        if not items or n <= 0:
            return
        if n == 1 or source == key or under:
            for _ in range(n):
                items = zones.get(source)     # (read again: a move may copy a shared list)
                if not items:
                    return
                self.move(items[-1], key, under)
            return
        owned = self.owned
        if owned.get(source) is None:
            items = zones[source] = owned[source] = items[:]
        target = owned.get(key)
        if target is None:
            target = zones.get(key)
            if target is None:
                key = canonical_key(key)      # (a new zone)
                target = zones[key] = []
            else:
                target = zones[key] = target[:]
            if owned is not zones:
                owned[key] = target
        loc = self.loc
        for _ in range(min(n, len(items))):
            x = items.pop()
            target.append(x)
            loc[x] = key
            if self.shown_to and x in self.shown_to:
                self.shown_to = {y: seats for y, seats in self.shown_to.items() if y != x}
        if self.game.zone_marks is not None:
            self.mark_changed(key)
            self.mark_changed(source)

    def create(self, type_name, values, template, key):
        eid = len(self.entities)
        game = self.game
        try:
            # identical components have the same labels, signature and columns: computed once per game
            given = (type_name, template, *values.items())
            known = game.created.get(given)
        except TypeError:      # an unhashable attribute value
            given = known = None
        if known is None:
            values["__type__"] = type_name
            values["__label__"] = self.component_label(type_name, values, template)
            values["__same__"] = (type_name, *sorted((k, repr(v)) for k, v in values.items() if k != "__same__"))
            private = game.private_fields.get(type_name)
            if private:
                values["__public_label__"] = self.component_label(type_name, values, template, private)
            shown = {k: v for k, v in values.items() if k.startswith("__")}
            known = (shown, tuple(entity_column_value(game, values, eid, name) for name in game.column_names))
            if given is not None:
                if len(game.created) >= 10_000:
                    game.created.clear()      # components whose values differ from game to game
                game.created[given] = known
        else:
            values.update(known[0])
        self.entities.append(values)
        for column, value in zip(self.columns, known[1]):
            column.append(value)
        self.by_type.setdefault(type_name, []).append(eid)
        if game.zone_marks is not None:
            self.mark_changed("#types")
        loc = self.loc
        while len(loc) <= eid:
            loc.append(None)
        self.move(eid, key)

    def component_label(self, type_name, values, template, masked=()):
        def text(name):
            if name in masked:
                return "?"
            value = values.get(name)
            return f"P{value}" if name == "owner" and value is not None else plain_label(value)
        if template:
            # a value that is none leaves its placeholder empty ("{suit} {rank}" -> "joker")
            filled = PLACEHOLDER.sub(lambda m: "" if values.get(m.group(1)) is None else text(m.group(1)), template)
            return " ".join(filled.split())
        shown = [text(k) for k in values if not k.startswith("__") and k != "owner"]
        return " ".join([type_name] + shown)

    def label(self, value, t=ANY):
        return self.game.labeler(t)(self, value)

    # ---- interface ----
    def sealed(self) -> bool:
        """Whether the move to make now is a sealed simultaneous move (kept secret until every
        player of that step has chosen)."""
        return (not self.terminal and self.pending is None and self.pc < len(self.game.flow)
                and self.game.flow[self.pc].op == "simultaneous")

    def current_player(self) -> int:
        """The seat to move (1..n), CHANCE (-1) at a chance node, TERMINAL (0) at the end."""
        return TERMINAL if self.terminal else self.current

    def is_chance_node(self) -> bool:
        """Whether chance moves next (only with explicit chance: a shuffle or a pick)."""
        return not self.terminal and self.pending is not None and self.pending.chooser == CHANCE

    def chance_outcomes(self) -> list:
        """At a chance node, (move, probability) for each outcome, in the order of legal_moves();
        identical components are one outcome, as likely as they are many."""
        if not self.is_chance_node():
            return []
        weights = self.pending.weights
        total = sum(weights)
        return [(move, weights[move.args[0]] / total) for move in self.legal_moves()]

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_moves(self) -> "MoveList":
        legal = self._legal
        return MoveList(self, legal if legal is not None else self.listed())

    def listed(self) -> list:
        """The segments of the legal moves (MoveList), listed once per position. The state keeps
        them and not a MoveList: a MoveList holds its state, and the cycle would keep every
        state dropped with its moves listed (search bots drop thousands) until the garbage
        collector ran."""
        legal = self._legal
        if legal is None:
            self.game.step_budget[1] = MAX_STEP_WORK      # a listing has the work budget of a step
            try:
                legal = self._legal = legal_segments(self)
            except PYTHON_ERRORS as error:
                raise located(self, error, "finding the legal moves") from error
        return legal

    def legal_move_names(self) -> list:
        return [m.name for m in self.legal_moves()]

    def apply(self, move):
        """Play a move (a Move or its text name). An illegal move raises IllegalMove, whose
        reason says why, and leaves the state as it was."""
        if isinstance(move, str):
            move = self.find_move(move)
        else:
            segments = self._legal if self._legal is not None else self.listed()
            if getattr(move, "owner", None) is not segments:
                legal = MoveList(self, segments)
                if not isinstance(move, Move) or move not in legal:
                    name = move.name if isinstance(move, Move) else repr(move)
                    raise IllegalMove(f"'{name}' is not a legal move now")
                move = legal[legal.index(move)]
        # all or nothing: a move that fails half-way is undone. A state reached by moves alone
        # is rebuilt from its seed and moves (nothing to pay while moves succeed); one changed
        # by hand keeps a copy of itself for the time of the move.
        saved = None if self.replayable else self.checkpoint()
        before = len(self.history)
        try:
            apply_move(self, move)
        except PYTHON_ERRORS as error:
            self.undo_failed_move(saved, before)
            raise located(self, error, f"playing '{move.name}'") from error
        except RulesRuntimeError:
            self.undo_failed_move(saved, before)
            raise

    def undo_failed_move(self, saved, moves_before):
        if saved is not None:
            self.restore(saved)
            return
        self._become(replayed(self, moves_before))
        self.game.memo_reset(self)

    def checkpoint(self) -> tuple:
        """What `restore` needs to undo a move that fails half-way: the zone lists are shared
        with the copy from now on, as with a clone (the first write to one copies it); the
        trails only grow, so their lengths are enough."""
        self.owned = {}
        mine, self.entities_mine = self.entities_mine, False      # (a change of an attribute copies them)
        self.var_index_mine = False                               # (a write copies the tables)
        return (self.zones.copy(), self.loc[:], self.vars.copy(), self.env.copy(), self.rng, self.pc,
                self.current, self.extra, self.terminal, self.winners, self.pending, self.choices,
                self.cursor, self.turn, len(self.history), len(self.public_history), len(self.log),
                self._legal, self.history, self.public_history, self.log, self.shared, self.shown_to,
                self.entities, self.columns, self.names, mine, self.var_index)

    def restore(self, saved: tuple):
        (self.zones, self.loc, self.vars, self.env, self.rng, self.pc, self.current, self.extra,
         self.terminal, self.winners, self.pending, self.choices, self.cursor, self.turn, history,
         public_history, log, self._legal, self.history, self.public_history, self.log, self.shared,
         self.shown_to, self.entities, self.columns, self.names, self.entities_mine, self.var_index) = saved
        self.owned = {}
        self.var_index_mine = False
        if not self.shared:
            del self.history[history:], self.public_history[public_history:], self.log[log:]
        self.game.memo_reset(self)      # values cached during the failed move may be of its half

    def find_move(self, text: str) -> Move:
        wanted = normalise(text)
        for m in self.legal_moves():
            if normalise(m.name) == wanted:
                return m
        raise IllegalMove(explain_refusal(self, text))

    def returns(self) -> list:
        """Each seat's payoff: at the end of a game with `returns p: EXPR` in its header, that
        number; else 1 for a winner and 0 for the others (0 for all before the end)."""
        declared = self.game.declared_returns
        if declared is None or not self.terminal:
            return self.win_returns()
        self.game.memo_reset(self)
        values = []
        for p in range(1, self.game.num_players + 1):
            try:
                value = declared(self, p)
            except PYTHON_ERRORS as error:
                raise located(self, error, "computing the returns") from error
            if value is None or value.__class__ not in (int, float, Fraction):
                raise RulesRuntimeError(f"the return of P{p} is {plain_label(value)}, not a number",
                                        self.game.returns_span)
            values.append(float(value))
        return values

    def win_returns(self) -> list:
        return [1.0 if p in self.winners else 0.0 for p in range(1, self.game.num_players + 1)]

    def outcome(self):
        """How the game ended: "win" (one winner), "shared" (several winners: `finish winners
        [...]` with several, or a tie for the best score), "draw" (no winner: `finish`, or the
        end of the flow with no score); None before the end."""
        if not self.terminal:
            return None
        return "draw" if not self.winners else "win" if len(self.winners) == 1 else "shared"

    def scores(self) -> list:
        if self.game.score is None:
            return self.win_returns()
        self.game.memo_reset(self)
        try:
            return [self.game.score(self, p) for p in range(1, self.game.num_players + 1)]
        except PYTHON_ERRORS as error:
            raise located(self, error, "computing the scores") from error

    def broken_invariants(self) -> list:
        """The names of the game's invariants that do not hold in this state."""
        self.game.memo_reset(self)
        try:
            return [name for name, holds, _ in self.game.invariants if not holds(self, {})]
        except PYTHON_ERRORS as error:
            raise located(self, error, "checking the invariants") from error

    def view(self, player: int) -> dict:
        return make_view(self, player)

    def __str__(self):
        from .render import render_view
        return render_view(self.view(self.current_player() or 1))


PYTHON_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError, ZeroDivisionError,
                 RecursionError)


def located(s, error, doing) -> RulesRuntimeError:
    """A Python error raised while evaluating the rules (a 'none' where a number was needed,
    say) as a located RulesRuntimeError: a rules bug, never a traceback."""
    flow = s.game.flow
    span = flow[s.pc].span if 0 <= s.pc < len(flow) else None
    # the rules line of the innermost generated function the error went through
    trace = error.__traceback__
    while trace is not None:
        spans = s.game.line_spans.get(trace.tb_frame.f_code.co_filename)
        if spans and trace.tb_lineno in spans:
            span = spans[trace.tb_lineno]
        trace = trace.tb_next
    if isinstance(error, RulesRuntimeError):    # a library function's own message, located here
        return RulesRuntimeError(str(error).split("runtime error: ", 1)[-1], span)
    if isinstance(error, RecursionError):      # the rules' own functions, calling themselves
        return RulesRuntimeError(f"functions call each other too deeply while {doing}: a function that calls itself without end?", span)
    return RulesRuntimeError(f"{type(error).__name__} while {doing}: {error}", span)


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


# ---- legal moves ---------------------------------------------------------------------------

def compute_legal_moves(s: State) -> MoveList:
    """The legal moves of s, listed afresh."""
    return MoveList(s, legal_segments(s))


def legal_segments(s: State) -> list:
    """The legal moves as MoveList's segments: (action index, argument tuples, names or None),
    (CHOICE_SEGMENT, option tuples, names) for a choice's options, or (None, Move objects,
    None) for a skip. Empty: no legal move."""
    if s.terminal:
        return []
    if s.pending is not None:
        # options that look the same (identical cards) are one move, as for actions: the first
        options, names, seen = [], [], set()
        for i, name in enumerate(s.pending.names):
            if name not in seen:
                seen.add(name)
                options.append((i,))
                names.append(name)
        return [(CHOICE_SEGMENT, options, names)]
    game = s.game
    instruction = game.flow[s.pc] if s.pc < len(game.flow) else None
    if instruction is None or instruction.op not in ("play", "simultaneous"):
        return []
    segments, names_seen = [], None
    together = instruction.fused(s) if instruction.fused is not None else None
    for index, action, keyed in instruction.listed:
        listed = together.get(index) if together is not None else None
        if listed is not None:
            candidates, exact = listed
        else:
            candidates, exact = action.enumerate(s)
        if not candidates:
            continue
        if keyed is not None:
            # moves whose arguments look the same (identical cards) are one move
            if not exact:
                candidates = merge_by_labels(s, index, candidates, keyed)
            segments.append((index, candidates, None))
        else:
            kept, names = [], []
            if names_seen is None:
                names_seen = {}
            known = s.names      # (move_name's own cache, read here without a call)
            for args in candidates:
                move = (index, args)
                name = known.get(move)
                if name is None:
                    name = move_name(s, index, args)
                first = names_seen.get(name)
                if first is None:
                    names_seen[name] = move
                    kept.append(args)
                    names.append(name)
                elif not same_move(s, first, move):
                    raise same_named(s, name, first, move)
            segments.append((index, kept, names))
    if instruction.optional and segments:
        segments.append((None, [Move("skip", -1, (), SKIP)], None))
    return segments


def merge_by_labels(s, index, candidates, by_label):
    """The first of the argument tuples that show the same labels (identical cards)."""
    entities = s.entities
    seen, kept = {}, []
    for args in candidates:
        key = tuple(entities[a]["__label__"] if label else a for a, label in zip(args, by_label))
        first = seen.get(key)
        if first is None:
            seen[key] = args
            kept.append(args)
        elif not same_move(s, (index, first), (index, args)):
            raise same_named(s, move_name(s, index, args), (index, first), (index, args))
    return kept


def same_move(s, first, second) -> bool:
    """Whether two (action, arguments) are the same move: one action, the same or identical
    arguments (arguments are components only where the action says so)."""
    (i, a), (j, b) = first, second
    if i != j:
        return False
    kinds = s.game.argument_is_component[i]
    return all(x == y or (component and same_value(s, x, y)) for x, y, component in zip(a, b, kinds))


def same_named(s, name, first, second) -> SameNamedMoves:
    game = s.game

    def shown(move):
        index, args = move
        action = game.actions[index]
        parts = []
        for b, v, component in zip(action.binders, args, game.argument_is_component[index]):
            text = s.label(v, b[3])
            if component and v is not None:
                text += " {" + ", ".join(f"{k}: {plain_label(x)}" for k, x in s.entities[v].items()
                                        if not k.startswith("__") and x is not None) + "}"
            parts.append(f"{b[0]}={text}")
        return f"{action.name}({', '.join(parts)})"
    return SameNamedMoves(f"two different moves have the same name '{name}': {shown(first)} and {shown(second)}; "
                          f"the action's label must tell them apart (a component's label must show what makes "
                          f"two of them different)", game.actions[second[0]].span)


def action_candidates(s, action, check_guard=True, typed=""):
    """Argument tuples of an action, in the order of its binders: the legal ones (the action's
    generated enumerator), or, without check_guard, every combination of the binders' domains
    with no filter at all (to explain why a move a player typed is refused); a binder with a
    reason for values outside its domain (`in D else "..."`) takes every value of its type
    there (for numbers, those the typed text holds)."""
    if check_guard:
        return action.enumerate(s)[0]
    binders = action.binders
    env = {}
    out = []

    def rec(i):
        if i == len(binders):
            out.append(tuple(env[b[0]] for b in binders))
            return
        name, domain, _, element = binders[i]
        try:
            values = list(domain(s, env))
        except (RulesRuntimeError, *PYTHON_ERRORS):
            return          # a domain that fails for values the rules would never pass: no moves there
        if action.outside_texts and action.outside_texts[i] is not None:
            values += [v for v in type_values(s, element, typed) if v not in values]
        for value in values:
            env[name] = value
            rec(i + 1)
    rec(0)
    return out


TYPED_NUMBERS = 8      # numbers of a typed move tried for a binder with a reason outside its domain


def type_values(s, t, typed) -> list:
    """Every value of type t a player may type (cells, components, players, enum members,
    true/false), or for numbers those written in the typed text."""
    t = strip_optional(t)
    if t == "int":      # (a few: a typed move names few numbers, and each is tried with the other binders)
        return [int(n) for n in list(dict.fromkeys(re.findall(r"-?\d{1,18}", typed)))[:TYPED_NUMBERS]]
    if t == "Player":
        return list(s.game.seats)
    if t == "bool":
        return [False, True]
    return index_values(s, None, None, t) if t in s.game.geometries or t in s.game.enum_members \
        or t in s.game.types.components else []


def move_name(s, index, args, labelers=None) -> str:
    if labelers is None:
        key = (index, args)
        name = s.names.get(key)
        if name is None:
            name = s.names[key] = s.game.namers[index](s, *args)
        return name
    parts, tail = s.game.templates[index]
    if labelers is s.game.public_binder_labelers.get(index) and s.game.public_templates[index] is not None:
        parts, tail = s.game.public_templates[index]       # the text the others see
    masked = labelers is not None
    labelers = labelers or s.game.binder_labelers[index]
    out = []
    for literal, position in parts:
        out.append(literal)
        if position is not None and not isinstance(position, int):
            out.append(expression_text(s, index, position, args, masked))
        elif position is not None:
            out.append(labelers[position](s, args[position]))
    out.append(tail)
    return "".join(out)


def expression_text(s, index, node, args, masked) -> str:
    """The text of a label's {expression}; '?' in the text the others see when it reads an
    argument whose owner-only attributes they may not see."""
    game = s.game
    k = game.label_expression_order[index].index(node)
    fn, names = game.label_expressions[(index, k)]
    if masked:
        action = game.actions[index]
        if any(b[0] in names and strip_optional(b[3]) in game.private_fields for b in action.binders):
            return "?"
    return fn(s, *args)


def public_text(s: State, move: Move) -> Optional[str]:
    """A move as the players other than its author see it: None while it is a sealed
    simultaneous move; owner-only attributes of its arguments masked."""
    if move.kind == "skip":
        return move.name
    if move.kind == "choice":
        public = s.pending.public_names
        return public[move.args[0]] if public is not None else move.name
    if s.sealed():
        return None
    labelers = s.game.public_binder_labelers.get(move.action)
    return move.name if labelers is None else move_name(s, move.action, move.args, labelers)


def public_moves(s: State, viewer: int, last: int = 10) -> list:
    """The last moves as a player saw them: their own in full, the others' public texts, and
    "P2 has chosen" for a sealed move not yet revealed."""
    start = max(0, len(s.history) - last)
    out = []
    for name, (player, text) in zip(s.history[start:], s.public_history[start:]):
        if player == CHANCE:
            out.append(f"chance: {text if text is not None else name}")
        elif player == viewer:
            out.append(f"P{player}: {name}")
        elif text is None:
            out.append(f"P{player} has chosen")
        else:
            out.append(f"P{player}: {text}")
    return out


def with_values(rule: str, labels: dict) -> str:
    """A rule's text with the names of the move's arguments replaced by their values' labels
    (not inside quotes, nor an attribute's name): "mark[c] must be none" -> "mark[b2] must be none"."""
    pieces = re.split(r'("(?:[^"\\]|\\.)*")', rule)
    for k in range(0, len(pieces), 2):
        pieces[k] = re.sub(r"(?<![.\w])([A-Za-z_]\w*)\b", lambda m: labels.get(m.group(1), m.group(1)), pieces[k])
    return "".join(pieces)


def plain_refusal(text: str, rule: str) -> str:
    """A refusal the rules give no reason for: in plain words, the rule's text after it."""
    return f"'{text}' is not possible now (by the rules, {rule})"


def explain_refusal(s: State, text: str) -> str:
    """Why a move typed by a player is not legal now."""
    if s.terminal:
        return "the game is over"
    wanted = normalise(text)
    legal = s.legal_move_names()
    if s.pending is not None:
        return f"'{text}' is not one of the options: {s.pending.prompt} ({', '.join(legal)})"
    game = s.game
    instruction = game.flow[s.pc] if s.pc < len(game.flow) else None
    for action in game.actions:
        if instruction is not None and action.index in instruction.actions:
            continue
        if normalise(action.name) == wanted.split(" ")[0]:
            return f"'{action.name}' cannot be played now (P{s.current} must choose among: {', '.join(legal[:6])}{' ...' if len(legal) > 6 else ''})"
    # a name may fit several candidates when the template leaves a binder out: prefer the
    # reason of one that passes its where filters (its guard said no) over a filter failure
    filtered = None
    for index in (instruction.actions if instruction is not None else ()):
        action = game.actions[index]
        for args in action_candidates(s, action, check_guard=False, typed=wanted):
            if normalise(move_name(s, index, args)) != wanted:
                continue
            env = {}
            for k, ((name, domain, where, _), value, why) in enumerate(zip(action.binders, args, action.condition_texts)):
                outside = action.outside_texts[k] if action.outside_texts else None
                if outside is not None and value not in list(domain(s, env)):
                    env[name] = value
                    filtered = filtered or f"'{text}' is not possible now: {outside(s, dict(env))}"
                    break
                env[name] = value
                if where is not None and not where(s, env):
                    if not isinstance(why, RuleText):          # the binder's own `else` text
                        filtered = filtered or f"'{text}' is not possible now: {why(s, dict(env))}"
                    else:
                        labels = {b[0]: game.binder_labelers[index][j](s, args[j]) for j, b in enumerate(action.binders[:k + 1])}
                        filtered = filtered or plain_refusal(text, with_values(why, labels))
                    break
            else:
                reason = action.guard(s, dict(env))
                if isinstance(reason, RuleText):      # a require with no reason of its own
                    return plain_refusal(text, reason)
                if reason:
                    return f"'{text}' is not possible now: {reason}"
    if filtered:
        return filtered
    # the text starts like one of the actions to play now: say what that action allows
    for index in (instruction.actions if instruction is not None else ()):
        parts, _ = game.templates[index]
        opening = normalise(parts[0][0]) if parts else ""
        if opening and wanted.startswith(opening):
            same = [m.name for m in s.legal_moves() if m.kind == "action" and m.action == index]
            if not same:
                return f"unknown move '{text}': no '{opening}' move is possible now"
            hint = did_you_mean(text, same)
            shown = ", ".join(same[:5]) + (" ..." if len(same) > 5 else "")
            return f"unknown move '{text}'" + (f"; {hint}" if hint else f"; '{opening}' moves possible now: {shown}")
    hint = did_you_mean(text, legal)
    return f"unknown move '{text}'" + (f"; {hint}" if hint else "; type 'moves' to list the legal ones")


# ---- applying moves and running the flow -------------------------------------------------------

def action_steps(s, index, args):
    """An action and the triggers it sets off, as steps: a choice yields."""
    action = s.game.actions[index]
    if action.steps is not None:
        yield from action.steps(s, *args)
    else:
        action.run(s, *args)
    yield from trigger_steps(s)


def trigger_steps(s):
    game = s.game
    if not game.triggers_may_choose:
        run_triggers(s)
        return
    for _ in range(LOOP_CAP):
        fired = yield from game.fire_one_trigger(s)
        if not fired:
            return
    raise RulesRuntimeError("triggers keep firing: a trigger's effect must make its condition false",
                            game.trigger_span)


def play_steps(state, index, args):
    """action_steps, then on to the next instruction of the flow (one generator, not three,
    when the triggers cannot choose)."""
    game = state.game
    action = game.actions[index]
    if action.steps is not None:
        yield from action.steps(state, *args)
    else:
        action.run(state, *args)
    if game.triggers_may_choose:
        yield from trigger_steps(state)
    elif game.fire_one_trigger is not None:      # (a game without triggers: no call)
        run_triggers(state)
    state.pc += 1


def play_runner(index, args):
    """The step of a move played in a turn: runner(state) -> its generator."""
    return partial(play_steps, index=index, args=args)


def run_triggers(s, fired=0):
    fire = s.game.fire_one_trigger
    if fire is None:
        return
    for _ in range(LOOP_CAP - fired):
        if not fire(s):
            return
    raise RulesRuntimeError("triggers keep firing: a trigger's effect must make its condition false",
                            s.game.trigger_span)


def run_step(s, runner, may_choose):
    """Run one indivisible step (runner(state): a generator); if it reaches a choice not yet
    made, keep the stopped generator, and a copy of the state from before the step so that a
    clone can replay it. A state that its seed and moves make again takes no copy (most steps
    that may choose reach no choice): a clone that replays the step has it made then
    (rebuild_snapshot)."""
    snapshot = (Unbuilt(s.rng) if s.rebuildable else s.snapshot()) if may_choose else None
    s.choices, s.cursor = (), 0
    drive(s, runner(s), snapshot, runner, ())


STEP_DONE = object()       # what next() gives for a step that ended (drive)


def drive(s, steps, snapshot, runner, choices, answer=None):
    """Run a step's generator on until it ends or waits for a choice (then s is pending). A
    step started (answer None) is begun by next(): its end raises no StopIteration to catch."""
    try:
        if answer is None:
            need = next(steps, STEP_DONE)
            if need is STEP_DONE:
                return
        else:
            need = steps.send(answer)
    except StopIteration:
        return
    except Finished:
        return
    if snapshot is None:
        raise RulesRuntimeError("a choice was reached where none was expected")
    s.pending = Pending(snapshot, runner, True, choices, need.names, need.chooser, need.prompt,
                        need.public_names, need.weights, steps, s, s.current)
    s.current = need.chooser


def apply_move(s: State, move: Move):
    game = s.game
    game.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)
    s._legal = None
    name = move.name
    if s.shared:
        s.own_trails()
    s.history.append(name)
    if move.kind == "action" and game.flow[s.pc].op == "play":
        # the common case, without a closure: an action played in a turn
        index, args = move.action, move.args
        labelers = game.public_binder_labelers.get(index)
        s.public_history.append((s.current, name if labelers is None else move_name(s, index, args, labelers)))
        action = game.actions[index]
        if action.may_choose or game.triggers_may_choose:
            run_step(s, play_runner(index, args), True)
        else:
            s.choices, s.cursor = (), 0
            try:
                # the move is one of the legal moves just listed: its guard holds
                action.run_legal(s, *args)
                fire = game.fire_one_trigger
                if fire is not None and fire(s):
                    run_triggers(s, fired=1)     # (the first test inline: most moves fire none)
                s.pc += 1
            except Finished:
                pass
            except NeedChoice:
                raise RulesRuntimeError("a choice was reached where none was expected")
        if not s.terminal and s.pending is None:      # (advance, inline: every move comes here)
            game.run_flow(s)
        return
    s.public_history.append((s.current, public_text(s, move)))
    if move.kind == "choice":
        pending = s.pending
        choices = pending.choices + move.args
        if pending.steps is not None and pending.owner is s:
            # the state that stopped goes on from where its step stopped
            steps, pending.steps = pending.steps, None
            s.pending = None
            s.current = pending.current      # the chooser was only asked: the step goes on as it was
            drive(s, steps, pending.snapshot, pending.runner, choices, move.args[0])
            s._legal = None
            advance(s)
            return
        # a clone of a stopped state: the step again, from the copy taken before it
        if pending.snapshot.__class__ is Unbuilt:
            rebuild_snapshot(s, pending)
        new = pending.snapshot.clone() if pending.runner != game.setup_runner else setup_snapshot(pending.snapshot)
        new.history = s.history
        new.public_history = s.public_history
        if pending.snapshot.log_at is not None:
            new.log = pending.snapshot.log[:pending.snapshot.log_at]     # the log before the step
        new.pending = None
        new.choices, new.cursor = choices, 0
        drive(new, pending.runner(new), pending.snapshot, pending.runner, choices)
        new._legal = None
        s._become(new)
        advance(s)
        return
    instruction = game.flow[s.pc]
    if move.kind == "skip":
        s.pc += 1
    elif instruction.op == "simultaneous":
        remaining, sealed = s.env[instruction.key]
        s.env[instruction.key] = (remaining[1:], sealed + ((s.current, move.action, move.args),))
    else:
        action = game.actions[move.action]
        run_step(s, play_runner(move.action, move.args), action.may_choose or game.triggers_may_choose)
    advance(s)


class Unbuilt:
    """The copy from before a step, not taken (run_step): rebuild_snapshot makes it when asked."""
    __slots__ = ("rng",)

    def __init__(self, rng):
        self.rng = rng          # the random source before the step: the copy made must have it


def replayed(s, moves, rebuildable=True):
    """A new state: s's seed and its first `moves` moves played again, the rule coverage
    counts left as they were (those moves were counted when they were first played)."""
    coverage = s.game.coverage
    counted = list(coverage.counts) if coverage is not None else None
    try:
        again = s.game.new_initial_state(s.seed)
        again.rebuildable = rebuildable and again.rebuildable
        for name in s.history[:moves]:
            again.apply(name)
    finally:
        if counted is not None:
            coverage.counts[:] = counted
    return again


def rebuild_snapshot(s, pending):
    """The copy from before a stopped step that took none, for a clone of its state to replay
    the step from: the state that stopped, played again from its seed and moves by a state
    that copies before its steps. The copy is kept in the stopped step, which the state and
    all its clones share: the game is played again at most once per stopped step."""
    game = s.game
    try:
        # (the last move is the choice being applied; the copy takes copies before its steps)
        again = replayed(s, len(s.history) - 1, rebuildable=False)
    except IllegalMove as error:
        raise RulesRuntimeError(f"{UNREBUILT}: {error}") from error
    finally:
        game.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)      # (the choice's own budget)
    stopped = again.pending
    if stopped is None or stopped.snapshot.__class__ is Unbuilt or stopped.choices != pending.choices \
            or stopped.snapshot.rng != pending.snapshot.rng:
        raise RulesRuntimeError(f"{UNREBUILT}: played again, it does not stop at the same choice")
    pending.snapshot, pending.runner = stopped.snapshot, stopped.runner


UNREBUILT = ("this state's seed and moves do not make it again (was it changed by hand without "
             "State.changed()?)")


def filtered_domain(s, env, ins) -> tuple:
    """The values of a flow binder (for, simultaneous) that pass its filter, bound in turn."""
    domain, where = ins.fn
    values = []
    for value in list(domain(s, env)):
        env[ins.name] = value
        if where is None or where(s, env):
            values.append(value)
    return tuple(values)


def advance(s: State):
    """Run the flow until a player must decide, or the game ends."""
    if s.terminal or s.pending is not None:
        return
    s.game.run_flow(s)


def effect_runner(fn):
    """A flow statement that may choose, as a step (fn is a generator)."""
    def effect(state):
        yield from fn(state, state.env)
        state.pc += 1
    return effect


def flow_runs_on(s):
    raise RulesRuntimeError("the flow runs on without asking any player to move", s.game.flow[s.pc].span)


def dead_end(s, ins):
    raise DeadEnd(f"P{s.current} must play ({', '.join(s.game.actions[i].name for i in ins.actions)}) "
                  f"but has no legal move", ins.span)


def simultaneous_step(s, ins) -> bool:
    """A simultaneous decision: ask the next player who has not chosen (True: stop here), or
    reveal the sealed moves and apply them together."""
    env = s.env
    entry = env.get(ins.key)
    if entry is None:
        entry = env[ins.key] = (filtered_domain(s, env, ins), ())
    remaining, sealed = entry
    if remaining:
        s.current = seat(s, remaining[0], "a simultaneous move", ins.span)
        s._legal = None
        if s.listed():
            return True
        raise DeadEnd(f"P{s.current} must choose but has no legal move", ins.span)
    key = ins.key
    # the sealed moves are the last ones played: their public texts become known
    s.own_trails()
    history = s.public_history
    for k, (player, index, args) in enumerate(sealed, start=len(history) - len(sealed)):
        history[k] = (player, move_name(s, index, args, s.game.public_binder_labelers.get(index)))

    def reveal(state, sealed=sealed, key=key):
        for player, index, args in sealed:
            state.current = player
            yield from action_steps(state, index, args)
        del state.env[key]
        state.pc += 1
    run_step(s, reveal, any(s.game.actions[i].may_choose for i in ins.actions) or s.game.triggers_may_choose)
    return False


def finish_by_score(s):
    s.terminal = True
    if s.game.score is None:
        s.winners = []
        return
    scores = s.scores()
    if None in scores:          # the ranking needs numbers: said at the score's line
        score = next(f for f in s.game.program.game.fields if isinstance(f, ast.ScoreField))
        raise RulesRuntimeError(f"the game ends by the scores, but the score of P{scores.index(None) + 1} is none",
                                score.expr.span)
    best = max(scores)
    s.winners = [p for p, v in enumerate(scores, start=1) if v == best]


# ---- what a player sees ---------------------------------------------------------------------

def make_view(s: State, player: int) -> dict:
    game = s.game
    zones = {}
    for key, items in s.zones.items():
        if not items and not isinstance(key, str):
            continue
        name = key if isinstance(key, str) else key[0]
        kind, visibility, owner, index_types = game.zone_meta[name]
        shown = key_label(s, key, index_types)
        visible = visibility == "public" or (
            visibility == "owner" and owner is not None and key[owner + 1] == player)
        entry = {"count": len(items), "kind": kind}
        if visible:
            entry["items"] = [item_view(s.entities[x], x, player, shown_to(s, x, player)) for x in items]
        elif visibility == "top" and items:
            # only the top item is face up: the ones under it stay hidden
            entry["items"] = [item_view(s.entities[items[-1]], items[-1], player, shown_to(s, items[-1], player))]
        if not visible and s.shown_to:
            # what a `reveal` showed this player, where it lies (1: the bottom)
            revealed = [dict(item_view(s.entities[x], x, player, True), position=k)
                        for k, x in enumerate(items, start=1) if shown_to(s, x, player)
                        and not (visibility == "top" and k == len(items))]
            if revealed:
                entry["shown"] = revealed
        zones[shown] = entry
    values = {}
    for key in var_keys(s):
        name = key if isinstance(key, str) else key[0]
        if not var_entry_seen(game, key, player):
            continue
        _, _, index_types, t = game.var_meta[name]
        value = s.vars.get(key, game.var_defaults[name])
        values[key_label(s, key, index_types)] = game.labeler(t, player)(s, value)
    view = {
        "game": game.title, "player": player, "turn": s.turn,
        "current": None if s.terminal else s.current,
        "terminal": s.terminal, "winners": list(s.winners), "outcome": s.outcome(),
        "zones": zones, "vars": values,
        "boards": board_views(s, player),
        "log": s.log[-10:],
        "moves": public_moves(s, player),
    }
    if s.pending is not None:
        view["choice"] = {"chooser": s.pending.chooser, "prompt": s.pending.prompt}
    waiting = [(ins.key) for ins in game.flow if ins.op == "simultaneous" and ins.key in s.env]
    if waiting:
        view["sealed"] = [p for p, _, _ in s.env[waiting[0]][1]]
    if not s.terminal and s.current == player:
        view["legal_moves"] = s.legal_move_names()
    if game.score is not None:
        view["scores"] = s.scores()
    # how the table shows variables (`bookkeeping`, `status`): their values stay in "vars"
    display = {name: var.display for name, var in game.types.vars.items() if var.display}
    if display:
        view["display"] = display
    return view


def var_entry_seen(game, key, player) -> bool:
    """Whether a seat sees an entry of a variable (its name, or (name, *indexes)): a public
    variable's, an owner-only one's entries of its own seat, a hidden one's by nobody."""
    visibility, owner, _, _ = game.var_meta[key if key.__class__ is str else key[0]]
    if visibility == "owner":
        return owner is not None and key[owner + 1] == player
    return visibility != "hidden"


VIEW_ENTRIES = 2_000       # entries of one indexed variable listed in a view, at most


def var_keys(s) -> list:
    """The key of every variable's every entry, at its starting value or not, in the order of
    declaration: a view shows every value it may (a variable with more than VIEW_ENTRIES
    entries, only those that were set)."""
    game = s.game
    keys, listed = [], set()
    for name, (_, _, index_types, _) in game.var_meta.items():
        if not index_types:
            keys.append(name)
            continue
        domains = [index_values(s, name, position, t) for position, t in enumerate(index_types)]
        total = 1
        for domain in domains:
            total *= len(domain)
        if total <= VIEW_ENTRIES:
            for combination in itertools.product(*domains):
                keys.append((name, *combination))
    listed = set(keys)
    keys += [key for key in s.vars if key not in listed]     # set outside the declared indexes (by hand)
    return keys


def index_values(s, name, position, t) -> list:
    game = s.game
    if t in game.geometries:
        return list(game.geometries[t].cells)
    if t in game.enum_members:
        return list(game.enum_members[t])
    if t in game.types.components:
        return list(s.by_type.get(t, ()))
    element, allowed, _ = game.compiler.index_domains(name)[position]
    return sorted(allowed) if allowed is not None else []


def shown_to(s, x, player) -> bool:
    """Whether a `reveal` showed component x to the player (and it has not moved since)."""
    seats = s.shown_to.get(x)
    return seats is not None and player in seats


def item_view(entity, eid, player=None, shown=False):
    """A visible entity: its id and label, and its owner when it has one (every component
    type has an `owner` attribute; a player sees whose piece it is). Attributes that only the
    owner may see are masked in the label others get (unless a `reveal` showed it to them)."""
    if "__public_label__" in entity and entity.get("owner") != player and not shown:
        # seen masked: its id would tell which one it is (ids follow the order of creation)
        item = {"label": entity["__public_label__"]}
    else:
        item = {"id": eid, "label": entity["__label__"]}
    if entity.get("owner") is not None:
        item["owner"] = entity["owner"]
    return item


def key_label(s, key, index_types):
    if isinstance(key, str):
        return key
    parts = [s.label(v, t) for v, t in zip(key[1:], index_types)]
    return f"{key[0]}[{', '.join(parts)}]"


def board_views(s, player):
    """Each board as a grid of marks: the values of the vars and the top items of the zones
    indexed by its cells, where the viewer may see them. Those indexed by [Board] make one
    drawing named after the board; those indexed by [Player, Board] make one per seat, named
    'Board[P1]'... (a board with neither is drawn empty, once)."""
    game = s.game
    out = {}
    indexed = layer_types(game)
    for name, geometry in game.geometries.items():
        per_seat = ["Player", name] in indexed
        plain = [name] in indexed
        layers = [([name], (), name)] if plain or not per_seat else []
        if per_seat:
            layers += [(["Player", name], (p,), f"{name}[P{p}]") for p in range(1, game.num_players + 1)]
        for index_types, prefix, shown in layers:
            marks = cell_marks(s, player, geometry, index_types, prefix)
            out[shown] = {
                "kind": geometry.kind, "rows": geometry.rows, "cols": geometry.cols,
                "cells": [{"label": s.entities[c]["__label__"], "row": s.entities[c]["row"],
                           "col": s.entities[c]["col"], "marks": marks.get(c, [])} for c in geometry.cells],
            }
            if prefix:
                out[shown]["player"] = prefix[0]
            # the zones and partitions drawn here (a text view need not list them again)
            out[shown]["zones"] = [z for z, meta in game.zone_meta.items() if meta[3] == index_types]
            out[shown]["parts"] = [v for v, meta in game.var_meta.items()
                                   if meta[2] == index_types and strip_optional(meta[3]) == name]
            out[shown]["vars"] = [v for v, meta in game.var_meta.items() if meta[2] == index_types]
    return out


def layer_types(game):
    """The index types of every var and zone."""
    return [meta[2] for meta in game.var_meta.values()] + [meta[3] for meta in game.zone_meta.values()]


def cell_marks(s, player, geometry, index_types, prefix):
    """cell -> the marks the viewer sees on it, from the vars and zones indexed by
    `index_types` (prefix: the values of the indexes before the cell)."""
    game = s.game
    marks = {}

    def allowed(visibility, owner):
        if visibility == "owner":
            return owner is not None and owner < len(prefix) and prefix[owner] == player
        return visibility in ("public", "top")

    for var, (visibility, owner, types, t) in game.var_meta.items():
        # a var that maps each cell to a cell of the same board splits the board into parts:
        # a drawing shows their borders (from the view's vars), not a mark per cell
        if types == index_types and allowed(visibility, owner) and strip_optional(t) != geometry.name:
            for cell in geometry.cells:
                value = s.vars.get((var, *prefix, cell))
                if value is not None and value != game.var_defaults[var]:
                    marks.setdefault(cell, []).append(game.labeler(t, player)(s, value))
    for zone, (kind, visibility, owner, types) in game.zone_meta.items():
        if types == index_types and allowed(visibility, owner):
            for cell in geometry.cells:
                items = s.zones.get((zone, *prefix, cell))
                if items:
                    marks.setdefault(cell, []).append(item_view(s.entities[items[-1]], items[-1], player)["label"])
    return marks


# ---- loading ------------------------------------------------------------------------------

class ParamValueError(RulesRuntimeError):
    """A typed param of the wrong type or outside its range (`given`: a value given when loading)."""

    def __init__(self, message, span, given):
        super().__init__(message, span)
        self.given = given


def typed_params(program) -> dict:
    """name -> declaration of the params declared with a type: those a loader may set."""
    return {d.node.name: d.node for d in program.declarations.values()
            if isinstance(d.node, ast.Param) and d.node.type is not None}


PARAM_INT = re.compile(r"[-+]?[0-9]{1,18}")


def param_values(program, params, here):
    """The values given for typed params ({name: int, bool, or its text: '8', 'true'}) as
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
        kind = param.type.name
        if isinstance(value, str):
            text = value.strip()
            if kind == "bool" and text.lower() in ("true", "false"):
                value = text.lower() == "true"
            elif kind == "int" and PARAM_INT.fullmatch(text):
                value = int(text)
        if kind == "bool" and value.__class__ is not bool or kind == "int" and value.__class__ is not int:
            shown = value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else plain_label(value)
            want = "true or false" if kind == "bool" else "a whole number (of at most 18 digits)"
            return None, Diagnostic("E604", f"param '{name}' is {want}, not {str(shown)[:40]!r}", param.span)
        values[name] = value
    return values, None


def load_game(path, options=(), players=None, coverage=False, params=None, chance="sampled", texts=None):
    """Read, check and compile a rules file (with coverage: counting what its rule tags stand
    on; with params, {name: value}, the values of typed params; chance "explicit": shuffles and
    picks as chance nodes, see State.is_chance_node; texts: an editor's unsaved buffers, see
    load_program). Returns (game or None, diagnostics, sources). A compiled module (a .py file
    `referee compile -o` wrote) loads as its rules with its settings, and its functions run."""
    module = None
    if is_compiled_module(path):
        module, problem = opened(path, options, players, params)
        if problem is not None:
            return None, [problem], {}
        path, texts = module.rules_path, {os.path.realpath(file): text for file, text in module.rules.items()}
        options, players, params = module.options, module.players, module.params
        if (coverage, chance == "explicit") != (module.coverage, module.explicit_chance):
            module = None       # compiled otherwise: compiled again from its rules
    try:
        program, diagnostics, sources = load_program(path, texts=texts)
        if program is None or diagnostics:
            return None, diagnostics, sources
        diagnostics = check(program, sources)
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
        game = Game(program, sources, options, players, coverage, values, chance, module)
    except ParamValueError as error:
        code = "E604" if error.given else "E701"
        return None, [Diagnostic(code, str(error).split("runtime error: ", 1)[-1], error.span)], sources
    except DeclarationError as error:
        return None, [Diagnostic(error.code, error.message, error.span, error.hint)], sources
    except RulesRuntimeError as error:
        span = error.span or here
        return None, [Diagnostic("E701", str(error).split("runtime error: ", 1)[-1], span)], sources
    except RecursionError:       # an expression nested deeper than the compiler follows
        return None, [Diagnostic("E701", "this file nests expressions or blocks too deeply to compile", here,
                                 "split the deepest expressions into functions")], sources
    return game, [], sources
