"""A game's rollout kernel: the playout kernel (rules_source.py) with a second flow function,
`resume_flow`, that starts at a decision of a game under way instead of at the setup, and the
entry `rollout` that plays random moves from there to the end (what an MCTS bot's playouts do).

The Python engine stops at a decision on its flow instruction `play` (the state's pc), what the
flow has bound in its environment: the seat of each `turns` loop around it, each `for` loop's
values and next position, the flow's `let`s. The kernel's flow is structured code, so resuming is
rendered in it: each `play` of the flow has a number (the order of the flow's play instructions),
and `resume_flow(..., resume, F)` runs only what leads to play number `resume`: a statement of a
flow block runs when `resume` is 0 or the play is inside it; an `if` enters the branch that holds
it without testing its condition; a `while` does not test its condition, a `turn` does not set
its player (the state's current one), a `turns` takes its seat from F and does not test its
`until` before the resumed turn ends; a `for` goes on over the values Python bound (F), from the
one under way, without filtering them again (Python filtered them when the loop began); a `let`
before a play in its block takes the value Python bound (F). At the play, `resume` becomes 0 and
the flow goes on as in a whole playout. F's layout is `env_slots` (flow_env.py writes it).
A state paused inside a step resumes at the step, its draws so far forced (paused_source.py).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, named_type

from .flow_env import cells_of
from .not_native import NotNative
from .paused_source import PausedSource
from .rules_source import ARGUMENT_BITS, MOVE_BASE, KernelSource, Scope, module_source, untag


class RolloutSource(PausedSource, KernelSource):
    """KernelSource with a resumable flow (see the module's docstring)."""

    def __init__(self, game):
        # the flow's decisions: its plays, and its simultaneous steps (each one decision)
        plays = [ins for ins in game.flow if ins.op in ("play", "simultaneous")]
        self.play_number = {ins.span: k + 1 for k, ins in enumerate(plays)}
        self.play_at = {pc: self.play_number[ins.span] for pc, ins in enumerate(game.flow)
                        if ins.op in ("play", "simultaneous")}
        self.turns_key = {ins.span: ins.key for ins in game.flow if ins.op == "turns_init"}
        self.for_key = {ins.span: ins.key for ins in game.flow if ins.op in ("for_init", "simultaneous")}
        # what F holds: an env key -> (its first cell, its kind: seat, loop, sealed or a let's type)
        self.env_slots: dict = {}
        self.loop_types: dict = {}              # a for loop's env key -> the type of its values
        self.resuming = False                   # rendering resume_flow (else the base run_flow)
        self.find_paused_steps(game)            # (paused_source.py: a step resumed at a choice)
        super().__init__(game)
        self.lay_out_forced()

    def plays_in(self, node) -> list:
        """The numbers of the decisions in a node (plays, simultaneous steps, flow statements
        that may choose: paused_source.py)."""
        return [self.play_number[n.span] for n in ast.walk(node)
                if isinstance(n, (ast.Play, ast.Simultaneous)) and n.span in self.play_number] + self.effect_numbers_in(node)

    def flow(self) -> None:
        super().flow()                          # run_flow, which the whole playouts call
        self.resuming = True
        try:
            body = self.block(self.program.flow.body, Scope(), flow=True)
        finally:
            self.resuming = False
        self.define("def resume_flow(S, mt, buf, max_moves, T, resume, F):",
                    ["cur = S[CURRENT]", "jumps = 0", *body,
                     "if resume != 0:                  # (no play of that number: not a state of this flow)",
                     "    S[ERROR] = 1", "    return", "by_score(S)"])

    def env_slot(self, key: str, kind) -> int:
        """The first cell of F of an env key (a loop's: where its values start, their number, the
        next position)."""
        if key not in self.env_slots:
            self.env_slots[key] = (cells_of(self.env_slots), kind)
        return self.env_slots[key][0]

    def block(self, statements, scope, flow: bool) -> list:
        if not (flow and self.resuming):
            return super().block(statements, scope, flow)
        out = []
        nodes = [untag(statement) for statement in statements]
        for k, node in enumerate(nodes):
            if isinstance(node, ast.Let) and any(self.plays_in(later) for later in nodes[k + 1:]):
                out += self.resumed_let(node, scope)
                continue
            lines = self.statement(node, scope, flow) or ["pass"]
            out += [f"if {' or '.join(['resume == 0'] + [f'resume == {k}' for k in self.plays_in(node)])}:",
                    *("    " + line for line in lines)]
        return out

    def statement(self, node, scope, flow: bool) -> list:
        if not (flow and self.resuming) or not self.plays_in(node):
            return super().statement(node, scope, flow)
        if node.span in self.effect_number:
            return self.resumed_effect(super().statement(node, scope, flow))
        if isinstance(node, ast.If):
            return self.resumed_if(node, scope)
        if isinstance(node, ast.While):
            test = ["if resume == 0 and not (" + self.expr(node.condition, scope, BOOL) + "):", "    break"]
            return self.loop(test + self.block(node.body, scope.child(), flow), flow)
        if isinstance(node, ast.For):
            return self.resumed_for(node, scope)
        if isinstance(node, ast.Simultaneous):
            return self.resumed_simultaneous(node, scope)
        if isinstance(node, ast.Turn):
            return ["if resume == 0:                  # (resumed: the turn's player is the current one)",
                    "    cur = " + self.expr(node.player, scope, PLAYER),
                    "    if cur < 1 or cur > PLAYERS:", "        S[ERROR] = 1", "        return",
                    "    S[CURRENT] = cur", *self.block(node.body, scope, flow)]
        if not isinstance(node, (ast.Play, ast.Turns, ast.Repeat)):
            raise NotNative(f"a play inside {type(node).__name__}: a rollout cannot resume there yet", node.span)
        return super().statement(node, scope, flow)

    def resumed_simultaneous(self, node, scope) -> list:
        """A simultaneous step, or resumed: the seats Python found (F: those that sealed their
        move, then the others), the moves sealed, the next seat to choose."""
        at = self.env_slot(self.for_key[node.span], "sealed")
        seats, sealed, k, first = (self.fresh(p) for p in ("seats", "sealed", "k", "first"))
        found, lines = self.simultaneous_seats(node, scope, seats)
        number = self.play_number[node.span]
        return [f"if resume == {number}:", f"    {seats} = F[F[{at}]:F[{at}] + F[{at + 1}]].copy()",
                f"    {found} = len({seats})", f"    {first} = F[{at + 2}]",
                f"    {sealed} = np.empty({found}, dtype=np.int64)",
                f"    {sealed}[:{first}] = F[F[{at}] + {found}:F[{at}] + {found} + {first}]", "    resume = 0",
                "else:", *("    " + line for line in lines),
                f"    {sealed} = np.empty({found}, dtype=np.int64)", f"    {first} = 0",
                *self.sealed_and_revealed(node, seats, sealed, k, first, found)]

    def move_code(self, index: int, args: tuple) -> int | None:
        """The kernel's code of a move of the game's action `index` (a sealed one), or None when
        its arguments are not coded as they are."""
        action = self.game.actions[index]
        kernel_index, node = self.actions[action.name]
        if any(self.over_rows(b) for b in node.binders) or self.subsets_domain(node) is not None:
            return None
        code = kernel_index * MOVE_BASE
        for k, (value, binder) in enumerate(zip(args, action.binders)):
            try:
                argument = value if value.__class__ is int else self.code_of(value, binder[3], None)
            except NotNative:
                return None
            if not 0 <= argument < 1 << ARGUMENT_BITS:
                return None
            code += argument << (ARGUMENT_BITS * k)
        return code

    def resumed_let(self, node, scope) -> list:
        """A let before a play of its block: resumed, the value Python bound (F)."""
        t = self.type_of(node.value)
        base = t.without_none()
        if base not in (INT, BOOL, PLAYER) and named_type(t) not in self.game.enum_members \
                and named_type(t) not in self.boards.geometries and named_type(t) not in self.ids_of_type:
            raise NotNative(f"a let of a {t.text} before a play: a rollout cannot resume after it yet", node.span)
        at = self.env_slot(node.name, t)
        value = self.expr(node.value, scope, t)
        var = self.fresh("L_")
        scope.names[node.name] = var
        bound = f"F[{at}] != 0" if base == BOOL else f"F[{at}]"
        return [f"{var} = ({value}) if resume == 0 else {bound}"]

    def resumed_for(self, node, scope) -> list:
        """A flow `for` holding a play: its values found (as the base for loop finds them), or
        resumed: the values Python bound, from the one under way, not filtered again."""
        key = self.for_key[node.span]
        at = self.env_slot(key, "loop")
        self.loop_types[key] = self.checked.local_types[node.binder.span]
        var, items, count, resumed, k = (self.fresh(p) for p in ("L_", "items", "count", "resumed", "k"))
        loop, capacity = self.domain_loop(node.binder, scope, var, changing=True)
        inner = scope.child(**{node.binder.name: var})
        test = [] if node.binder.condition is None else \
            [f"if not {resumed} and not ({self.expr(node.binder.condition, inner, BOOL)}):", "    continue"]
        body = self.block(node.body, inner, flow=True)
        return [f"{resumed} = resume != 0", f"if {resumed}:",
                f"    {items} = F[F[{at}]:F[{at}] + F[{at + 1}]]", f"    {k} = F[{at + 2}] - 1",
                "else:", *("    " + line for line in loop[:-1]),
                f"    {items} = np.empty({capacity}, dtype=np.int64)", f"    {count} = 0", "    " + loop[-1],
                f"        {items}[{count}] = {var}", f"        {count} += 1",
                f"    {items} = {items}[:{count}]", f"    {k} = 0",
                f"while {k} < len({items}):", f"    {var} = {items}[{k}]", f"    {k} += 1",
                *("    " + line for line in test + body)]

    def play(self, node) -> list:
        lines = super().play(node)
        return ["resume = 0", *lines] if self.resuming else lines

    def resumed_if(self, node, scope) -> list:
        out = []
        branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
        for k, (condition, body) in enumerate(branches):
            inside = [f"resume == {n}" for b in body for n in self.plays_in(untag(b))]
            test = " or ".join(inside + [f"(resume == 0 and {self.expr(condition, scope, BOOL)})"])
            out.append(f"{'if' if k == 0 else 'elif'} {test}:")
            out += ["    " + line for line in (self.block(body, scope, flow=True) or ["pass"])]
        if node.orelse:
            out.append("else:")
            out += ["    " + line for line in self.block(node.orelse, scope, flow=True)]
        return out

    def turns(self, node, scope) -> list:
        if not self.resuming:
            return super().turns(node, scope)
        k = self.env_slot(self.turns_key[node.span], "seat")
        seat = self.fresh("seat")
        start = self.expr(node.start, scope, PLAYER)
        until = self.expr(node.until, scope, BOOL) if node.until is not None else "False"
        body = self.block(node.body, scope, flow=True)
        return [f"{seat} = {start} if resume == 0 else F[{k}]", f"if {seat} < 1 or {seat} > PLAYERS:",
                "    S[ERROR] = 1", "    return",
                "while True:", f"    if resume == 0 and ({until}):", "        break",
                "    if resume == 0:            # (resumed: the turn under way, its player already current)",
                f"        cur = {seat}", f"        S[CURRENT] = {seat}", "        S[EXTRA] = 0",
                *("    " + line for line in body), *("    " + line for line in self.next_seat(seat)),
                *("    " + line for line in self.jumped())]       # (a flow that runs on without a move: Python's error)


ROLLOUT_DRIVER = '''
@njit(cache=True)
def rollout(S, mt, buf, resume, F, max_moves, out):
    """Random moves from the state S (resumed at play number `resume`, what the flow bound in F),
    at most max_moves, drawn from the generator mt; each seat's return into `out`.
    The status: 0 finished, 1 stopped at max_moves, 2 to play again in Python."""
    T = np.zeros(1, dtype=np.int64)
    S, buf = unowned(S), unowned(buf)      # (not reference-counted; the caller holds the arrays)
    S[MOVES] = MOVES_FROM
    resume_flow(S, mt, buf, max_moves, T, resume, F)FORCED_TAKEN
    if S[ERROR] or S[WINNERS] < 0:
        return 2
    if S[STOPPED]:
        return 1
    for p in range(1, PLAYERS + 1):
        out[p - 1] = returns_of(S, p)
        if out[p - 1] == INT_NONE_CODE:
            return 2
    return 0
'''


def render_rollouts(game) -> tuple:
    """(the RolloutSource, which knows where the kernel keeps each value, and the rollout
    kernel module's source) for a loaded game, or NotNative."""
    source = RolloutSource(game)
    start, taken = source.driver_moves()
    driver = ROLLOUT_DRIVER.replace("MOVES_FROM", start).replace("FORCED_TAKEN", taken)
    return source, module_source(source) + f"INT_NONE_CODE = {-(2 ** 63)}\n" + driver
