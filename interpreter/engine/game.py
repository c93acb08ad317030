"""Game: a checked program compiled for one choice of options, params and player count, what it
builds once (declarations, boards, labelers, move namers), and the new states it starts."""
from __future__ import annotations

import functools
from fractions import Fraction
from typing import Iterable, Optional

import attrs

from referee.dsl import ast
from referee.dsl.builtins import BUILTIN_ENUMS
from referee.dsl.checks import check
from referee.dsl.orders import member_positions
from referee.dsl.templates import parse_template
from referee.dsl.types import BOOL, FRACTION, INT, PLAYER, TEXT, ListOf, MapOf, SetOf, element_type, named_type, written_type
from referee.dsl.limits import MAX_BOARD_CELLS, MAX_STEP_ROUNDS, MAX_STEP_WORK, MAX_TEXT

from ..runtime import random_source
from ..runtime import stdlib
from ..runtime.boards import build_geometry, grid_cells, hex_cells, map_geometry, place_neighbors, route_labels, route_neighbors
from ..compile.compiler import PUBLIC, Compiler, names_in
from ..compile.generated_names import ComponentColumn
from ..runtime import entity_labeler, list_labeler, plain_labeler, player_labeler, seen_labeler
from ..runtime.sets import set_labeler
from ..runtime.value_maps import map_labeler
from ..runtime.writes import entity_column_value
from .coverage import Coverage
from ..runtime.errors import DeclarationError, Finished, RulesRuntimeError
from .labels import LABEL_OF, plain_label
from .moves import LISTED
from .located import PYTHON_ERRORS, located
from .params import ParamValueError, player_range, typed_params
from .state import State
from .decisions import decision_steps, respond_steps
from .steps import (advance, dead_end, drive, effect_runner, filtered_domain, finish_by_score, flow_runs_on, run_step,
                    setup_snapshot, simultaneous_step)


class Game:
    def __init__(self, program, sources, options: Iterable[str] = (), num_players: Optional[int] = None,
                 coverage: bool = False, params: Optional[dict] = None, chance: str = "sampled",
                 passes_off: Iterable[str] = (), checked=None, module=None):
        self.passes_off = frozenset(passes_off)     # the compiler's passes switched off (compile/passes)
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
        self.member_positions = member_positions(self.enum_members)      # (index(m), and < on members)
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
        self.place_ids = {}            # a place of a places board -> its entity
        self.static_by_type = {}
        self.label_templates = {}
        self.score = None
        self.declared_returns = None   # f(s, p) of `returns p: EXPR`, when the header has it
        returns_field = next((f for f in program.game.fields if isinstance(f, ast.ReturnsField)), None)
        self.returns_span = returns_field.span if returns_field is not None else None
        # with coverage, the generated code counts what the rule tags stand on (coverage.py)
        self.coverage = Coverage(program, sources) if coverage else None
        # (module: a compiled module of these rules and settings, whose functions run: module.py)
        compiler = Compiler(checked if checked is not None else check(program, sources), self, sources, module)
        self.types = compiler.types
        self._setup_declarations(compiler)
        compiler.codegen.namespace.update(
            run_step=run_step, effect_runner=effect_runner, filtered_domain=filtered_domain,
            flow_runs_on=flow_runs_on, dead_end=dead_end, simultaneous_step=simultaneous_step,
            finish_by_score=finish_by_score, decision_steps=decision_steps, respond_steps=respond_steps)
        rules = compiler.compile_all()
        self.actions, self.action_index, self.functions, self.procedures = (
            rules.actions, rules.action_index, rules.functions, rules.procedures)
        self.triggers_may_choose, self.fire_one_trigger, self.trigger_span = (
            rules.triggers_may_choose, rules.fire_one_trigger, rules.trigger_span)
        self.invariants, self.setup_may_choose, self.setup, self.setup_parts = (
            rules.invariants, rules.setup_may_choose, rules.setup, rules.setup_parts)
        self.flow, self.run_flow, self.score, self.declared_returns = (
            rules.flow, rules.run_flow, rules.score, rules.declared_returns)
        self.teams = rules.teams        # f(s, p) of `teams p: EXPR`, when the header has it
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
            if any(named_type(b[3]) in self.private_fields for b in a.binders)
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
        self.argument_is_component = [tuple(named_type(b[3]) in self.types.components for b in a.binders)
                                      for a in self.actions]
        # (a binder over lists of components, a subset of a hand: two moves alike item by item are one)
        self.argument_lists_components = [tuple(isinstance(b[3], ListOf) and named_type(
            b[3].element) in self.types.components for b in a.binders) for a in self.actions]
        # Where a template names every argument, equal labels mean equal names.
        self.dedupe_by_labels = []
        for action, (parts, _), lists in zip(self.actions, self.templates, self.argument_lists_components):
            named = {position for _, position in parts if position is not None}
            if named == set(range(len(action.binders))):
                self.dedupe_by_labels.append(tuple(
                    LISTED if listed else (named_type(b[3]) in self.types.components or named_type(b[3]) in self.types.boards)
                    for b, listed in zip(action.binders, lists)))
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
    @functools.cached_property
    def may_lose(self) -> bool:
        """Whether the rules may `finish lost` (every player loses: returns down to -1); asked
        by few, so found when first asked (a walk of the whole syntax tree)."""
        return any(isinstance(n, ast.FinishLost) for n in ast.walk(self.program.parts()))

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
        self.component_maximum = {}
        for component in self.types.components.values():
            if component.maximum is not None:
                most = compiler.constant(component.maximum)
                if most.__class__ is not int or most < 0:
                    raise DeclarationError("E701", f"there may be {plain_label(most)} components of {component.name}",
                                           component.maximum.span, "a maximum is a whole number, 0 or more")
                self.component_maximum[component.name] = most
            if component.label:
                self.label_templates[component.name] = component.label
            private = {f.name for f in component.fields if f.visibility == "owner"}
            if private:
                self.private_fields[component.name] = private
        for board in self.types.boards.values():
            shape = board.shape
            if isinstance(shape, (ast.PlacesShape, ast.RoutesShape)):
                continue            # (after the grids and hex maps: _map_boards)
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
                    exists = compiler.compile_time_function(shape.condition, self.types.globals.child(row=INT, col=INT))
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
        self._map_boards(compiler)
        for var in self.types.vars.values():
            t = compiler.declared_type(var.type)
            if var.initial is not None:
                read = variable_read(var.initial, self.types, self.var_defaults)
                if read is not None:
                    raise RulesRuntimeError(f"'{read.id}' is read before the game starts: an initial value or a "
                                            f"param cannot depend on a variable", read.span)
                self.var_defaults[var.name] = compiler.constant(var.initial)
                players = compiler.player_values(var.name)
                if players is not None and self.var_defaults[var.name] not in players:
                    raise RulesRuntimeError(f"{var.name} is a player, but starts at {self.var_defaults[var.name]!r} "
                                            f"(players are 1..{self.num_players})", var.initial.span)
            else:
                self.var_defaults[var.name] = {INT: 0, FRACTION: 0, BOOL: False}.get(t, None)
            if var.low is not None:
                self.var_ranges[var.name] = self._var_range(compiler, var)
        # name -> (kind, visibility, owner: the position of its Player index or None, the Type
        # of each index); a var's last its own Type
        self.zone_meta = {}
        for zone in self.types.zones.values():
            index_types = [element_type(compiler.type_value(d, self.types.globals)) for d in zone.index]
            owner = index_types.index(PLAYER) if PLAYER in index_types else None
            self.zone_meta[zone.name] = (zone.kind, zone.visibility, owner, index_types)
        self.var_meta = {}
        for var in self.types.vars.values():
            index_types = [element_type(compiler.type_value(d, self.types.globals)) for d in var.index]
            owner = index_types.index(PLAYER) if PLAYER in index_types else None
            self.var_meta[var.name] = (var.visibility, owner, index_types, compiler.declared_type(var.type))

    def _map_boards(self, compiler):
        """The places boards and the routes between their places: each place and each route an
        entity (a route with its `ends` and the attributes of its line); the places' neighbours
        are the places a route joins them to, a route's the routes sharing a place with it."""
        maps = [b for b in self.types.boards.values() if isinstance(b.shape, (ast.PlacesShape, ast.RoutesShape))]
        if not maps:
            return
        routes_ends: dict = {}         # places board -> (its place -> routes' ends)
        for board in maps:
            if isinstance(board.shape, ast.PlacesShape):
                eids = []
                for place in board.shape.places:
                    self.place_ids[place.name] = len(self.static_entities)
                    eids.append(len(self.static_entities))
                    self.static_entities.append({"__type__": board.name, "__label__": place.name})
                self.geometries[board.name] = map_geometry(board.name, "places", eids, {})
        for board in maps:
            if isinstance(board.shape, ast.RoutesShape):
                eids, ends = [], []
                routes = board.shape.routes
                labels = route_labels([(r.start.name, r.end.name) for r in routes])
                for route, label in zip(routes, labels):
                    pair = [self.place_ids[route.start.name], self.place_ids[route.end.name]]
                    eids.append(len(self.static_entities))
                    ends.append(pair)
                    attributes = {i.name: compiler.constant(i.value) for i in route.inits}
                    self.static_entities.append({"ends": pair, **attributes, "__type__": board.name, "__label__": label})
                self.geometries[board.name] = map_geometry(board.name, "routes", eids, route_neighbors(eids, ends),
                                                           dict(zip(eids, ends)))
                routes_ends.setdefault(board.shape.places, []).extend(ends)
        for board in maps:
            geometry = self.geometries[board.name]
            if geometry.kind == "places":
                geometry.neighbors.update((place, tuple(near)) for place, near in
                                          place_neighbors(geometry.cells, routes_ends.get(board.name, [])).items())
            self.static_by_type[board.name] = list(geometry.cells)
            for eid in geometry.cells:
                self.geometry_by_cell[eid] = geometry

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
        kind = written_type(param.type)
        if kind == BOOL:
            if value.__class__ is not bool:
                raise ParamValueError(f"param '{param.name}' is true or false, not {plain_label(value)}", param.span, given)
            return
        if kind == TEXT:
            if value.__class__ is not str:
                raise ParamValueError(f"param '{param.name}' is a text, not {plain_label(value)}", param.span, given)
            if len(value) > MAX_TEXT:
                raise ParamValueError(f"param '{param.name}' is a text of at most {MAX_TEXT:,} characters, "
                                      f"not {len(value):,}", param.span, given)
            return
        if value.__class__ is not int and not (kind == FRACTION and value.__class__ is Fraction):
            raise ParamValueError(f"param '{param.name}' is {'a number' if kind == FRACTION else 'a whole number'}, "
                                  f"not {plain_label(value)}", param.span, given)
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

    def component_column(self, name) -> ComponentColumn:
        """The generated name of the list that holds attribute `name` of every component,
        indexed by the component (attributes never change once created): `_A<k>`, bound from
        `s.columns[k]` at the top of a generated function."""
        k = self.column_index.get(name)
        if k is None:
            k = self.column_index[name] = len(self.column_index)
        return ComponentColumn(f"_A{k}")

    def column_locals(self) -> dict:
        """The local of each component attribute's column so far (component_column) -> its
        index in the state's columns."""
        return {self.component_column(name): k for name, k in self.column_index.items()}

    def cell_column(self, name) -> list:
        """The attribute `name` of every board cell, indexed by the cell (cells never change)."""
        if name not in self.cell_columns:
            self.cell_columns[name] = [entity.get(name) for entity in self.static_entities]
        return self.cell_columns[name]

    def labeler(self, t, viewer=None):
        """f(s, value) -> the text for a value of type t (a Type value). viewer None: the full text (the
        referee's); a seat, or PUBLIC: what that seat sees (owner-only attributes of components
        it does not own read '?')."""
        t = t.without_none()
        if t == PLAYER:
            return player_labeler()
        name = named_type(t)
        if viewer is not None and name in self.private_fields:
            return seen_labeler(viewer)
        if name in self.types.components or name in self.types.boards:
            return entity_labeler()
        if isinstance(t, ListOf):
            return list_labeler(self.labeler(t.element, viewer))
        if isinstance(t, SetOf):
            return set_labeler(self.labeler(t.element, viewer), self.member_positions)
        if isinstance(t, MapOf):
            listed = any(isinstance(part.without_none(), (ListOf, SetOf, MapOf)) for part in (t.key, t.value))
            return map_labeler(self.labeler(t.key, viewer), self.labeler(t.value, viewer), self.member_positions,
                               "; " if listed else ", ")
        return plain_labeler()

    def namer(self, action, parts, tail):
        """A generated f(s, *args) -> the move's full name, from the action's template (its
        {expressions}' functions kept for the masked public text: moves.expression_text)."""
        namer, labels = self.compiler.move_namer(action, parts, tail)
        for k, (node, label, names) in enumerate(labels):
            self.label_expressions[(action.index, k)] = (label, names)
            self.label_expression_order.setdefault(action.index, []).append(node)
        return namer

    def parse_template(self, template, names, action=None):
        """([(literal text, what follows it)], tail): what follows is an argument's position, an
        {expression} of the label (its node, of action `action`), or None."""
        parts = []
        pairs, tail = parse_template(template).split()
        for before, placeholder in pairs:
            inside = placeholder.inside
            if inside in names:
                shown = names.index(inside)
            else:
                shown = self.types.label_expressions.get((action, inside)) if action is not None else None
            parts.append((before, shown))
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
        # tuples from now on: a type created in play (one with a maximum) gets a new one
        s.by_type = {k: tuple(v) for k, v in s.by_type.items()}
        for type_name in self.component_maximum:
            s.by_type.setdefault(type_name, ())
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


def variable_read(node, types, variables) -> Optional[ast.Name]:
    """The first read of one of `variables` in an initial value, through the functions it calls:
    no variable holds a value before the game starts (local names never hide one: E210)."""
    pending, called = [node], set()
    while pending:
        for n in ast.walk(pending.pop()):
            if isinstance(n, ast.Name) and n.id in variables:
                return n
            if isinstance(n, ast.Call) and n.name in types.functions and n.name not in called:
                called.add(n.name)
                pending.append(types.functions[n.name].body)
    return None
