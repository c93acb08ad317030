"""The rules' flow -> its instructions (instructions.py): a flat list with jumps, each
condition an IR expression and each effect IR statements (lower_statements.py), which
lower_flow.py turns into run_flow's IR. A mixin of the Compiler (compiler.py)."""
from __future__ import annotations

from referee.dsl import ast

from . import ir
from .codegen import Context
from .instructions import Instruction
from .lower_flow import located


class FlowInstructions:
    """The flow compiled to instructions, and run_flow."""

    def compile_flow(self, flow):
        """run_flow(s): the flow's instructions lowered to the IR (lower_flow.py), the passes not
        switched off run over it, then rendered."""
        # (the IR is imported only when a game compiles: `referee check` starts without it)
        from .lower_flow import lower_run_flow
        from .passes import run_passes
        function = lower_run_flow(flow, self.game.num_players, lambda ins: self.codegen.bind(ins, "ins"))
        return self.define(run_passes(function, self.game.passes_off), by_rule=False, passes=False)

    def flow_block(self, statements, scope, out):
        scope = scope.child()
        for statement in statements:
            start = len(out)
            self.flow_statement(ast.untag(statement)[0], scope, out)
            if self.coverage is not None:
                self.flow_counters(ast.untag(statement)[0], out, start)

    def flow_counters(self, node, out, start):
        """With coverage: the counters of a tagged flow statement, on the instructions it became
        (out[start:]): 'enter' counts where an instruction starts, 'new' where a simultaneous
        decision starts, 'then' where a condition holds (a loop goes round)."""
        if isinstance(node, ast.If):
            counter = self.counter(node)
            if counter is None:
                return
            out[start].counters += (("enter", counter),)
            conditions = [node.condition] + [c.condition for c in node.elifs]
            for k, condition in enumerate(conditions):
                ins = next(i for i in out[start:] if i.op == "jump_unless" and i.span is condition.span)
                ins.counters += (("then", counter + 1 + k),)
            return
        slots = {ast.While: ("evaluated", "true"), ast.Repeat: ("rounds",)}.get(type(node))
        counter = self.counter(node, slots)
        if counter is None:
            return
        if isinstance(node, ast.Repeat):
            out[-1].counters += (("enter", counter),)     # its last instruction: a round ends
        elif isinstance(node, ast.Simultaneous):
            out[start].counters += (("new", counter),)
            play = self.counter(ast.untag(node.body[0])[0])
            if play is not None:
                out[start].counters += (("new", play),)
        else:
            out[start].counters += (("enter", counter),)
            if isinstance(node, (ast.While, ast.For, ast.Turns)):
                out[start + (0 if isinstance(node, ast.While) else 1)].counters += (("then", counter + 1),)

    def flow_expr(self, node, scope):
        """An expression of the flow as IR, in the flow's environment: a constant, or codegen's
        IR (run inside run_flow: no function of its own)."""
        if isinstance(node, (ast.Boolean, ast.Integer)):
            return ir.Constant(node.value, node.span)
        return self.codegen.lower(node, scope, Context("env"))

    def flow_statement(self, node, scope, out):
        here = len(out)
        key = f"#{here}"
        if isinstance(node, ast.Play):
            indexes = tuple(self.action_index[n] for n in node.actions)
            out.append(Instruction("play", node.span, actions=indexes, optional=node.optional))
        elif isinstance(node, ast.Turns):
            until = self.flow_expr(node.until, scope) if node.until is not None else ir.Constant(False)
            out.append(Instruction("turns_init", node.span, key=key, code=self.flow_expr(node.start, scope)))
            check = len(out)
            out.append(Instruction("turns_check", node.span, key=key, code=until))
            self.flow_block(node.body, scope, out)
            out.append(Instruction("turns_next", node.span, key=key, target=check))
            out[check].target = len(out)
        elif isinstance(node, ast.Turn):
            out.append(Instruction("turn", node.span, code=self.flow_expr(node.player, scope)))
            self.flow_block(node.body, scope, out)
        elif isinstance(node, ast.Simultaneous):
            domain, where, inner, _ = self.binder_functions(node.binder, scope, "simultaneous")
            play = ast.untag(node.body[0])[0]
            indexes = tuple(self.action_index[n] for n in play.actions)
            out.append(Instruction("simultaneous", node.span, fn=(domain, where), key=key,
                                   name=node.binder.name, actions=indexes))
        elif isinstance(node, ast.If):
            branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
            ends = []
            for condition, body in branches:
                jump = len(out)
                out.append(Instruction("jump_unless", condition.span, code=self.flow_expr(condition, scope)))
                self.flow_block(body, scope, out)
                ends.append(len(out))
                out.append(Instruction("jump", node.span))
                out[jump].target = len(out)
            self.flow_block(node.orelse, scope, out)
            for end in ends:
                out[end].target = len(out)
        elif isinstance(node, ast.While):
            check = len(out)
            out.append(Instruction("jump_unless", node.span, code=self.flow_expr(node.condition, scope)))
            self.flow_block(node.body, scope, out)
            out.append(Instruction("jump", node.span, target=check))
            out[check].target = len(out)
        elif isinstance(node, ast.Repeat):
            inner = scope.child()
            start = len(out)
            self.flow_block(node.body, inner, out)
            if node.until is None:
                out.append(Instruction("jump", node.span, target=start))
            else:
                out.append(Instruction("jump_unless", node.span, target=start, code=self.flow_expr(node.until, inner)))
        elif isinstance(node, ast.For):
            domain, where, inner, _ = self.binder_functions(node.binder, scope, "for")
            out.append(Instruction("for_init", node.span, fn=(domain, where), key=key, name=node.binder.name))
            step = len(out)
            out.append(Instruction("for_next", node.span, fn=where, key=key, name=node.binder.name))
            self.flow_block(node.body, inner, out)
            out.append(Instruction("jump", node.span, target=step))
            out[step].target = len(out)
        else:
            ctx = Context("env")
            ctx.steps = self.may_choose((node,))      # a generator, run by the engine as a step
            effect = []
            self.dispatch(node, scope, ctx, effect)
            effect = tuple(located(statement, node.span) for statement in effect)
            if ctx.steps:      # run by the engine as a step (effect_runner): a function of its own
                what = node.name if isinstance(node, ast.CallStatement) else type(node).__name__.lower()
                fn = self.define(ir.Function(self.held_name("step", what), ("s", "e"), effect, node.span))
                out.append(Instruction("effect", node.span, fn=fn, may_choose=True))
            else:               # in run_flow itself
                out.append(Instruction("effect", node.span, statements=effect))
