"""Actions compiled: each action's guard, its effect, the texts of its refusals, and its
enumerator of legal moves (lower_listing.py); what listing an action's moves costs; where its
guard's lets and requires go while listing (guard_placement, guards_as_filters)."""
from __future__ import annotations


import attrs

from referee.dsl import ast

from ..runtime import RuleText, counting_legal, without_choice
from . import ir
from .lower_naming import identifier
from .codegen import Context, names_in
from .lower_flow import located
from .work import FREE_WORK


@attrs.define
class CompiledAction:
    name: str
    index: int
    binders: tuple             # (name, domain fn, where fn or None, element Type: never none)
    guard: object              # f(s, env) -> None when legal, else the reason
    run: object                # f(s, *args): checks the guard again, then the effect
    template: str
    may_choose: bool
    span: object
    condition_texts: tuple     # per binder, why a value its where filter refuses is refused: the
    #                            binder's `else` text, or the filter in words ("flag[c] must be none")
    outside_texts: tuple = ()  # per binder, its `in D else` text (f(s, env)) for a value not in D, or None
    enumerate: object = None   # generated: f(s) -> the legal argument tuples, in binder order
    steps: object = None       # may_choose: the generator form of run (a choice yields)
    run_legal: object = None   # f(s, *args): the effect of a move just listed as legal (no guard again)


def is_pick(node) -> bool:
    return isinstance(node, ast.Call) and node.name == "pick" and len(node.arguments) == 1


def guard_placement(action) -> tuple:
    """The guard's let/require nodes: those that need no binder, and those placed right
    after the last binder they depend on, so that enumeration prunes as early as it can."""
    level = {b.name: k for k, b in enumerate(action.binders)}
    early, placed = [], [[] for _ in action.binders]
    for statement in action.body:
        node = ast.untag(statement)[0]
        if not isinstance(node, (ast.Let, ast.Require)):
            break
        expression = node.value if isinstance(node, ast.Let) else node.condition
        depth = max((level[n] for n in names_in(expression) if n in level), default=-1)
        if isinstance(node, ast.Let):
            level[node.name] = depth
        (early if depth < 0 else placed[depth]).append(node)
    return early, placed


class ActionCompiler:
    """The part of the Compiler that compiles actions (a mixin of compiler.Compiler)."""

    def reason_function(self, text, scope, binder, kind, action):
        """f(s, e) -> a binder's own text for a refused value (`kind` why: its filter refused
        it, outside: its domain does not hold it), its {expressions} of the binders so far (e:
        their values)."""
        name = self.held_name(kind, action.name, binder.name)
        reason = self.reason_node(text, scope, Context("env"), binder.span)
        return self.define(ir.Function(name, ("s", "e"), (ir.Return(reason, binder.span),), binder.span),
                           self.where(binder))

    def compile_action(self, index, action):
        scope = self.types.globals
        binders = []
        texts, outside = [], []
        for binder in action.binders:
            domain_type = self.type_value(binder.domain, scope)
            domain, where, scope, element = self.binder_functions(binder, scope, action.name)
            binders.append((binder.name, domain, where, element))
            if self.codegen.never_none_domain(binder.domain, domain_type, scope):
                self.listed_scopes[id(scope)] = scope     # its moves come from the domain: never none
            if binder.reason is not None:
                texts.append(self.reason_function(binder.reason, scope, binder, "why", action))
            else:
                texts.append(RuleText(self.in_words(binder.condition)) if binder.condition is not None else "")
            outside.append(self.reason_function(binder.outside, scope, binder, "outside", action)
                           if binder.outside is not None else None)
        guard_scope = scope.child()
        run_scope = scope.child()
        legal_scope = scope.child()
        guard: list = []
        run: list = []
        legal: list = []
        checks = 0
        rest = list(action.body)
        env, local = Context("env"), Context("local")
        span = self.codegen.bind(action.span, "span")
        at = action.span            # the span of the guard's last step (its lines after it)
        while rest and isinstance(ast.untag(rest[0])[0], (ast.Let, ast.Require)):
            node = ast.untag(rest.pop(0))[0]
            at = node.span
            if isinstance(node, ast.Let):
                for out, node_scope, ctx in ((guard, guard_scope, env), (run, run_scope, local),
                                             (legal, legal_scope, Context("local"))):
                    steps: list = []
                    self.visit_Let(node, node_scope, ctx, steps)
                    out.extend(located(s, at) for s in steps)
            else:
                checks += 1
                reason = node.reason or f"this needs {self.source_text(node.condition)}"
                # a require without 'else': its reason is the rule's own text, marked as such
                given = self.reason_node(node.reason, guard_scope, env, node.span) if node.reason \
                    else ir.Global(self.codegen.bind(RuleText(reason), "rule"))
                guard.append(ir.Unless(self.condition(node.condition, guard_scope, env),
                                       (ir.Return(given, at),), at))
                refused = ir.Call("RulesRuntimeError", (ir.Constant("move no longer legal: " + reason), ir.Global(span)))
                run.append(ir.Unless(self.codegen.lower(node.condition, run_scope, local), (ir.Raise(refused, at),), at))
        guard.append(ir.Return(ir.Constant(None), at))
        name = identifier(action.name)
        guard_fn = self.define(ir.Function(f"guard_{name}", ("s", "e"), tuple(guard), action.span), self.where(action))
        may_choose = self.may_choose(rest)   # (a pick in the guard is drawn where legal moves are listed)
        local.steps = may_choose           # an action that may choose is a generator: its steps
        counter = self.counter(action)
        params = self.params_of(action.binders)
        effect = [located(s, at) for s in self.count(counter)]     # (played)
        run_fn = self.define(ir.Function(f"act_{name}", params, tuple(run + effect) + self.statements(rest, run_scope, local),
                                         action.span), self.where(action))
        run_legal = run_fn
        if checks and not may_choose:
            # a move just listed as legal passed its guard: its effect without the checks
            body = tuple(legal + effect) + self.statements(rest, legal_scope, Context("local"))
            run_legal = self.define(ir.Function(f"act_legal_{name}", params, body, action.span), self.where(action))
        steps = None
        if may_choose:
            steps = run_fn

            def run_fn(s, *args, steps=steps):
                without_choice(steps(s, *args), s)
        template = action.template or " ".join([action.name] + ["{%s}" % b.name for b in action.binders])
        compiled = CompiledAction(action.name, index, tuple(binders), guard_fn, run_fn, template,
                                  may_choose, action.span, tuple(texts), tuple(outside))
        compiled.steps = steps
        compiled.run_legal = run_legal
        compiled.enumerate = self.enumeration(action, template)
        if counter is not None:
            compiled.enumerate = counting_legal(compiled.enumerate, self.coverage.counts, counter + 1)
        return compiled

    def listing_charge(self, action):
        """What one tuple tried costs when the action's legal moves are listed (its filters,
        the domains computed per outer value, its guard's first lets and requires), or None
        when the whole listing costs at most FREE_WORK (domains of lengths known when
        compiling): then it charges nothing (work.py)."""
        if action.name not in self.listing_units:
            guard = []
            for statement in action.body:
                node = ast.untag(statement)[0]
                if not isinstance(node, (ast.Let, ast.Require)):
                    break
                guard.append(node)
            units = 1 + self.work.cost(tuple(guard)) + sum(
                self.work.cost(b.condition) + self.work.cost(b.domain) for b in action.binders)
            tried = 1
            for binder in action.binders:
                length = self.work.static_length(binder.domain)
                tried = None if tried is None or length is None else tried * length
            free = tried is not None and tried * units <= FREE_WORK
            self.listing_units[action.name] = (None, tried * units) if free else (units, 1)
        return self.listing_units[action.name][0]

    def level_units(self, part, k) -> int:
        """What one value of binder k costs where its loop tries it: its filter and the guard
        steps placed at its level (its domain is computed once per loop)."""
        binder = part.action.binders[k]
        return 1 + self.work.cost(binder.condition) + \
            self.work.cost(tuple(part.stage_nodes[k]))

    def listing_cost(self, name) -> int:
        """What listing an action's moves costs its caller (can_play): all of it when it is
        free, else one unit (the listing charges itself)."""
        self.listing_charge(self.types.actions[name])
        return self.listing_units[name][1]

    def guards_as_filters(self, action, unfolded=1):
        """The action with each inner binder's first requires that test it and no earlier
        binder (nor a let) made part of its filter: `t in stock[current], c in Grid` with
        `require size(spot[c]) == 0` tries each cell once per listing, not once per token
        (an independent domain's filter is computed once: emit_fixed_domains). The tuples and
        their order stay the same; a require tested so runs as a binder's `where` does (once per
        value, before the loops). Binders before `unfolded` are left as they are (the shared
        loops of a fused listing), and so is everything with rule coverage (its counters)."""
        if self.coverage is not None or len(action.binders) <= unfolded:
            return action
        early, placed = self.guard_placement(action)
        lets = {n.name for n in early + [n for stage in placed for n in stage] if isinstance(n, ast.Let)}
        binders, folded = list(action.binders), set()
        for k in range(unfolded, len(binders)):
            outside = {b.name for b in binders[:k]} | lets
            binder = binders[k]
            if names_in(binder.domain) & outside or (binder.condition is not None and names_in(binder.condition) & outside):
                continue        # not an independent domain: its filter runs per outer value anyway
            condition = binder.condition
            for node in placed[k]:
                if not isinstance(node, ast.Require) or names_in(node.condition) & outside:
                    break
                condition = node.condition if condition is None else ast.And(node.span, condition, node.condition)
                folded.add(id(node))
            if condition is not binder.condition:
                binders[k] = attrs.evolve(binder, condition=condition)
        if not folded:
            return action
        body = tuple(statement for statement in action.body if id(ast.untag(statement)[0]) not in folded)
        return attrs.evolve(action, binders=tuple(binders), body=body)

    def guard_placement(self, action):
        return guard_placement(action)

    def may_choose(self, statements) -> bool:
        """Whether running these statements may stop at a choice (so the engine keeps a copy);
        with explicit chance, at a chance node too (a shuffle, a pick given to a let or an
        assignment)."""
        return any(isinstance(n, (ast.Choose, ast.PlayBy, ast.Respond))
                   or (isinstance(n, ast.CallStatement) and n.name in self.may_choose_procs)
                   or (self.explicit_chance and (isinstance(n, ast.Shuffle) or (
                       isinstance(n, (ast.Let, ast.Assign)) and is_pick(n.value))))
                   for n in ast.walk(tuple(statements)))
