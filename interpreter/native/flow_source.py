"""The flow's constructs in a native kernel (a mixin of rules_source.KernelSource): procedures
(called from the flow, from effects and by `after`), `after PROC(...): VALUE` on a copy of the
state, the loops (`while`, `repeat ... until`) in the flow and in effects, `turn P { ... }`,
`reversed(a..b)` as a domain, and `pick` of a list from the game's own random stream.

Where Python stops a game that runs on (a flow that loops LOOP_CAP times without a move, a
`while` or `repeat` of LOOP_CAP rounds), the kernel sets its error slot at the same point, so
that game is played again in Python and gives Python's error.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, ListOf, Type, element_type, named_type

from ..runtime.values import LOOP_CAP
from .not_native import NotNative
from .recursion import deeper_calls, depths_of, recursive_groups, refuse_many_copies

STOPPED_AT_MOST = ["if S[MOVES] >= max_moves:", "    S[STOPPED] = 1", "    return"]     # (before a move is drawn)
STOPS = ["if S[TERMINAL] or S[ERROR] or S[STOPPED]:", "    return"]     # after a call that may finish or stop the game


def indented(lines: list) -> list:
    return ["    " + line for line in lines or ["pass"]]


class FlowSource:
    """Procedures, `after`, loops and turns for KernelSource (which gives block, expr, define,
    fresh, type_of and the Scope class)."""

    def procedures(self, scope_class) -> None:
        """proc_NAME(S, cur, its parameters): a procedure's body as effects (and the decision's
        arrays where it decides: decisions_source.py)."""
        for proc in self.program.of_kind(ast.Procedure):
            for suffix in self.copies(proc.name):
                scope = scope_class({p.name: f"L_{p.name}" for p in proc.parameters})
                self.define(f"def proc_{proc.name}{suffix}(S, cur{scope.params()}{self.decision_arguments(proc.name)}):",
                            self.block(proc.body, scope, flow=False))

    # ---- triggers ----------------------------------------------------------------------------
    def triggers(self, scope_class) -> None:
        """fire_one_trigger(S, cur): the first trigger of the file whose condition holds (for the
        first value of its binder that passes) runs, True; else False. run_triggers: until none
        fires, LOOP_CAP times at most (Python's "triggers keep firing")."""
        found = list(self.program.of_kind(ast.Trigger))
        self.has_triggers = bool(found)
        if not found or self.deciding_triggers(scope_class, found):     # (triggers that decide: triggers_source.py)
            return
        self.trigger_functions(scope_class, found)

    def trigger_functions(self, scope_class, found, suffix: str = "", deciding: str = "", last: bool = False) -> None:
        """The triggers' functions (of one level of nesting, named with its suffix, taking the
        decision's arrays where they decide); at the last level a trigger that fires hands the
        game to Python."""
        fire = []
        for trigger in found:
            var = f"L_{trigger.binder.name}" if trigger.binder is not None else None
            scope = scope_class({trigger.binder.name: var} if var else {})
            if not last:
                self.define(f"def trigger_{trigger.name}{suffix}(S, cur{scope.params()}{deciding}):",
                            self.block(trigger.body, scope.child(), flow=False))     # (its lets are its own)
            run = ["    S[ERROR] = 1"] if last else [f"    trigger_{trigger.name}{suffix}(S, cur{scope.params()}{deciding})"]
            test = ["if " + self.expr(trigger.condition, scope, BOOL) + ":", *run, "    return True"]
            if var is None:
                fire += test
                continue
            loop, _ = self.domain_loop(trigger.binder, scope_class(), var)
            where = [] if trigger.binder.condition is None else \
                ["if not (" + self.expr(trigger.binder.condition, scope, BOOL) + "):", "    continue"]
            fire += loop + indented(where + test)
        stopped = " or S[STOPPED]" if deciding else ""
        self.define(f"def fire_one_trigger{suffix}(S, cur{deciding}):", fire + ["return False"])
        self.define(f"def run_triggers{suffix}(S, cur{deciding}):",
                    [f"for _ in range({LOOP_CAP}):", f"    if not fire_one_trigger{suffix}(S, cur{deciding}):", "        return",
                     f"    if S[TERMINAL] or S[ERROR]{stopped}:", "        return", "S[ERROR] = 1"])

    def after_move(self) -> list:
        """After an action, its triggers (Python: play_steps)."""
        if not self.has_triggers:
            return []
        return ["if not (S[TERMINAL] or S[ERROR]):", f"    run_triggers{self.triggers_called()}"]

    # ---- recursion: Numba's own (recursion_heads.py), else copies by depth (recursion.py) -----
    def find_recursion(self) -> None:
        groups = recursive_groups(self.program)
        self.heads = self.native_groups(groups)
        self.groups = {name: group for name, group in groups.items() if name not in self.heads}
        refuse_many_copies(self.program, self.groups)
        self.deeper = deeper_calls(self.program, self.groups)
        self.depth = None           # while a copy renders: (its group, its depth, its name)

    def copies(self, name: str):
        """The suffixes of a function's or procedure's copies, each rendered in its turn."""
        if name in self.heads:
            outer_head, self.recursing = self.recursing, self.heads[name]
            yield ""
            self.recursing = outer_head
            return
        group = self.groups.get(name)
        if group is None:
            yield ""
            return
        outer = self.depth
        for k in range(depths_of(group)):
            self.depth = (group, k, name)
            yield f"_d{k}"
        self.depth = outer

    def callee_suffix(self, name: str):
        """The suffix of the copy a call goes to here ('' when not recursive), None past the last."""
        group = self.groups.get(name)
        if group is None:
            return ""
        if self.depth is None or self.depth[0] != group:
            return "_d0"
        _, depth, caller = self.depth
        deeper = depth + 1 if (caller, name) in self.deeper else depth
        return f"_d{deeper}" if deeper < depths_of(group) else None

    def zero_of(self, t: Type, span) -> str:
        """A value of type t that a call too deep gives (its game then plays in Python)."""
        base, named = t.without_none(), named_type(t)
        if base == BOOL:
            return "False"
        if base in (INT, PLAYER) or named in self.game.enum_members or named in self.boards.geometries:
            return "0"
        empty = self.empty_list(t)
        if empty is not None:
            return empty
        raise NotNative(f"a recursive function of type {t.text}", span)

    def proc_call(self, name: str, arguments: str, state: str = "S") -> list:
        suffix = self.callee_suffix(name)
        if suffix is None:
            return ["S[ERROR] = 1"]
        deciding = self.decision_arguments(name)
        if deciding and state != "S":
            raise NotNative(f"{name} decides: it cannot run on a copy of the state", None)
        suffix += self.level_copy("proc", name, suffix)        # (called from a trigger: triggers_source.py)
        return [f"proc_{name}{suffix}({state}, cur{arguments}{deciding})"]

    def procedure_named(self, name: str, span):
        found = self.program.get(name)
        node = ast.untag(found)[0] if found is not None else None
        if not isinstance(node, ast.Procedure):
            raise NotNative(f"the call of {name}, no procedure", span)
        return node

    def call_arguments(self, node, scope) -> str:
        proc = self.procedure_named(node.name if hasattr(node, "name") else node.procedure, node.span)
        if len(node.arguments) != len(proc.parameters):
            raise NotNative(f"{proc.name} called with {len(node.arguments)} arguments", node.span)
        return "".join(", " + self.expr(a, scope, self.type_of(a)) for a in node.arguments)

    # ---- statements --------------------------------------------------------------------------
    def flow_statement(self, node, scope, flow: bool):
        """The lines of a statement this mixin renders, or None for the others."""
        kind = type(node)
        if kind is ast.CallStatement:
            return [*self.proc_call(node.name, self.call_arguments(node, scope)), *STOPS]
        if kind is ast.While:
            test = ["if not (" + self.expr(node.condition, scope, BOOL) + "):", "    break"]
            return self.loop(test + self.block(node.body, scope.child(), flow), flow)
        if kind is ast.Repeat:
            inner = scope.child()
            body = self.block(node.body, inner, flow)
            if node.until is not None:
                body += ["if " + self.expr(node.until, inner, BOOL) + ":", "    break"]
            return self.loop(body, flow)
        if kind is ast.Again:           # (the turn's player takes the next turn too: next_seat)
            return ["S[EXTRA] = 1"]
        if flow and kind is ast.Simultaneous:
            return self.simultaneous(node, scope)
        if flow and kind is ast.Turn:
            return ["cur = " + self.expr(node.player, scope, PLAYER),
                    "if cur < 1 or cur > PLAYERS:", "    S[ERROR] = 1", "    return",
                    "S[CURRENT] = cur", *self.block(node.body, scope, flow)]
        return None

    def simultaneous(self, node, scope) -> list:
        """`simultaneous p in L { play A }` (engine/steps.py simultaneous_step): the seats of L that
        pass its filter, found once; each in turn chooses a move, sealed (the state unchanged,
        each a move counted); then the moves are played in that order, each by its seat, with
        the triggers after each."""
        seats, sealed, k = self.fresh("seats"), self.fresh("sealed"), self.fresh("k")
        found, lines = self.simultaneous_seats(node, scope, seats)
        return lines + [f"{sealed} = np.empty({found}, dtype=np.int64)"] + \
            self.sealed_and_revealed(node, seats, sealed, k, "0", found)

    def simultaneous_seats(self, node, scope, seats: str) -> tuple:
        """(the name of their number, the lines that find the seats of a simultaneous step)."""
        play = ast.untag(node.body[0])[0] if len(node.body) == 1 else None
        if not isinstance(play, ast.Play) or play.optional:
            raise NotNative("a simultaneous step other than one play", node.span)
        var = self.fresh("L_")
        loop, capacity = self.domain_loop(node.binder, scope, var)
        inner = scope.child(**{node.binder.name: var})
        where = [] if node.binder.condition is None else \
            ["if not (" + self.expr(node.binder.condition, inner, BOOL) + "):", "    continue"]
        found = self.fresh("found")
        return found, [*loop[:-1], f"{seats} = np.empty({capacity}, dtype=np.int64)", f"{found} = 0", loop[-1],
                       *indented(where + [f"{seats}[{found}] = {var}", f"{found} += 1"])]

    def sealed_and_revealed(self, node, seats: str, sealed: str, k: str, first: str, found: str) -> list:
        """The seats from `first` on choose their sealed moves, then every sealed move is played."""
        play = ast.untag(node.body[0])[0]
        choose = [f"cur = {seats}[{k}]", "if cur < 1 or cur > PLAYERS:", "    S[ERROR] = 1", "    return",
                  "S[CURRENT] = cur", *self.listed_moves(play), "if n == 0:", "    S[ERROR] = 1", "    return",
                  *STOPPED_AT_MOST, *self.chosen_move(), f"{sealed}[{k}] = move", "S[MOVES] += 1", "jumps = 0"]
        reveal = [f"cur = {seats}[{k}]", "S[CURRENT] = cur", f"move = {sealed}[{k}]", "kind = move // MOVE_BASE",
                  *self.applied_move(play), *STOPS]
        span = found if first == "0" else f"{first}, {found}"
        return [f"for {k} in range({span}):",
                *indented(choose), f"for {k} in range({found}):", *indented(reveal)]

    def local_write(self, node, scope) -> list:
        """A local (a `let`) given a new value, or updated."""
        if not isinstance(node.target, ast.Target) or node.target.indexes:
            raise NotNative("a write into a local", node.span)
        name = scope.names[node.target.name]
        value = self.expr(node.value, scope, self.type_of(node.value))
        if isinstance(node, ast.Augment):
            op = node.op.rstrip("=")
            if op not in ("+", "-", "*"):
                raise NotNative(f"the update {node.op}", node.span)
            value = f"{name} {op} {value}"
        return [f"{name} = {value}"]

    def loop(self, body: list, flow: bool) -> list:
        """A loop of the flow counts its rounds with the flow's jumps (reset by each move); one of
        effects counts its own rounds (Python's Rounds: LOOP_CAP at most)."""
        if flow:
            return ["while True:", *indented(body), *indented(self.jumped())]
        rounds = self.fresh("rounds")
        return [f"{rounds} = 0", "while True:",
                *indented([f"{rounds} += 1", f"if {rounds} > {LOOP_CAP}:", "    S[ERROR] = 1", "    return", *body])]

    @staticmethod
    def next_seat(seat: str) -> list:
        """A `turns` loop's next seat: the same one after `again` (Python's turns_next)."""
        return ["if S[EXTRA]:", "    S[EXTRA] = 0", "else:", f"    {seat} = {seat} % PLAYERS + 1"]

    def jumped(self) -> list:
        """A jump back in the flow: Python stops a flow that jumps LOOP_CAP times without a move."""
        return ["jumps += 1", f"if jumps > {LOOP_CAP}:", "    S[ERROR] = 1", "    return"]

    # ---- expressions -------------------------------------------------------------------------
    def visit_After(self, node, scope, want):
        """A function of its own: the procedure run on a copy of S, the value read there (an
        error on the copy is the game's; its finish is not)."""
        name = self.fresh("after_")
        arguments = self.call_arguments(node, scope)
        value = self.expr(node.value, scope, self.type_of(node.value))
        self.define(f"def {name}_value(S, cur{scope.params()}):", [f"return {value}"])
        self.define(f"def {name}(S, cur{scope.params()}):",
                    ["C = S.copy()", *self.proc_call(node.procedure, arguments, "C"),
                     f"value = {name}_value(C, cur{scope.params()})",
                     "if C[ERROR]:", "    S[ERROR] = 1", "return value"])
        return f"{name}(S, cur{scope.params()})"

    def reversed_loop(self, domain, scope, var: str) -> tuple:
        """`reversed(a..b)` as a domain: b down to a."""
        inner = ast.untag(domain.arguments[0])[0] if len(domain.arguments) == 1 else None
        items = self.reversed_items(inner, scope, var) if inner is not None else None
        if items is not None:
            return items
        if not isinstance(inner, ast.Range):
            raise NotNative("reversed of other than a range", domain.span)
        low, high = self.expr(inner.low, scope, INT), self.expr(inner.high, scope, INT)
        return [f"for {var} in range({high}, {low} - 1, -1):"], f"max(0, {high} - {low} + 1)"

    def order_with_none(self, node, left, right, scope) -> str:
        """An order where a side may be none: false then (runtime.values.order)."""
        left_type, right_type = self.type_of(left), self.type_of(right)
        for t in (left_type, right_type):
            if t.without_none() not in (INT, PLAYER) and named_type(t) not in self.game.enum_members:
                raise NotNative(f"an order of {t.text}", node.span)
        return (f"{ORDERS[node.op]}({self.expr(left, scope, left_type)}, {self.expr(right, scope, right_type)}, "
                f"{self.none_of(left_type)}, {self.none_of(right_type)})")

    def real_returns(self, node, scope) -> str:
        """Returns of type real, as float64, where each real is one division of two ints (so the
        float is the one the engine's exact fraction gives: both correctly rounded), under
        conditionals and negations; a division by zero is the engine's error."""
        node = ast.untag(node)[0]
        if self.type_of(node).without_none() == INT:
            return f"np.float64({self.expr(node, scope, INT)})"
        if isinstance(node, ast.Conditional):
            return (f"({self.real_returns(node.then, scope)} if {self.expr(node.condition, scope, BOOL)} "
                    f"else {self.real_returns(node.otherwise, scope)})")
        if isinstance(node, ast.Negate):
            return f"(-{self.real_returns(node.operand, scope)})"
        if isinstance(node, ast.Binary) and node.op == "/" and \
                all(self.type_of(ast.untag(side)[0]) == INT for side in (node.left, node.right)):
            return f"divided(S, {self.expr(node.left, scope, INT)}, {self.expr(node.right, scope, INT)})"
        return self.real_float(node, scope)        # (reals_source.py: exact fractions)

    def pick_from(self, node, scope) -> str:
        """pick(a list or a zone, bottom first): one of its items from the game's own stream
        (none: an empty list)."""
        if self.is_zone(node.arguments[0], scope):
            return f"pick_item(S, {self.sequence(node.arguments[0], scope)}, -1)"
        t = self.type_of(node.arguments[0])
        if not isinstance(t.without_none(), ListOf):
            raise NotNative(f"pick of a {t.text}", node.span)
        items = self.expr(node.arguments[0], scope, t)
        return f"pick_item(S, {items}, {self.none_of(element_type(t))})"


PICK_ITEM = '''
@njit
def divided(S, a, b):
    """a / b as a float (by zero: the engine's error, played in Python)."""
    if b == 0:
        S[ERROR] = 1
        return 0.0
    return a / b


@njit
def too_deep(S, value):
    """A call nested deeper than the kernel's copies of a recursive function: Python plays it."""
    S[ERROR] = 1
    return value

@njit
def pick_item(S, items, none):
    """pick(a list): the game's own random stream, as pick_in."""
    if len(items) == 0:
        return none
    index, state = game_below(np.uint64(S[RNG]), len(items))
    S[RNG] = np.int64(state)
    return items[index]
'''


ORDERS = {"<": "less", "<=": "less_or_equal", ">": "greater", ">=": "greater_or_equal"}
ORDER_HELPERS = "".join(f'''
@njit
def {name}(a, b, a_none, b_none):
    """a {op} b, false when either is none (as runtime.values.order)."""
    return a != a_none and b != b_none and a {op} b
''' for op, name in ORDERS.items())
