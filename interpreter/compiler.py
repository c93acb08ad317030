"""A checked program -> Python functions, once per (options, player count).

Every expression becomes `f(s, env)` (s: the state, env: a dict of locals), generated as Python
source by codegen.py (aggregates and rankings are closures built here); every statement
becomes a closure `f(s, env)` that changes s. The flow becomes a flat list of instructions with a program
counter kept in the state, so that a game can stop at any decision and be copied cheaply.
"""
from __future__ import annotations

import re

import attrs

from dsl import ast
from dsl.checker import Checker, element_of, strip_optional

from . import random_source
from .codegen import SOURCE_NODES, SourceGenerator
from .errors import Finished, NeedChoice, RulesRuntimeError

PUBLIC = 0      # a viewer who is no player: sees only what everybody may see

EMPTY = ()
LOOP_CAP = 100_000



# ---- flow instructions ------------------------------------------------------------------

@attrs.define
class Instruction:
    op: str                    # effect, jump, jump_if, jump_unless, for_init, for_next, turns_init,
    #                            turns_check, turns_next, turn, play, simultaneous
    span: object = None
    fn: object = None          # a compiled expression or statement
    target: int = -1           # jump target
    key: str = ""              # where the instruction keeps its progress in s.env
    name: str = ""             # a loop variable
    actions: tuple = ()        # action indexes for play / simultaneous
    optional: bool = False
    may_choose: bool = False


@attrs.define
class CompiledAction:
    name: str
    index: int
    binders: tuple             # (name, domain fn, where fn or None, element type)
    guard: object              # f(s, env) -> None when legal, else the reason
    body: object               # f(s, env)
    template: str
    may_choose: bool
    span: object
    condition_texts: tuple     # the source text of each where filter, for refusals
    enumerate: object = None   # generated: f(s) -> the legal argument tuples, in binder order


@attrs.define
class CompiledTrigger:
    name: str
    binder: object             # (name, domain fn, where fn) or None
    condition: object
    body: object
    span: object


def names_in(node) -> set:
    """Every name an expression mentions (a safe over-approximation of what it depends on)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def simple_argument(node) -> bool:
    """An argument cheap and pure enough to be evaluated again wherever it is used."""
    while isinstance(node, ast.Attribute):
        node = node.obj
    return isinstance(node, (ast.Name, ast.Integer, ast.Text, ast.Boolean, ast.Nothing))


def can_inline(fn_decl, arguments) -> bool:
    """Inline a call when every argument is simple and no name the body binds could capture a
    name the arguments use."""
    if not all(simple_argument(a) for a in arguments):
        return False
    bound = {n.name for n in ast.walk(fn_decl.body) if isinstance(n, ast.Binder)}
    used = set().union(*(names_in(a) for a in arguments)) if arguments else set()
    return not (bound & used) and not (bound & {p.name for p in fn_decl.parameters})


class Compiler:
    def __init__(self, program, game, sources):
        self.program = program
        self.game = game
        self.sources = sources
        self.types = Checker(program)
        self.types.run()          # fills param types; the program is known to be clean
        self.types.diagnostics = []
        self.procedures = {}
        self.functions = {}
        self.may_choose_procs = set()
        self.codegen = SourceGenerator(self)
        self.inline_depth = 0

    # ---- helpers ----
    def type_of(self, node, scope) -> str:
        saved = self.types.diagnostics
        t = self.types.expr(node, scope)
        self.types.diagnostics = saved
        return t

    def source_text(self, node) -> str:
        span = node.span
        text = self.sources.get(span.file)
        if text is None or span.line == 0:
            return "a condition"
        lines = text.splitlines()
        if span.line == span.end_line:
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        first = lines[span.line - 1][span.column - 1:]
        return first + " ..."

    def constant(self, node):
        """Evaluate an expression that needs no state (params, sizes, initial values)."""
        fn = self.expr(node, self.types.globals)
        try:
            return fn(None, {})
        except (AttributeError, TypeError) as error:
            raise RulesRuntimeError(f"this must be known before the game starts ({error})", node.span)

    # ---- expressions ----
    def expr(self, node, scope):
        if isinstance(node, SOURCE_NODES):
            return self.codegen.function(node, scope)
        return getattr(self, "x_" + type(node).__name__)(node, scope)

    def collection(self, node, scope):
        """A compiled expression that yields a sequence, reading a zone's content if needed."""
        fn = self.expr(node, scope)
        if self.type_of(node, scope).startswith("zone["):
            def read(s, e):
                return s.zones.get(fn(s, e), EMPTY)
            return read
        return fn

    def key(self, name, indexes, scope):
        parts = [self.expr(i, scope) for i in indexes]
        if not parts:
            return lambda s, e: name
        if len(parts) == 1:
            (a,) = parts
            return lambda s, e: (name, a(s, e))
        if len(parts) == 2:
            a, b = parts
            return lambda s, e: (name, a(s, e), b(s, e))
        return lambda s, e: (name, *[p(s, e) for p in parts])

    def binder(self, binder, scope):
        domain = self.collection(binder.domain, scope)
        element = strip_optional(element_of(self.type_of(binder.domain, scope)))
        inner = scope.child(**{binder.name: element})
        where = self.expr(binder.condition, inner) if binder.condition is not None else None
        return domain, where, inner, element

    def x_Aggregate(self, node, scope):
        domain, where, inner, _ = self.binder(node.binder, scope)
        name = node.binder.name
        body = self.expr(node.value, inner) if node.value is not None else (lambda s, e: e[name])

        def items(s, e):
            local = dict(e)
            for value in list(domain(s, e)):
                local[name] = value
                if where is None or where(s, local):
                    yield local

        kind = node.kind
        # count and filter are the hot ones: plain loops, no generator
        if kind == "count":
            if where is None:
                return lambda s, e: len(domain(s, e))

            def count(s, e):
                local = dict(e)
                n = 0
                for value in domain(s, e):
                    local[name] = value
                    if where(s, local):
                        n += 1
                return n
            return count
        if kind == "filter":
            if where is None:
                return lambda s, e: list(domain(s, e))

            def keep(s, e):
                local = dict(e)
                out = []
                for value in domain(s, e):
                    local[name] = value
                    if where(s, local):
                        out.append(value)
                return out
            return keep
        if kind == "map":
            return lambda s, e: [body(s, local) for local in items(s, e)]
        if kind == "first":
            return lambda s, e: next((local[name] for local in items(s, e)), None)
        if kind in ("any", "all") and node.value is None:
            # no ':' part: any = some item passes the filter, all = every item passes it
            # (the items themselves are not truth values: a component or cell id may be 0)
            if kind == "any":
                return lambda s, e: next(items(s, e), None) is not None

            def every(s, e):
                local = dict(e)
                for value in list(domain(s, e)):
                    local[name] = value
                    if where is not None and not where(s, local):
                        return False
                return True
            return every
        if kind == "any":
            return lambda s, e: any(body(s, local) for local in items(s, e))
        if kind == "all":
            return lambda s, e: all(body(s, local) for local in items(s, e))
        if kind == "sum":
            return lambda s, e: sum(body(s, local) or 0 for local in items(s, e))
        pick = max if kind == "max" else min

        def extreme(s, e):
            values = [v for v in (body(s, local) for local in items(s, e)) if v is not None]
            return pick(values) if values else None
        return extreme

    def x_Ranking(self, node, scope):
        domain, where, inner, _ = self.binder(node.binder, scope)
        name = node.binder.name
        keys = [self.expr(k, inner) for k in node.keys]
        kind = node.kind

        def ranked(s, e):
            local = dict(e)
            scored = []
            for value in list(domain(s, e)):
                local[name] = value
                if where is None or where(s, local):
                    scored.append((tuple((k(s, local) or 0) for k in keys), value))
            if kind == "sorted":
                return [v for _, v in sorted(scored, key=lambda kv: kv[0], reverse=True)]
            if not scored:
                return []
            target = (max if kind == "best" else min)(k for k, _ in scored)
            return [v for k, v in scored if k == target]
        return ranked

    # ---- statements ----
    def block(self, statements, scope):
        scope = scope.child()
        compiled = [self.statement(ast.untag(st)[0], scope) for st in statements]
        compiled = [c for c in compiled if c is not None]
        if not compiled:
            return lambda s, e: None
        if len(compiled) == 1:
            return compiled[0]
        if len(compiled) == 2:
            a, b = compiled

            def two(s, e):
                a(s, e)
                b(s, e)
            return two

        def run(s, e):
            for c in compiled:
                c(s, e)
        return run

    def statement(self, node, scope):
        return getattr(self, "s_" + type(node).__name__)(node, scope)

    def s_Let(self, node, scope):
        value = self.expr(node.value, scope)
        scope.names[node.name] = self.type_of(node.value, scope)
        name = node.name

        def let(s, e):
            e[name] = value(s, e)
        return let

    def assignment_key(self, target, scope):
        if scope.lookup(target.name) is not None and target.name not in self.types.globals.names and not target.indexes:
            return None
        return self.key(target.name, target.indexes, scope)

    def s_Assign(self, node, scope):
        value = self.expr(node.value, scope)
        key = self.assignment_key(node.target, scope)
        name = node.target.name
        if key is None:
            def assign_local(s, e):
                e[name] = value(s, e)
            return assign_local

        def assign(s, e):
            s.vars[key(s, e)] = value(s, e)
        return assign

    def s_Augment(self, node, scope):
        value = self.expr(node.value, scope)
        sign = 1 if node.op == "+=" else -1
        key = self.assignment_key(node.target, scope)
        name = node.target.name
        if key is None:
            def augment_local(s, e):
                e[name] = e[name] + sign * value(s, e)
            return augment_local
        default = self.game.var_defaults[name]

        def augment(s, e):
            k = key(s, e)
            s.vars[k] = s.vars.get(k, default) + sign * value(s, e)
        return augment

    def s_If(self, node, scope):
        branches = [(self.expr(node.condition, scope), self.block(node.body, scope))]
        for clause in node.elifs:
            branches.append((self.expr(clause.condition, scope), self.block(clause.body, scope)))
        orelse = self.block(node.orelse, scope) if node.orelse else None
        if len(branches) == 1:
            (c, b), = branches

            def if_(s, e):
                if c(s, e):
                    b(s, e)
                elif orelse is not None:
                    orelse(s, e)
            return if_

        def chain(s, e):
            for c, b in branches:
                if c(s, e):
                    b(s, e)
                    return
            if orelse is not None:
                orelse(s, e)
        return chain

    def s_For(self, node, scope):
        domain, where, inner, _ = self.binder(node.binder, scope)
        body = self.block(node.body, inner)
        name = node.binder.name

        def for_(s, e):
            for value in list(domain(s, e)):
                e[name] = value
                if where is None or where(s, e):
                    body(s, e)
        return for_

    def s_While(self, node, scope):
        condition, body, span = self.expr(node.condition, scope), self.block(node.body, scope), node.span

        def while_(s, e):
            for _ in range(LOOP_CAP):
                if not condition(s, e):
                    return
                body(s, e)
            raise RulesRuntimeError(f"a 'while' loop ran {LOOP_CAP} times", span)
        return while_

    def s_Repeat(self, node, scope):
        inner = scope.child()
        body = self.block(node.body, inner)
        until = self.expr(node.until, inner) if node.until is not None else None
        span = node.span

        def repeat(s, e):
            for _ in range(LOOP_CAP):
                body(s, e)
                if until is not None and until(s, e):
                    return
            raise RulesRuntimeError(f"a 'repeat' loop ran {LOOP_CAP} times", span)
        return repeat

    def destination(self, node, scope):
        return self.expr(node.zone, scope), isinstance(node, ast.ToBottom)

    def s_Move(self, node, scope):
        item = self.expr(node.item, scope)
        zone, under = self.destination(node.destination, scope)

        def move(s, e):
            x = item(s, e)
            if x is not None:
                s.move(x, zone(s, e), under)
        return move

    def s_MoveAll(self, node, scope):
        items = self.collection(node.source, scope)
        zone, under = self.destination(node.destination, scope)

        def move_all(s, e):
            target = zone(s, e)
            moving = list(items(s, e))
            if under:
                moving.reverse()
            for x in moving:
                s.move(x, target, under)
        return move_all

    def s_Deal(self, node, scope):
        count, source = self.expr(node.count, scope), self.expr(node.source, scope)
        zone, under = self.destination(node.destination, scope)

        def deal(s, e):
            n, src, target = count(s, e), source(s, e), zone(s, e)
            pile = s.zones.get(src)
            for _ in range(max(0, n)):
                if not pile:
                    return
                s.move(pile[-1], target, under)
        return deal

    def s_Shuffle(self, node, scope):
        zone = self.expr(node.zone, scope)

        def shuffle(s, e):
            items = s.zones.get(zone(s, e))
            if items:
                s.rng = random_source.shuffle(s.rng, items)
        return shuffle

    def s_Create(self, node, scope):
        count, zone = self.expr(node.count, scope), self.expr(node.zone, scope)
        inits = [(i.name, self.expr(i.value, scope)) for i in node.inits]
        type_name = node.type_name
        template = self.game.label_templates.get(type_name)

        def create(s, e):
            values = {name: f(s, e) for name, f in inits}
            values.setdefault("owner", None)
            for _ in range(count(s, e)):
                s.create(type_name, dict(values), template, zone(s, e))
        return create

    def s_Choose(self, node, scope):
        domain, where, inner, element = self.binder(node.binder, scope)
        body = self.block(node.body, inner)
        chooser = self.expr(node.chooser, scope) if node.chooser is not None else None
        name, prompt = node.binder.name, node.prompt or f"choose {node.binder.name}"
        labeler = self.game.labeler(element)
        public = self.game.labeler(element, PUBLIC) if strip_optional(element) in self.game.private_fields else None

        def choose(s, e):
            options = []
            for value in list(domain(s, e)):
                e[name] = value
                if where is None or where(s, e):
                    options.append(value)
            if not options:
                return
            names = None
            if len(options) > 1:
                # options that look the same (identical cards) are one option
                names, kept = [], []
                for value in options:
                    label = labeler(s, value)
                    if label not in names:
                        names.append(label)
                        kept.append(value)
                options = kept
            if len(options) == 1:
                index = 0
            elif s.cursor < len(s.choices):
                index = s.choices[s.cursor]
                s.cursor += 1
            else:
                who = chooser(s, e) if chooser is not None else s.current
                raise NeedChoice(options, names, who, prompt,
                                 [public(s, v) for v in options] if public is not None else None)
            e[name] = options[index]
            body(s, e)
        return choose

    def s_Require(self, node, scope):
        raise AssertionError("requirements are compiled with their action's guard")

    def s_Again(self, node, scope):
        def again(s, e):
            s.extra = True
        return again

    def s_Finish(self, node, scope):
        winners = self.expr(node.winners, scope) if node.winners is not None else (lambda s, e: [])

        def finish(s, e):
            s.terminal = True
            s.winners = sorted(set(winners(s, e)))
            raise Finished()
        return finish

    def s_Log(self, node, scope):
        message = node.message
        pattern = re.compile(r"\{(\w+)\}")
        # the log is public: owner-only attributes are masked in it
        labelers = {n: self.game.labeler(t, PUBLIC) for n, t in self.local_types(scope).items()}
        # a placeholder may also name a global value: current, a param, a var without index
        for name in set(pattern.findall(message)) - set(labelers):
            var = self.types.vars.get(name)
            if name in self.game.params or (var is not None and not var.index) or \
                    (name in self.types.globals.names and name not in self.types.components):
                reference = ast.Name(node.span, name)
                value, labeler = self.expr(reference, scope), self.game.labeler(self.type_of(reference, scope), PUBLIC)
                labelers[name] = (value, labeler)

        def text(s, e, name):
            found = labelers.get(name)
            if found is None:
                return "{" + name + "}"
            if isinstance(found, tuple):
                value, labeler = found
                return labeler(s, value(s, e))
            return found(s, e.get(name))

        def log(s, e):
            s.log.append(pattern.sub(lambda m: text(s, e, m.group(1)), message))
        return log

    def local_types(self, scope):
        out = {}
        while scope is not None and scope is not self.types.globals:
            for name, t in scope.names.items():
                out.setdefault(name, t)
            scope = scope.parent
        return out

    def s_CallStatement(self, node, scope):
        args = [self.expr(a, scope) for a in node.arguments]
        names = [p.name for p in self.types.procedures[node.name].parameters]
        procedures, name = self.procedures, node.name

        def call(s, e):
            procedures[name](s, {n: a(s, e) for n, a in zip(names, args)})
        return call

    # ---- declarations ----
    def compile_action(self, index, action):
        scope = self.types.globals
        binders = []
        texts = []
        for binder in action.binders:
            domain, where, scope, element = self.binder(binder, scope)
            binders.append((binder.name, domain, where, element))
            texts.append(self.source_text(binder.condition) if binder.condition is not None else "")
        scope = scope.child()
        guard_steps, rest = [], list(action.body)
        while rest and isinstance(ast.untag(rest[0])[0], (ast.Let, ast.Require)):
            node = ast.untag(rest.pop(0))[0]
            if isinstance(node, ast.Let):
                guard_steps.append((self.s_Let(node, scope), None))
            else:
                reason = node.reason or f"this needs {self.source_text(node.condition)}"
                guard_steps.append((self.expr(node.condition, scope), reason))

        def guard(s, e):
            for step, reason in guard_steps:
                if reason is None:
                    step(s, e)
                elif not step(s, e):
                    return reason
            return None

        body = self.block(rest, scope)
        template = action.template or " ".join([action.name] + ["{%s}" % b.name for b in action.binders])
        compiled = CompiledAction(action.name, index, tuple(binders), guard, body, template,
                                  self.may_choose(action.body), action.span, tuple(texts))
        compiled.enumerate = self.enumeration(action, template)
        return compiled

    def enumeration(self, action, template):
        """One generated Python function that lists the action's legal argument tuples: a loop
        per binder, each guard step inline right after the binders it needs (as staged), the
        domains that depend on no earlier binder computed once, identical components tried once
        when the move's name shows them only by their label."""
        cg = self.codegen
        named = set(re.findall(r"\{(\w+)\}", template))
        early_nodes, stage_nodes = self.guard_placement(action)
        lets = {n.name: k for k, stage in enumerate(stage_nodes) for n in stage if isinstance(n, ast.Let)}
        lines = ["def enumerate_moves(s):", "    e = {}", "    out = []"]
        scope = self.types.globals
        loops = []
        for k, binder in enumerate(action.binders):
            domain = cg.collection(binder.domain, scope)
            element = strip_optional(element_of(self.type_of(binder.domain, scope)))
            scope = scope.child(**{binder.name: element})
            where = cg.source(binder.condition, scope) if binder.condition is not None else None
            same = binder.name in named and named >= {b.name for b in action.binders} and (
                element in self.types.components or element in self.types.boards)
            earlier = {b.name for b in action.binders[:k]} | {n for n, d in lets.items() if d < k}
            used = names_in(binder.domain) | (names_in(binder.condition) if binder.condition is not None else set())
            loops.append((binder.name, domain, where, not (used & earlier), same))
        guard_scope = scope.child()
        sources = {}
        for statement in action.body:
            node = ast.untag(statement)[0]
            if isinstance(node, ast.Let):
                sources[id(node)] = ("let", node.name, cg.source(node.value, guard_scope))
                guard_scope.names[node.name] = self.type_of(node.value, guard_scope)
            elif isinstance(node, ast.Require):
                sources[id(node)] = ("require", None, cg.source(node.condition, guard_scope))
            else:
                break

        def emit_steps(nodes, indent, fail):
            for node in nodes:
                kind, name, source = sources[id(node)]
                if kind == "let":
                    lines.append(f"{indent}e[{name!r}] = {source}")
                else:
                    lines.append(f"{indent}if not ({source}): {fail}")

        emit_steps(early_nodes, "    ", "return out")
        for k, (name, domain, where, independent, same) in enumerate(loops):
            if not independent:
                continue
            lines.append(f"    fixed{k} = []")
            if same:
                lines.append(f"    seen{k} = set()")
            lines.append(f"    for value in {domain}:")
            if same:
                lines.append('        signature = s.entities[value].get("__same__", value)')
                lines.append(f"        if signature in seen{k}: continue")
                lines.append(f"        seen{k}.add(signature)")
            lines.append(f"        e[{name!r}] = value")
            lines.append(f"        if {where or 'True'}: fixed{k}.append(value)")
        indent = "    "
        for k, (name, domain, where, independent, same) in enumerate(loops):
            lines.append(f"{indent}for v{k} in {f'fixed{k}' if independent else domain}:")
            indent += "    "
            lines.append(f"{indent}e[{name!r}] = v{k}")
            if where is not None and not independent:
                lines.append(f"{indent}if not ({where}): continue")
            emit_steps(stage_nodes[k], indent, "continue")
        values = "".join(f"v{k}, " for k in range(len(loops)))
        lines.append(f"{indent}out.append(({values}))")
        lines.append("    return out")
        exec("\n".join(lines) + "\n", cg.namespace)
        return cg.namespace.pop("enumerate_moves")

    def guard_placement(self, action):
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

    def may_choose(self, statements) -> bool:
        """Whether running these statements may stop at a choice (so the engine keeps a copy)."""
        return any(isinstance(n, ast.Choose)
                   or (isinstance(n, ast.CallStatement) and n.name in self.may_choose_procs)
                   for n in ast.walk(tuple(statements)))

    def compile_all(self):
        game = self.game
        # procedures that may choose, to a fixed point (they call each other)
        procs = self.types.procedures
        changed = True
        while changed:
            changed = False
            for name, proc in procs.items():
                if name not in self.may_choose_procs and self.may_choose(proc.body):
                    self.may_choose_procs.add(name)
                    changed = True
        for name, fn in self.types.functions.items():
            scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in fn.parameters})
            self.functions[name] = self.expr(fn.body, scope)
        for name, proc in procs.items():
            scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in proc.parameters})
            self.procedures[name] = self.block(proc.body, scope)
        actions = self.types.actions
        game.actions = [self.compile_action(i, a) for i, a in enumerate(actions.values())]
        game.action_index = {a.name: a.index for a in game.actions}
        triggers = []
        for trigger in self.program.of_kind(ast.Trigger):
            scope = self.types.globals
            binder = None
            if trigger.binder is not None:
                domain, where, scope, _ = self.binder(trigger.binder, scope)
                binder = (trigger.binder.name, domain, where)
            triggers.append(CompiledTrigger(trigger.name, binder, self.expr(trigger.condition, scope),
                                            self.block(trigger.body, scope), trigger.span))
        game.triggers = triggers
        game.triggers_may_choose = any(self.may_choose(t.body) for t in self.program.of_kind(ast.Trigger))
        game.functions = self.functions     # name -> f(state, {parameter: value}), for tools and tests
        game.procedures = self.procedures   # the same for procedures: they change the state
        game.invariants = [(i.name, self.expr(i.condition, self.types.globals), i.span)
                           for i in self.program.of_kind(ast.Invariant)]
        setup = self.program.setup.body if self.program.setup else ()
        game.setup = self.block(setup, self.types.globals)
        game.flow = []
        self.flow_block(self.program.flow.body, self.types.globals, game.flow)
        score = next((f for f in self.program.game.fields if isinstance(f, ast.ScoreField)), None)
        if score is not None:
            fn = self.expr(score.expr, self.types.globals.child(**{score.player_name: "Player"}))
            player = score.player_name
            game.score = lambda s, p: fn(s, {player: p})

    # ---- the flow: a flat list of instructions ----
    def flow_block(self, statements, scope, out):
        scope = scope.child()
        for statement in statements:
            self.flow_statement(ast.untag(statement)[0], scope, out)

    def flow_statement(self, node, scope, out):
        here = len(out)
        key = f"#{here}"
        if isinstance(node, ast.Play):
            indexes = tuple(self.game.action_index[n] for n in node.actions)
            out.append(Instruction("play", node.span, actions=indexes, optional=node.optional))
        elif isinstance(node, ast.Turns):
            start = self.expr(node.start, scope)
            until = self.expr(node.until, scope) if node.until is not None else (lambda s, e: False)
            out.append(Instruction("turns_init", node.span, fn=start, key=key))
            check = len(out)
            out.append(Instruction("turns_check", node.span, fn=until, key=key))
            self.flow_block(node.body, scope, out)
            out.append(Instruction("turns_next", node.span, key=key, target=check))
            out[check].target = len(out)
        elif isinstance(node, ast.Turn):
            out.append(Instruction("turn", node.span, fn=self.expr(node.player, scope)))
            self.flow_block(node.body, scope, out)
        elif isinstance(node, ast.Simultaneous):
            domain, where, inner, _ = self.binder(node.binder, scope)
            play = ast.untag(node.body[0])[0]
            indexes = tuple(self.game.action_index[n] for n in play.actions)
            out.append(Instruction("simultaneous", node.span, fn=(domain, where), key=key,
                                   name=node.binder.name, actions=indexes))
        elif isinstance(node, ast.If):
            branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
            ends = []
            for condition, body in branches:
                jump = len(out)
                out.append(Instruction("jump_unless", condition.span, fn=self.expr(condition, scope)))
                self.flow_block(body, scope, out)
                ends.append(len(out))
                out.append(Instruction("jump", node.span))
                out[jump].target = len(out)
            self.flow_block(node.orelse, scope, out)
            for end in ends:
                out[end].target = len(out)
        elif isinstance(node, ast.While):
            check = len(out)
            out.append(Instruction("jump_unless", node.span, fn=self.expr(node.condition, scope)))
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
                out.append(Instruction("jump_unless", node.span, fn=self.expr(node.until, inner), target=start))
        elif isinstance(node, ast.For):
            domain, where, inner, _ = self.binder(node.binder, scope)
            out.append(Instruction("for_init", node.span, fn=(domain, where), key=key, name=node.binder.name))
            step = len(out)
            out.append(Instruction("for_next", node.span, fn=where, key=key, name=node.binder.name))
            self.flow_block(node.body, inner, out)
            out.append(Instruction("jump", node.span, target=step))
            out[step].target = len(out)
        else:
            fn = self.statement(node, scope)
            if fn is not None:
                out.append(Instruction("effect", node.span, fn=fn, may_choose=self.may_choose((node,))))
