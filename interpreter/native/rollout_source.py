"""A game's rollout kernel: the playout kernel (rules_source.py) with a second flow function,
`resume_flow`, that starts at a decision of a game under way instead of at the setup, and the
entry `rollout` that plays random moves from there to the end (what an MCTS bot's playouts do).

The Python engine stops at a decision on its flow instruction `play` (the state's pc) with the
seats of the `turns` loops around it in its environment. The kernel's flow is structured code,
so resuming is rendered in it: each `play` of the flow has a number (the order of the flow's
play instructions), and `resume_flow(..., resume, seats)` runs only what leads to play number
`resume`: a statement of a flow block runs when `resume` is 0 or the play is inside it; an `if`
enters the branch that holds it without testing its condition; a `turns` takes its seat from
`seats` and does not test its `until` before the resumed turn ends. At the play, `resume` becomes
0 and the flow goes on as in a whole playout. A play inside other flow statements (for, let) is
refused (NotNative): rollouts then stay in Python.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, PLAYER

from .not_native import NotNative
from .rules_source import KernelSource, Scope, module_source, untag


class RolloutSource(KernelSource):
    """KernelSource with a resumable flow (see the module's docstring)."""

    def __init__(self, game):
        plays = [ins for ins in game.flow if ins.op == "play"]
        self.play_number = {ins.span: k + 1 for k, ins in enumerate(plays)}
        self.play_at = {pc: self.play_number[ins.span] for pc, ins in enumerate(game.flow) if ins.op == "play"}
        self.turns_key = {ins.span: ins.key for ins in game.flow if ins.op == "turns_init"}
        self.resumed_turns: list[str] = []      # the env keys of the turns loops, as `seats` holds them
        self.resuming = False                   # rendering resume_flow (else the base run_flow)
        super().__init__(game)

    def plays_in(self, node) -> list:
        """The numbers of the plays in a node (a simultaneous step's play has none: no rollout
        resumes there, Python plays from such a state)."""
        return [self.play_number[n.span] for n in ast.walk(node) if isinstance(n, ast.Play) and n.span in self.play_number]

    def flow(self) -> None:
        super().flow()                          # run_flow, which the whole playouts call
        self.resuming = True
        try:
            body = self.block(self.program.flow.body, Scope(), flow=True)
        finally:
            self.resuming = False
        self.define("def resume_flow(S, mt, buf, max_moves, T, resume, seats):",
                    ["cur = S[CURRENT]", *body,
                     "if resume != 0:                  # (no play of that number: not a state of this flow)",
                     "    S[ERROR] = 1", "    return", "by_score(S)"])

    def block(self, statements, scope, flow: bool) -> list:
        if not (flow and self.resuming):
            return super().block(statements, scope, flow)
        out = []
        for statement in statements:
            node = untag(statement)
            lines = self.statement(node, scope, flow) or ["pass"]
            out += [f"if {' or '.join(['resume == 0'] + [f'resume == {k}' for k in self.plays_in(node)])}:",
                    *("    " + line for line in lines)]
        return out

    def statement(self, node, scope, flow: bool) -> list:
        if not (flow and self.resuming):
            return super().statement(node, scope, flow)
        if isinstance(node, ast.Let):
            raise NotNative("a let in the flow: a rollout cannot resume after it yet", node.span)
        if isinstance(node, ast.If) and self.plays_in(node):
            return self.resumed_if(node, scope)
        if self.plays_in(node) and not isinstance(node, (ast.Play, ast.Turns)):
            raise NotNative(f"a play inside {type(node).__name__}: a rollout cannot resume there yet", node.span)
        return super().statement(node, scope, flow)

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
        k = len(self.resumed_turns)
        self.resumed_turns.append(self.turns_key[node.span])
        seat = self.fresh("seat")
        start = self.expr(node.start, scope, PLAYER)
        until = self.expr(node.until, scope, BOOL) if node.until is not None else "False"
        body = self.block(node.body, scope, flow=True)
        return [f"{seat} = {start} if resume == 0 else seats[{k}]", f"if {seat} < 1 or {seat} > PLAYERS:",
                "    S[ERROR] = 1", "    return",
                "while True:", f"    if resume == 0 and ({until}):", "        break",
                "    if resume == 0:            # (resumed: the turn under way, its player already current)",
                f"        cur = {seat}", f"        S[CURRENT] = {seat}", "        S[EXTRA] = 0",
                *("    " + line for line in body), *("    " + line for line in self.next_seat(seat))]


ROLLOUT_DRIVER = '''
@njit(cache=True)
def rollout(S, mt, buf, resume, seats, max_moves, out):
    """Random moves from the state S (resumed at play number `resume`, the turns loops' seats in
    `seats`), at most max_moves, drawn from the generator mt; each seat's return into `out`.
    The status: 0 finished, 1 stopped at max_moves, 2 to play again in Python."""
    T = np.zeros(1, dtype=np.int64)
    S[MOVES] = 0
    resume_flow(S, mt, buf, max_moves, T, resume, seats)
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
    return source, (module_source(source)
                    + f"INT_NONE_CODE = {-(2 ** 63)}\n" + ROLLOUT_DRIVER)
