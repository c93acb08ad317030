"""The rules' statements lowered to the IR (ir.py): a visitor over the statement nodes that
builds a generated function's statements (locals, the state's variables, zones and attributes
written through named operations with their checks, loops with their budgets, choices).
Expressions are codegen.py's IR (see `value`)."""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.limits import MAX_LOG_LINE, MAX_NUMBER
from referee.dsl.parser import parse_expression
from referee.dsl.templates import parse_template
from referee.dsl.types import INT, PLAYER, TEXT, ListOf, Named, OptionalOf, Type, ZoneOf, element_type, named_type

from ..runtime import LOOP_CAP, SeatTexts
from ..runtime.values import EMPTY_VALUE
from ..runtime.errors import RulesRuntimeError
from . import ir
from .caching import Stamp
from .expression_facts import attributes_read_once, truth
from .generated_names import RulesLocal
from .lower_flow import located
from .work import ROUND_FREE_WORK

PUBLIC = 0      # a viewer who is no player: sees only what everybody may see
STATE = ir.TheState()
NONE = ir.Constant(None)
PLAIN = (type(None), bool, int, str)     # values whose literal is their repr


def call(function: str, *args: ir.Expression) -> ir.ExpressionStatement:
    return ir.ExpressionStatement(ir.Call(function, args))


def is_temporary_local(value: ir.Expression) -> bool:
    """Whether a value is a local this lowering bound (a checked value), not a rules local:
    a rules local is copied before a write that tells a table by value (as it always was)."""
    return isinstance(value, ir.Local) and not isinstance(value.name, RulesLocal)


def negated(test: ir.Expression) -> ir.Not:
    """`not (test)`: in the parentheses the test's host text always had (a pass may drop them)."""
    return ir.Not(ir.Grouped(test))


def guard(test: ir.Expression, *then: ir.Statement, orelse: tuple = ()) -> ir.Guard:
    return ir.Guard(test, then, orelse)


def exhausted_budget(budget: int) -> ir.Compare:
    return ir.Compare("<", ir.Budget(budget), ir.Constant(0))


class StatementLowering:
    """The statement compiler: a mixin of the Compiler (compiler.py), whose tables it reads.
    Each `visit_<Statement>` appends the statements a rules statement becomes to `out`."""

    # ---- types ----
    def is_component(self, t: Type) -> bool:
        """Whether t (a Type value) is a component type."""
        return isinstance(t, Named) and t.name in self.types.components

    def is_entity(self, t: Type) -> bool:
        """Whether t names things labelled as entities: a component type or a board (its cells)."""
        return isinstance(t, Named) and (t.name in self.types.components or t.name in self.types.boards)

    def declared_type(self, node) -> Type:
        """The Type value of a type as the rules write it (a parameter's, a variable's)."""
        return self.types.type_name(node)

    def var_type(self, name) -> Type:
        return self.declared_type(self.types.vars[name].type)

    def private_fields_of(self, t: Type):
        """The owner-only attributes of a component type (none for any other type)."""
        return self.game.private_fields.get(t.name, ()) if isinstance(t, Named) else ()

    def items_type(self, node, scope) -> Type:
        """The type of the items of a list or a zone, never none."""
        return element_type(self.type_value(node, scope)).without_none()

    # ---- expressions: codegen's IR ----
    def value(self, node, scope, ctx) -> ir.Expression:
        """An expression as IR: a constant, else codegen's IR."""
        value = self.codegen.lower(node, scope, ctx)
        constant = self.codegen.constant_of(node, ctx)
        if constant is not None and type(constant[0]) in PLAIN and not (
                isinstance(node, ast.Name) and self.codegen.is_local(node.id, scope, ctx)):
            return ir.Constant(constant[0])
        return value

    def condition(self, node, scope, ctx) -> ir.Expression:
        """A condition as IR, where only its truth counts (an if, a filter)."""
        return truth(self.codegen.lower(node, scope, ctx))

    def sequence(self, node, scope, ctx) -> ir.Expression:
        """An expression whose items are asked for as IR: a zone's content when it is a zone."""
        return self.codegen.collection_node(node, scope, ctx)

    def literal(self, value) -> ir.Expression:
        """A value the game knows as IR: its literal, or the name it is bound to."""
        return self.codegen.literal_node(value)

    def spanned(self, span, hint="span") -> ir.Global:
        return ir.Global(self.codegen.bind(span, hint))

    @staticmethod
    def local(name, ctx) -> ir.Expression:
        """A rules local as IR: a Python local, or an entry of the flow's environment."""
        return ctx.name(name)

    @staticmethod
    def set_local(name, ctx, value) -> ir.Statement:
        if name in ctx.bound or ctx.mode == "local":
            return ir.Assign(ctx.local(name), value)
        return ir.WriteEnv(name, value)

    # ---- blocks ----
    def statements(self, statements, scope, ctx) -> tuple:
        """A block of the rules as IR: each statement a Rule (its comment, its coverage counter,
        what it became), in a scope of its own."""
        scope = scope.child()
        out = []
        for statement in statements:
            node = ast.untag(statement)[0]
            body = self.count(self.counter(node))
            self.dispatch(node, scope, ctx, body)
            out.append(ir.Rule(tuple(located(s, node.span) for s in body), node.span))
        return tuple(out)

    def count(self, k, slot=0) -> list:
        """With coverage, one more for counter k + slot."""
        return [] if k is None else [ir.CountCoverage(k + slot)]

    # ---- writes and their checks ----
    def visit_Let(self, node, scope, ctx, out):
        value = self.chance_value(node.value, scope, ctx, out) or self.value(node.value, scope, ctx)
        scope.names[node.name] = self.type_value(node.value, scope)
        out.append(self.set_local(node.name, ctx, value))

    def assigns_local(self, target, scope) -> bool:
        return scope.lookup(target.name) is not None and target.name not in self.types.globals.names \
            and not target.indexes

    def set_attribute(self, node, value, scope, ctx, out):
        """x.a = value: the component's attribute changes in this state (its labels with it)."""
        target = node.target
        out.append(call("set_attribute", STATE, self.local(target.name, ctx), ir.Constant(target.attribute), value,
                        self.spanned(node.span)))
        self.invalidate(Stamp("attribute", target.attribute), out)

    def visit_Assign(self, node, scope, ctx, out):
        target = node.target
        public = isinstance(target, ast.Target) and target.name in self.game.var_meta and \
            not self.assigns_local(target, scope) and self.game.var_meta[target.name][0] == "public"
        value = self.chance_value(node.value, scope, ctx, out, public) or self.value(node.value, scope, ctx)
        if isinstance(node.target, ast.AttributeTarget):
            declared = self.types.fields_of(scope.lookup(target.name))[target.attribute]
            value = self.attribute_stored(node.value, value, declared, f"{target.name}.{target.attribute}", scope, out)
            return self.set_attribute(node, value, scope, ctx, out)
        if self.assigns_local(node.target, scope):
            if scope.lookup(node.target.name) == INT:
                value = self.bounded(value, node.span, out)
            out.append(self.set_local(node.target.name, ctx, value))
            return
        key = self.checked_key(node.target.name, node.target.indexes, node.span, scope, ctx, out)
        value = self.never_none_stored(node.value, value, self.var_type(target.name), target.name, scope, out)
        if not (isinstance(node.value, ast.Name) and node.value.id == "current"):
            value = self.player_checked(node.target.name, value, node.span, out)
        if self.is_number(node.target.name):
            value = self.in_range(node.target.name, self.bounded(value, node.span, out), node.span, out)
        key, value = self.index_write(node.target.name, key, value, out)
        out.append(ir.WriteVar(key, value))
        self.invalidate(Stamp("variable", node.target.name), out)

    def temporary(self, hint, value, out) -> ir.Local:
        temp = self.fresh(hint)
        out.append(ir.Assign(temp, value))
        return ir.Local(temp)

    def never_none_stored(self, node, value, declared, what, scope, out) -> ir.Expression:
        """A value that may be none (its type ends in '?') about to be stored where the declared
        type (a Type value) has no '?': a located error at the write if it is none, not a none
        stored that fails later, far from its cause (the checker cannot know which values are there)."""
        if declared.may_be_none() or not isinstance(self.type_value(node, scope), OptionalOf):
            return value
        temp = self.temporary("_value", value, out)
        remedy = "test the value first" if declared.is_list() else \
            f"declare it '{declared}?' if it may be none, or test the value first"
        message = f"{what} holds {declared.describe()}, but is given none here ({remedy})"
        out.append(guard(ir.Compare("is", temp, NONE), call("stored_none", ir.Constant(message), self.spanned(node.span))))
        return temp

    def attribute_stored(self, node, value, declared, what, scope, out) -> ir.Expression:
        """A value about to be stored in a component's attribute of type `declared` (a Type value): not none
        without a '?', a seat for a Player (its owner too)."""
        value = self.never_none_stored(node, value, declared, what, scope, out)
        return self.player_checked(what, value, node.span, out, declared)

    def player_checked(self, name, value, span, out, declared=None) -> ir.Expression:
        """A value about to be stored in a Player variable (or an attribute `declared` Player):
        a seat (or none if it is optional)."""
        players = self.seats_of_type(declared) if declared is not None else self.player_values(name)
        if players is None:
            return value
        temp = self.temporary("_value", value, out)
        seats = ir.Global(self.codegen.bind(players))
        out.append(guard(ir.Compare("not in", temp, seats), call(
            "not_a_player", STATE, ir.Constant(name), temp, ir.Global(self.codegen.bind(span)))))
        return temp

    def index_write(self, name, key, value, out):
        """Before a write to a variable that a table by value follows (var_indexes): the table
        is told, if the state has built it. The key and value to write, as locals."""
        if name not in self.game.var_positions:
            return key, value
        if not isinstance(key, ir.Local):
            key = self.temporary("_key", key, out)
        if not is_temporary_local(value):
            value = self.temporary("_value", value, out)
        default = self.literal(self.game.var_defaults[name])
        out.append(guard(ir.Compare("in", ir.Constant(name), ir.ReadState("var_index")), call(
            "var_index_write", STATE, ir.Constant(name), ir.Item(key, ir.Constant(1)), ir.ReadVar(key, default), value)))
        return key, value

    def is_number(self, name) -> bool:
        return self.var_type(name).without_none() == INT

    def bounded(self, value, span, out) -> ir.Expression:
        """A number about to be stored, checked against MAX_NUMBER: numbers that grow without
        bound (doubled round after round) stop at the line instead of eating the memory."""
        if isinstance(value, ir.Constant) and type(value.value) is int and abs(value.value) <= MAX_NUMBER:
            return value          # a literal within the bounds: nothing to check
        temp = self.temporary("_number", value, out)
        # the bounds as literals: no name to look up on a hot path
        out.append(self.outside(temp, -MAX_NUMBER, MAX_NUMBER, call("number_too_large", temp, self.spanned(span))))
        return temp

    @staticmethod
    def outside(value, low, high, error) -> ir.Guard:
        """`error` when a number (not none) is outside low..high."""
        return guard(ir.BoolOp("and", (ir.Compare("is not", value, NONE),
                                       ir.Not(ir.Between(ir.Constant(low), value, ir.Constant(high))))), error)

    def in_range(self, name, value, span, out) -> ir.Expression:
        """A number about to be stored in a variable with a declared range, checked against it
        (a literal when the game is compiled): a value outside is an error at the line, never
        stored, since search bots draw such a variable's hidden values from its range."""
        declared = self.game.var_ranges.get(name)
        if declared is None:
            return value
        low, high = declared
        if isinstance(value, ir.Constant) and type(value.value) is int:
            if not low <= value.value <= high:
                raise RulesRuntimeError(f"{name} is given {value.value}, outside its range {low}..{high}", span)
            return value
        if not is_temporary_local(value):
            value = self.temporary("_number", value, out)
        out.append(self.outside(value, low, high, call("outside_range", ir.Constant(name), value, ir.Constant(low),
                                                        ir.Constant(high), self.spanned(span))))
        return value

    def checked_key(self, name, indexes, span, scope, ctx, out) -> ir.Key:
        """The key of a write to a variable (or of a zone a component is put in), each index
        that may fall outside the declared indexes checked first (a located error, not a silent
        new entry): ranges and players by value, cells, enum members and components by not
        being none. A literal outside a range is an error when the game is compiled."""
        parts = []
        for index, (element, allowed, shown) in zip(indexes, self.index_domains(name) if indexes else ()):
            source = self.value(index, scope, ctx)
            if isinstance(index, ast.Integer) and allowed is not None:
                if index.value not in allowed:
                    raise RulesRuntimeError(f"{name}[{index.value}] is outside the indexes declared for {name} ({shown})",
                                            index.span)
                parts.append(source)
                continue
            if allowed is None and (self.codegen.never_none(index, scope, ctx) or self.listed(index, scope)):
                parts.append(source)          # a binder over a zone or a type: never outside
                continue
            if element == PLAYER and isinstance(index, ast.Name) and index.id == "current" \
                    and not self.codegen.is_local("current", scope, ctx):
                parts.append(source)          # the player to move: always a seat (seat() gives turns)
                continue
            temp = self.temporary("_index", source, out)
            test = ir.Compare("is", temp, NONE) if allowed is None else \
                ir.Compare("not in", temp, ir.Global(self.codegen.bind(allowed)))
            out.append(guard(test, call("outside_indexes", STATE, ir.Constant(name), temp, ir.Constant(shown),
                                        ir.Global(self.codegen.bind(span)))))
            parts.append(temp)
        return ir.Key(name, tuple(parts))

    def listed(self, node, scope) -> bool:
        """Whether a name is an action's argument over a zone or a type (not a procedure's
        parameter, which a caller may give none, nor a local that hides the argument)."""
        if not isinstance(node, ast.Name):
            return False
        while scope is not None and node.id not in scope.names:
            scope = scope.parent
        return scope is not None and id(scope) in self.listed_scopes

    def index_domains(self, name) -> list:
        """(element type, a Type value; the values allowed or None; how to say it) of each index of
        a var or a zone."""
        known = self.index_domain_cache.get(name)
        if known is None:
            known = []
            for domain in (self.types.vars.get(name) or self.types.zones[name]).index:
                element = self.items_type(domain, self.types.globals)
                if element == PLAYER:
                    allowed = frozenset(range(1, self.game.num_players + 1))
                    known.append((element, allowed, f"players 1..{self.game.num_players}"))
                elif element == INT:
                    allowed = frozenset(self.constant(domain))
                    shown = f"{min(allowed)}..{max(allowed)}" if allowed and len(allowed) == max(allowed) - min(allowed) + 1 \
                        else ", ".join(map(str, sorted(allowed)))
                    known.append((element, allowed, shown))
                else:
                    known.append((element, None, f"a {element.text}"))
            self.index_domain_cache[name] = known
        return known

    def player_values(self, name):
        """The values a Player variable may hold (none too if it is optional), or None for a
        variable of another type."""
        return self.seats_of_type(self.var_type(name))

    def seats_of_type(self, t: Type):
        """The values a place of type t may hold if it is a Player (or Player?), else None."""
        if t.without_none() != PLAYER:
            return None
        seats = set(range(1, self.game.num_players + 1))
        return frozenset(seats | {None} if isinstance(t, OptionalOf) else seats)

    def visit_Augment(self, node, scope, ctx, out):
        # (in the parentheses its host text had)
        value = ir.Grouped(self.codegen.lower(node.value, scope, ctx)
                           if not isinstance(self.type_value(node.value, scope), OptionalOf) else
                           self.codegen.number_node(node.value, scope, ctx, self.spanned(node.span)))
        sign = "+" if node.op == "+=" else "-"
        if isinstance(node.target, ast.AttributeTarget):
            now = ir.Call("attribute", (ir.ReadState("entities"), self.local(node.target.name, ctx),
                                        ir.Constant(node.target.attribute)))
            total = self.bounded(ir.Arithmetic(sign, ir.Call("present", (now, self.spanned(node.span))), value),
                                 node.span, out)
            return self.set_attribute(node, total, scope, ctx, out)
        if self.assigns_local(node.target, scope):
            total = self.bounded(ir.Arithmetic(sign, self.local(node.target.name, ctx), value), node.span, out)
            out.append(self.set_local(node.target.name, ctx, total))
            return
        key, default = self.fresh("_key"), self.literal(self.game.var_defaults[node.target.name])
        out.append(ir.Assign(key, self.checked_key(node.target.name, node.target.indexes, node.span, scope, ctx, out)))
        now = ir.ReadVar(ir.Local(key), default)
        if isinstance(self.var_type(node.target.name), OptionalOf):
            now = ir.Call("present", (now, self.spanned(node.span)))      # none += 1: a located error
        total = self.bounded(ir.Arithmetic(sign, now, value), node.span, out)
        total = self.player_checked(node.target.name, self.in_range(node.target.name, total, node.span, out),
                                    node.span, out)
        written, total = self.index_write(node.target.name, ir.Local(key), total, out)
        out.append(ir.WriteVar(written, total))
        self.invalidate(Stamp("variable", node.target.name), out)

    def invalidate(self, dependency, out):
        """After a statement writes a variable (or moves components): the cached values of the
        functions that read it are stale."""
        k = self.memo_stamp_index.get(dependency)
        if k is not None:
            out.append(ir.Invalidate(k))

    # ---- control ----
    def visit_If(self, node, scope, ctx, out):
        branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
        counter = self.counter(node)
        tests = []
        for k, (condition, body) in enumerate(branches):
            test = self.condition(condition, scope, ctx)
            tests.append((test, tuple(self.count(counter, 1 + k)) + self.statements(body, scope, ctx)))
        chain = self.statements(node.orelse, scope, ctx) if node.orelse else ()
        for test, body in reversed(tests):
            chain = (ir.If(test, body, chain),)
        out.extend(chain)

    def loop_variable(self, binder, scope, ctx):
        domain = self.sequence(binder.domain, scope, ctx)
        inner = scope.child(**{binder.name: self.items_type(binder.domain, scope)})
        return domain, inner

    def spend(self, budget, units, span) -> list:
        """Take `units` from the step's budget (0: loop rounds, 1: work): a located error past it."""
        error = "step_runs_on" if budget == 0 else "work_runs_on"
        return [ir.Spend(budget, units), guard(exhausted_budget(budget), call(error, self.spanned(span)))]

    def costly_round(self, loop):
        """What a round of the statement loop costs when it is more than the rounds limit
        covers (work.py), else None."""
        units = self.work.round_cost(loop)
        return units if units > ROUND_FREE_WORK else None

    def visit_For(self, node, scope, ctx, out):
        domain, inner = self.loop_variable(node.binder, scope, ctx)
        items = self.temporary("_items", ir.Call("list", (domain,)), out)
        # the step's one budget of loop rounds, taken at once for the whole list
        rounds = ir.Call("len", (items,))
        out += self.spend(0, rounds, node.span)
        units = self.costly_round(node)
        if units is not None:
            out += self.spend(1, ir.Arithmetic("*", rounds, ir.Constant(units)), node.span)
        body = []
        if node.binder.condition is not None:
            body.append(guard(negated(self.condition(node.binder.condition, inner, ctx)), ir.Continue()))
        body += self.count(self.counter(node), 1)
        body += self.statements(node.body, inner, ctx)
        out.append(ir.ForEach(ctx.local(node.binder.name), items, tuple(body)))

    def loop_round(self, loop) -> list:
        """One round of a while or repeat: from the step's one budget of loop rounds (nested
        loops share it, so that no step runs on for ever), and from its work budget when the
        round costs much."""
        out = self.spend(0, ir.Constant(1), loop.span)
        units = self.costly_round(loop)
        if units is not None:
            out += self.spend(1, ir.Constant(units), loop.span)
        return out

    def loop_cap(self, what, span) -> tuple:
        error = ir.Call("RulesRuntimeError", (ir.Constant(f"a '{what}' loop ran {LOOP_CAP} times"), self.spanned(span)))
        return (ir.Raise(error),)

    def visit_While(self, node, scope, ctx, out):
        loop = self.fresh("_loop")
        body = [guard(negated(self.condition(node.condition, scope, ctx)), ir.Break())]
        body += self.loop_round(node)
        body += self.count(self.counter(node), 1)
        body += self.statements(node.body, scope, ctx)
        out.append(ir.Rounds(loop, ir.Global("LOOP_CAP"), tuple(body), self.loop_cap("while", node.span)))

    def visit_Repeat(self, node, scope, ctx, out):
        inner = scope.child()
        loop = self.fresh("_loop")
        body = self.loop_round(node)
        body += self.count(self.counter(node), 1)
        body += self.statements(node.body, inner, ctx)
        if node.until is not None:
            body.append(guard(self.value(node.until, inner, ctx), ir.Break()))
        out.append(ir.Rounds(loop, ir.Global("LOOP_CAP"), tuple(body), self.loop_cap("repeat", node.span)))

    # ---- components and zones ----
    def destination(self, node, scope, ctx, out):
        return self.zone_key(node.zone, scope, ctx, out), ir.Constant(isinstance(node, ast.ToBottom))

    def zone_key(self, zone, scope, ctx, out) -> ir.Expression:
        """The key of a zone components are put in: outside the zone's declared indexes, an
        error, not a zone nobody declared."""
        if isinstance(zone, ast.Subscript) and isinstance(zone.obj, ast.Name) and zone.obj.id in self.types.zones \
                and scope.lookup(zone.obj.id) is None:
            return self.checked_key(zone.obj.id, zone.indexes, zone.span, scope, ctx, out)
        return self.value(zone, scope, ctx)

    def visit_Move(self, node, scope, ctx, out):
        item = ir.Local(self.fresh("_item"))
        out.append(ir.Assign(item.name, self.value(node.item, scope, ctx)))
        zone, under = self.destination(node.destination, scope, ctx, out)
        out.append(guard(ir.Compare("is not", item, NONE),
                         ir.ExpressionStatement(ir.StateCall("move", (item, zone, under)))))

    def visit_MoveAll(self, node, scope, ctx, out):
        zone, under = self.destination(node.destination, scope, ctx, out)
        target = self.temporary("_target", zone, out)
        out.append(call("move_all", STATE, self.sequence(node.source, scope, ctx), target, under))

    def visit_Deal(self, node, scope, ctx, out):
        count, source = self.value(node.count, scope, ctx), self.value(node.source, scope, ctx)
        zone, under = self.destination(node.destination, scope, ctx, out)
        out.append(ir.ExpressionStatement(ir.StateCall("deal", (count, source, zone, under))))

    def visit_Shuffle(self, node, scope, ctx, out):
        if self.explicit_chance and ctx.steps:
            element = self.items_type(node.zone, scope)
            labeler = ir.Global(self.codegen.bind(self.game.labeler(element)))
            prompt = ir.Constant(f"shuffle {self.source_text(node.zone)}")
            out.append(ir.YieldFrom(ir.Call("chance_shuffle", (STATE, self.value(node.zone, scope, ctx), labeler, prompt))))
            return
        out.append(call("shuffle", STATE, self.value(node.zone, scope, ctx)))

    def chance_value(self, node, scope, ctx, out, public_target=False):
        """With explicit chance, a value that is a pick: drawn by a chance node first. What
        was drawn is shown to all only when it goes into a public variable (public_target) from
        a list or a public zone: a local may go anywhere, and so it is not shown."""
        if not (self.explicit_chance and ctx.steps and node.__class__ is ast.Call and node.name == "pick"
                and len(node.arguments) == 1):
            return None
        items = node.arguments[0]
        labeler = ir.Global(self.codegen.bind(self.game.labeler(self.items_type(items, scope))))
        temp = self.fresh("_drawn")
        hidden = not public_target
        if isinstance(self.type_value(items, scope).without_none(), ZoneOf):
            zone = items.obj if isinstance(items, ast.Subscript) else items
            name = zone.id if isinstance(zone, ast.Name) else None
            hidden = hidden or name not in self.game.zone_meta or self.game.zone_meta[name][1] != "public"
        drawn = ir.Call("chance_pick", (STATE, self.sequence(items, scope, ctx), labeler,
                                        ir.Constant(hidden)))
        out.append(ir.YieldFrom(drawn, temp))
        return ir.Local(temp)

    def visit_Reveal(self, node, scope, ctx, out):
        told = isinstance(node.what, ast.Attribute) and \
            self.is_component(self.type_value(node.what.obj, scope).without_none())
        # `reveal c.colour to P` tells the players that attribute of the component
        what = ir.Tuple((self.codegen.lower(node.what.obj if told else node.what, scope, ctx),)) \
            if told or self.is_component(self.type_value(node.what, scope).without_none()) \
            else self.codegen.collection_node(node.what, scope, ctx)
        players = self.codegen.lower(node.players, scope, ctx)
        if self.type_value(node.players, scope).without_none() == PLAYER:
            players = ir.Tuple((players,))
        told_attribute = (ir.Constant(node.what.name),) if told else ()
        out.append(call("reveal_to", STATE, what, players, *told_attribute))

    def visit_Create(self, node, scope, ctx, out):
        values = self.fresh("_values")
        fields = self.types.fields_of(node.type_name)
        stored = [self.attribute_stored(i.value, self.value(i.value, scope, ctx), fields[i.name],
                                        f"{node.type_name}.{i.name}", scope, out) for i in node.inits]
        out.append(ir.Assign(values, ir.NewDict(tuple(ir.Constant(i.name) for i in node.inits), tuple(stored))))
        out.append(ir.ExpressionStatement(ir.Method(ir.Local(values), "setdefault", (ir.Constant("owner"), NONE))))
        template = self.literal(self.game.label_templates.get(node.type_name))
        count = ir.Call("room_for", (STATE, self.value(node.count, scope, ctx), self.spanned(node.span)))
        zone = self.zone_key(node.zone, scope, ctx, out)
        create = ir.StateCall("create", (ir.Constant(node.type_name), ir.Call("dict", (ir.Local(values),)), template, zone))
        out.append(ir.Rounds(self.fresh("_n"), count, (ir.ExpressionStatement(create),)))

    def visit_Destroy(self, node, scope, ctx, out):
        value = self.value(node.item, scope, ctx)
        held = ast.destroyed_variable(node.item, self.game.var_meta)
        if held is not None:            # `destroy kept`: kept = none first (a write as any other)
            value = self.temporary("_destroyed", value, out)
            self.visit_Assign(ast.Assign(node.span, held, ast.Nothing(node.span)), scope, ctx, out)
        out.append(ir.ExpressionStatement(ir.StateCall("destroy", (value,))))

    def options_list(self, binder, scope, ctx, out, hint) -> ir.Local:
        """A local holding the values of a binder that pass its filter (a new list: the options
        stay as they are while the zone they come from changes)."""
        var, domain, where, _, _ = self.codegen.lowered_comprehension(binder, scope, ctx)
        options = ir.Local(self.fresh(hint))
        if where is None:
            out.append(ir.Assign(options.name, ir.Call("list", (domain,))))
        else:
            before, (where,) = attributes_read_once([where], self.codegen.temp)
            out += [ir.Assign(temp, read) for temp, read in before]
            out.append(ir.Assign(options.name, ir.Comprehension(ir.Local(var), (var,), domain, where, spread=False)))
        return options

    def visit_Choose(self, node, scope, ctx, out):
        cg = self.codegen
        element = self.items_type(node.binder.domain, scope)
        options = self.options_list(node.binder, scope, ctx, out, "_options")
        names, index = (ir.Local(self.fresh(hint)) for hint in ("_names", "_choice"))
        # (lists of components, subsets of a hand, are told apart item by item too)
        components = self.is_component(element) or (isinstance(element, ListOf) and self.is_component(
            element.element.without_none()))
        if self.is_entity(element):       # (named by their labels)
            distinct = ir.Call("distinct_labelled", (STATE, options, ir.Constant(components),
                                                     ir.Global(cg.bind(node.span))))
        else:
            labeler = ir.Global(cg.bind(self.game.labeler(element)))
            distinct = ir.Call("distinct_options", (STATE, options, labeler, ir.Constant(components),
                                                    ir.Global(cg.bind(node.span))))
        who = ir.Call("seat", (STATE, self.value(node.chooser, scope, ctx), ir.Constant("a choice"),
                               self.spanned(node.chooser.span))) if node.chooser is not None else ir.ReadState("current")
        prompt = node.prompt or f"choose {node.binder.name}"
        public = NONE
        if node.public is not None:     # every option shown to the others as one text
            text = self.text_node(node.public, scope, ctx, node.span, self.public_label)
            public = ir.Comprehension(text, ("_v",), options, spread=False)
        elif self.private_fields_of(element):
            labeler = ir.Global(cg.bind(self.game.labeler(element, PUBLIC)))
            public = ir.Comprehension(ir.Call(labeler.name, (STATE, ir.Local("v"))), ("v",), options, spread=False)
        args = (options, names, who, ir.Constant(prompt), public)
        item = element.element.without_none() if isinstance(element, ListOf) else None
        created = self.created_in_play(item if item is not None else element)
        if item is not None or created is not None:     # (how the adapters number the options)
            labeler = ir.Global(cg.bind(self.game.labeler(item))) if item is not None else NONE
            args += (NONE, labeler, ir.Constant(created))
        need = ir.Call("NeedChoice", args)
        # with steps, the engine sends the chosen option back: the step goes on from here
        asked = ir.Yield(need, index.name) if ctx.steps else ir.Raise(need)
        cursor = ir.ReadState("cursor")
        replayed = ir.If(ir.Compare("<", cursor, ir.Call("len", (ir.ReadState("choices"),))),
                         (ir.Assign(index.name, ir.Item(ir.ReadState("choices"), cursor)),
                          ir.WriteState("cursor", ir.Arithmetic("+", cursor, ir.Constant(1)))), (asked,))
        chosen_scope = scope.child(**{node.binder.name: element})
        body = (ir.Unpack((options.name, names.name), distinct),
                # (no names: one option, the choice not asked)
                guard(ir.Compare("is", names, NONE), ir.Assign(index.name, ir.Constant(0)), orelse=(replayed,)),
                self.set_local(node.binder.name, ctx, ir.Item(options, index)))
        out.append(ir.If(options, body + self.statements(node.body, chosen_scope, ctx)))

    def created_in_play(self, t) -> str | None:
        """The name of a component type that may be created in play (`max N`), which the
        adapters number by position, else None."""
        component = self.types.components.get(named_type(t))
        return component.name if component is not None and component.maximum is not None else None

    def action_numbers(self, names) -> ir.Constant:
        """The indexes of the actions named (in the order of the file)."""
        order = list(self.types.actions)
        return ir.Constant(tuple(order.index(name) for name in names))

    def visit_PlayBy(self, node, scope, ctx, out):
        # a decision of the step (engine/decisions.py): the step stops until the player has played
        prompt = f"play {' or '.join(node.actions)}"
        run = ir.Call("decision_steps", (STATE, self.action_numbers(node.actions), self.value(node.player, scope, ctx),
                                         ir.Constant(node.optional), self.spanned(node.span), ir.Constant(prompt)))
        out.append(ir.YieldFrom(run) if ctx.steps else call("without_choice", run))

    def visit_Respond(self, node, scope, ctx, out):
        play = ast.untag(node.body[0])[0]
        players = self.options_list(node.binder, scope, ctx, out, "_players")
        prompt = f"respond with {' or '.join(play.actions)}, or skip"
        # (`every`: one more argument, so that the ordinary window's code stays as it was)
        everyone = (ir.Constant(True),) if node.everyone else ()
        run = ir.Call("respond_steps", (STATE, players, self.action_numbers(play.actions), self.spanned(node.span),
                                        ir.Constant(prompt), *everyone))
        if not ctx.steps:
            out.append(call("without_choice", run))
            return
        responded = self.fresh("_responded")
        out.append(ir.YieldFrom(run, responded))
        if node.orelse:
            out.append(ir.If(ir.Not(ir.Local(responded)), self.statements(node.orelse, scope, ctx)))

    # ---- the game ----
    def visit_Require(self, node, scope, ctx, out):
        raise AssertionError("requirements are compiled with their action's guard")

    def visit_Again(self, node, scope, ctx, out):
        out.append(ir.WriteState("extra", ir.Constant(True)))

    def visit_Finish(self, node, scope, ctx, out):
        out.append(ir.WriteState("terminal", ir.Constant(True)))
        winners = self.value(node.winners, scope, ctx) if node.winners is not None else ir.Tuple(())
        out.append(call("finish", STATE, winners))

    def visit_FinishTeam(self, node, scope, ctx, out):
        # the winners are the members of a team: finish finds them by the header's teams
        out.append(ir.WriteState("terminal", ir.Constant(True)))
        out.append(call("finish", STATE, self.value(node.team, scope, ctx), ir.Constant("team")))

    def visit_FinishLost(self, node, scope, ctx, out):
        out.append(ir.WriteState("terminal", ir.Constant(True)))
        out.append(call("finish", STATE, ir.Tuple(()), ir.Constant("lost")))

    def visit_Log(self, node, scope, ctx, out):
        # the log is public: each {expression} shown by its label as everybody sees it
        out.append(guard(ir.ReadState("shared"), ir.ExpressionStatement(ir.StateCall("own_trails"))))
        line = self.text_node(node.message, scope, ctx, node.span, self.public_label)
        span = self.spanned(node.span)
        parts = parse_template(node.message).parts
        if len(parts) <= 1 and all(isinstance(part, str) for part in parts):
            constant = parts[0] if parts else node.message
            if len(constant) <= MAX_LOG_LINE:      # its length known now
                out += [ir.Spend(1, ir.Constant(len(constant))), guard(exhausted_budget(1), call("work_runs_on", span)),
                        ir.AppendLog(ir.Constant(constant))]
                return
        # logged() written out: its call was a sixth of a short line's cost
        logged = ir.Local("_line")
        out += [ir.Assign("_line", line), ir.Spend(1, ir.Call("len", (logged,))),
                ir.AppendLog(ir.Conditional(
                    ir.BoolOp("and", (ir.Compare(">=", ir.Budget(1), ir.Constant(0)),
                                      ir.Compare("<=", ir.Call("len", (logged,)), ir.Global("MAX_LOG_LINE")))),
                    logged, ir.Call("past_log_limits", (ir.Global("STEP"), logged, span))))]

    def text_node(self, text, scope, ctx, span, label) -> ir.Expression:
        """A text whose {expressions} are shown by their labels, as IR: label(node, value) ->
        one value's text."""
        pieces: list[ir.Expression] = []
        may_be_empty = False        # a list or a text: its gap closed where it reads as nothing
        for part in parse_template(text).parts:
            if isinstance(part, str):
                pieces.append(ir.Constant(part))
                continue
            node = self.checked.placeholder_nodes.get((span, part.inside)) or parse_expression(part.inside, span)
            piece = label(node, self.codegen.lower(node, scope, ctx), scope)
            t = self.type_value(node, scope).without_none()
            if isinstance(t, ListOf) or t == TEXT:
                piece, may_be_empty = ir.BoolOp("or", (piece, ir.Constant(EMPTY_VALUE))), True
            pieces.append(piece)
        if not pieces:
            pieces.append(ir.Constant(text))
        if len(pieces) > 16:        # (a long sum of pieces is too deep for Python's compiler)
            total = ir.Method(ir.Constant(""), "join", (ir.NewList(tuple(pieces), spread=True),))
        else:
            total = pieces[0]
            for piece in pieces[1:]:
                total = ir.Arithmetic("+", total, piece, spread=True)
            total = ir.Grouped(total, over_lines=True)
        return ir.Call("closed_gaps", (total,)) if may_be_empty else total

    def public_label(self, node, value, scope) -> ir.Expression:
        """A value's text as everybody sees it: inline for the common types; '?' for an
        expression that reads an owner-only attribute."""
        for item in ast.walk(node):
            if isinstance(item, ast.Attribute) and \
                    item.name in self.private_fields_of(self.type_value(item.obj, scope).without_none()):
                return ir.Constant("?")
        t = self.type_value(node, scope).without_none()
        if t in (PLAYER, ListOf(PLAYER)):
            if self.seat_texts is None:
                self.seat_texts = self.codegen.bind(SeatTexts().__getitem__, "seat_text")
            if t == PLAYER:
                return ir.Call(self.seat_texts, (value,))
            return ir.Method(ir.Constant(", "), "join", (ir.Call("map", (ir.Global(self.seat_texts), value)),))
        if self.is_entity(t) and not self.private_fields_of(t):
            return ir.Grouped(ir.ArgumentText(value, "label", bound="_v"))
        if isinstance(t, Named) and t.name in self.types.enums:       # (a member's text is its name)
            return ir.Grouped(ir.ArgumentText(value, "name", bound="_v"))
        labeler = self.codegen.bind(self.game.labeler(t, PUBLIC), "label")
        if t == INT:
            number = ir.Local("_v")
            return ir.Grouped(ir.Conditional(
                ir.Compare("is", ir.Field(ir.Named("_v", value), "__class__"), ir.Global("int")),
                ir.Call("str", (number,)), ir.Call(labeler, (STATE, number))))
        return ir.Call(labeler, (STATE, value))

    def visit_CallStatement(self, node, scope, ctx, out):
        parameters = self.types.procedures[node.name].parameters
        # a parameter is written by the call: none where its type has no '?' is an error here
        args = [self.never_none_stored(a, self.value(a, scope, ctx), self.declared_type(p.type),
                                       f"'{p.name}' of {node.name}", scope, out)
                for a, p in zip(node.arguments, parameters)]
        run = ir.Call(f"proc_{node.name}", (STATE, *args))
        if node.name not in self.may_choose_procs:
            out.append(ir.ExpressionStatement(run))
        elif ctx.steps:
            out.append(ir.YieldFrom(run))
        else:
            out.append(call("without_choice", run))
