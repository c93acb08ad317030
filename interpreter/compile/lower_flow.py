"""The flow's instructions (instructions.py) lowered to the IR of `run_flow(s)`: one
`if pc == k:` block per instruction, in order, so that the next one follows without a dispatch
and a jump backwards starts the chain again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

import attrs
from referee.dsl.ast import Span

from . import ir
from .instructions import Instruction

FLOW_GROUP = 8      # the flow's instruction blocks per `if pc < k:` group

PC, JUMPS, ENV = ir.Local("pc"), ir.Local("jumps"), ir.Local("e")
STATE = ir.TheState()


def next_pc(value: ir.Expression) -> ir.Assign:
    return ir.Assign("pc", value)


def located(node: ir.Node, span: Span | None) -> ir.Node:
    """A statement and the statements inside it with `span` where they have none (an error
    raised on any of their lines is reported at the instruction's rules line)."""
    if isinstance(node, ir.Statement) and node.span is None:
        node = attrs.evolve(node, span=span)     # type: ignore[call-arg]
    return ir.rebuilt(node, lambda child: located(child, span) if isinstance(child, ir.Statement) else child)


def one_more(read: ir.Expression) -> ir.Arithmetic:
    return ir.Arithmetic("+", read, ir.Constant(1))


class FlowLowering:
    """Instructions -> the statements of their `if pc == k:` blocks."""

    def __init__(self, flow: list[Instruction], players: int, bind: Callable[[Instruction], str]) -> None:
        self.flow = flow
        self.players = players
        self.bind = bind         # an instruction -> its name in the generated module

    def me(self, ins: Instruction) -> ir.Global:
        return ir.Global(self.bind(ins))

    @staticmethod
    def condition(ins: Instruction) -> ir.Expression:
        """The expression of a condition's (or a turn's) instruction."""
        if ins.code is None:
            raise AssertionError(f"{ins.op} without its expression")
        return ins.code

    def jump(self, k: int, target: int) -> tuple[ir.Statement, ...]:
        """Go to instruction `target`; backwards, counting the jumps (a flow that runs on)."""
        if target > k:
            return (next_pc(ir.Constant(target)),)
        return (next_pc(ir.Constant(target)), ir.Assign("jumps", one_more(JUMPS)),
                ir.If(ir.Compare(">", JUMPS, ir.Global("LOOP_CAP")),
                      (ir.ExpressionStatement(ir.Call("flow_runs_on", (STATE,))),)),
                ir.Continue())

    def instruction(self, k: int, ins: Instruction) -> tuple[ir.Statement, ...]:
        """The statements of instruction k's block."""
        out: list[ir.Statement] = [ir.WriteState("pc", ir.Constant(k))]
        for where, counter in ins.counters:
            if where == "enter":
                out.append(ir.CountCoverage(counter))
            elif where == "new":
                out.append(ir.If(ir.Not(ir.HasEnv(ins.key)), (ir.CountCoverage(counter),)))
        then = tuple(ir.CountCoverage(counter) for where, counter in ins.counters if where == "then")
        following = next_pc(ir.Constant(k + 1))
        op = ins.op
        if op == "effect" and ins.may_choose:
            effect = ir.Call("effect_runner", (ir.Field(self.me(ins), "fn"),))
            out += [ir.ExpressionStatement(ir.Call("run_step", (STATE, effect, ir.Constant(True)))),
                    ir.If(ir.BoolOp("or", (ir.ReadState("terminal"),
                                           ir.Compare("is not", ir.ReadState("pending"), ir.Constant(None)))),
                          (ir.Return(),)),
                    next_pc(ir.ReadState("pc"))]
        elif op == "effect":
            out += [ir.Try(ins.statements, "Finished", (ir.Return(),)), following]
        elif op == "jump":
            out += self.jump(k, ins.target)
        elif op == "jump_unless":
            out.append(ir.If(self.condition(ins), then + (following,), self.jump(k, ins.target)))
        elif op == "for_init":
            domain = ir.Call("filtered_domain", (STATE, ENV, self.me(ins)))
            out += [ir.WriteEnv(ins.key, ir.Tuple((domain, ir.Constant(0)))), following]
        elif op == "for_next":
            values, i = ir.Local("values"), ir.Local("i")
            out += [ir.Unpack(("values", "i"), ir.ReadEnv(ins.key)),
                    ir.If(ir.Compare(">=", i, ir.Call("len", (values,))),
                          (ir.DeleteEnv(ins.key),) + self.jump(k, ins.target),
                          then + (ir.WriteEnv(ins.name, ir.Item(values, i)),
                                  ir.WriteEnv(ins.key, ir.Tuple((values, one_more(i)))), following))]
        elif op == "turns_init":
            first = ir.Call("seat", (STATE, self.condition(ins), ir.Constant("the first turn"), ir.Field(self.me(ins), "span")))
            out += [ir.WriteEnv(ins.key, first), following]
        elif op == "turns_check":
            out.append(ir.If(self.condition(ins), (ir.DeleteEnv(ins.key),) + self.jump(k, ins.target),
                             then + (ir.WriteState("current", ir.ReadEnv(ins.key)),
                                     ir.WriteState("extra", ir.Constant(False)),
                                     ir.WriteState("turn", one_more(ir.ReadState("turn"))), following)))
        elif op == "turns_next":
            after = one_more(ir.Arithmetic("%", ir.ReadEnv(ins.key), ir.Constant(self.players)))
            out.append(ir.If(ir.ReadState("extra"), (ir.WriteState("extra", ir.Constant(False)),),
                             (ir.WriteEnv(ins.key, after),)))
            out += self.jump(k, ins.target)
        elif op == "turn":
            player = ir.Call("seat", (STATE, self.condition(ins), ir.Constant("a turn"), ir.Field(self.me(ins), "span")))
            out += [ir.WriteState("current", player), ir.WriteState("turn", one_more(ir.ReadState("turn"))),
                    following]
        elif op == "play":
            out += [ir.WriteState("_legal", ir.Constant(None)), ir.If(ir.StateCall("listed"), (ir.Return(),))]
            out.append(following if ins.optional
                       else ir.ExpressionStatement(ir.Call("dead_end", (STATE, self.me(ins)))))
        elif op == "simultaneous":
            out += [ir.If(ir.Call("simultaneous_step", (STATE, self.me(ins))), (ir.Return(),)),
                    next_pc(ir.ReadState("pc")),
                    ir.If(ir.BoolOp("or", (ir.ReadState("terminal"),
                                           ir.Compare("is not", ir.ReadState("pending"), ir.Constant(None)))),
                          (ir.Return(),))]
        else:
            raise AssertionError(op)
        return tuple(cast(ir.Statement, located(statement, ins.span)) for statement in out)

    def run_flow(self) -> ir.Function:
        """run_flow(s): run the flow from s.pc until a player must decide or the game ends. A
        long flow's blocks are in groups under `if pc < k:`, so that starting far down tests a
        few groups, not every block before."""
        flow = self.flow
        blocks: list[ir.Statement] = []
        group: list[ir.Statement] = []
        grouped = len(flow) > 2 * FLOW_GROUP
        for k, ins in enumerate(flow):
            block = ir.If(ir.Compare("==", PC, ir.Constant(k)), self.instruction(k, ins), span=ins.span)
            if not grouped:
                blocks.append(block)
                continue
            group.append(block)
            if len(group) == FLOW_GROUP or k == len(flow) - 1:
                start = k + 1 - len(group)
                blocks.append(ir.If(ir.Compare("<", PC, ir.Constant(min(start + FLOW_GROUP, len(flow)))),
                                    tuple(group), span=flow[start].span))
                group = []
        last = flow[-1].span if flow else None
        blocks += [ir.If(ir.Compare(">=", PC, ir.Constant(len(flow))),
                         (ir.WriteState("pc", PC, span=last),
                          ir.ExpressionStatement(ir.Call("finish_by_score", (STATE,)), span=last),
                          ir.Return(span=last)), span=last),
                   ir.Continue(span=last)]
        body = (ir.Assign("e", ir.ReadState("env")), ir.Assign("pc", ir.ReadState("pc")),
                ir.Assign("jumps", ir.Constant(0)), ir.While(ir.Constant(True), tuple(blocks)))
        return ir.Function("run_flow", ("s",), body)


def lower_run_flow(flow: list[Instruction], players: int, bind: Callable[[Instruction], str]) -> ir.Function:
    return FlowLowering(flow, players, bind).run_flow()
