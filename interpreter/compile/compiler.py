"""A checked program -> one generated Python module, once per (options, player count).

codegen.py turns expressions into Python source; the Compiler assembles the functions of one
module (`Compiler.module_source()` is its text): here the actions (their legal-move enumeration
and their effect) and compile_all, with its mixins: statements lowered to the IR
(lower_statements.py), functions, procedures, triggers and the setup built as IR functions
(lower_functions.py), the cached functions and their indexes (caching.py), the flow's
instructions (flow_instructions.py). The flow is a flat list of instructions with a program
counter kept in the state, so that a game can stop at any decision and be copied cheaply.
"""
from __future__ import annotations

import ast as python_ast
import re

import attrs

from referee.dsl import ast
from referee.dsl.types import element_of, strip_optional
from referee.dsl.limits import MAX_LEGAL_MOVES, MAX_STEP_ROUNDS, MAX_STEP_WORK
from referee.dsl.visitor import STATEMENTS, Visitor

from ..runtime import RuleText, counting_invariant, counting_legal, without_choice
from .module import module_text
from .codegen import Context, SourceGenerator, names_in
from .source_text import SPREAD, truth
from .key_rows import KeyRows
from .work import FREE_WORK, ROUND_FREE_WORK, WorkModel
from .caching import Caching, callers
from .lower_functions import FunctionLowering
from .flow_instructions import FlowInstructions
from .lower_statements import PUBLIC, StatementLowering  # noqa: F401  (PUBLIC: the engine imports it from here)

COMPARISON_WORDS = {"==": "must be", "!=": "must not be", "<": "must be less than", "<=": "must be at most",
                    ">": "must be more than", ">=": "must be at least"}


@attrs.define
class CompiledAction:
    name: str
    index: int
    binders: tuple             # (name, domain fn, where fn or None, element type)
    guard: object              # f(s, env) -> None when legal, else the reason
    run: object                # f(s, *args): checks the guard again, then the effect
    template: str
    may_choose: bool
    span: object
    condition_texts: tuple     # per binder, why a value its where filter refuses is refused: the
    #                            binder's `else` text, or the filter in words ("mark[c] must be none")
    outside_texts: tuple = ()  # per binder, its `in D else` text (f(s, env)) for a value not in D, or None
    enumerate: object = None   # generated: f(s) -> the legal argument tuples, in binder order
    steps: object = None       # may_choose: the generator form of run (a choice yields)
    run_legal: object = None   # f(s, *args): the effect of a move just listed as legal (no guard again)


@attrs.frozen
class CompiledRules:
    """What compiling a game's rules makes, for the Game to take (Compiler.compile_all)."""
    actions: list              # CompiledAction per action, in file order
    action_index: dict         # action name -> its index
    triggers_may_choose: bool
    fire_one_trigger: object   # f(s) -> whether a trigger fired (a generator if they may choose), or None
    trigger_span: object       # the first trigger's span (where triggers that keep firing are told)
    functions: dict            # name -> f(state, {parameter: value}), for tools and tests
    procedures: dict           # the same for procedures: they change the state
    invariants: list           # (name, f(s, e) -> whether it holds, span)
    setup_may_choose: bool     # (explicit chance: a setup that shuffles is a generator)
    setup: object              # setup(s)
    setup_parts: object        # (prefix(s), rest(s)) or None: see setup_parts
    flow: list                 # the flow's instructions
    run_flow: object           # run_flow(s)
    score: object              # score(s, p), or None
    declared_returns: object   # returns(s, p), or None


def shape(value):
    """A syntax tree without its spans: two texts that say the same thing have one shape."""
    if isinstance(value, tuple):
        return tuple(shape(item) for item in value)
    if attrs.has(type(value)) and not isinstance(value, ast.Span):
        return (type(value).__name__,) + tuple(shape(getattr(value, f.name)) for f in attrs.fields(type(value))
                                              if f.name != "span")
    return value


def shared_binders(a, b) -> int:
    """How many first binders two actions have alike: the same names, domains and filters."""
    k = 0
    while k < min(len(a.binders), len(b.binders)) and shape(a.binders[k]) == shape(b.binders[k]):
        k += 1
    return k


# a zone key as the generated code builds it: ('name', index, ...,), its indexes plain names or literals
ZONE_KEY_SOURCE = re.compile(r"\('(\w+)', ((?:[\w']+, )*[\w']+),\)")

@attrs.define
class EnumerationPart:
    """An action's binders and guard compiled for listing its moves (Compiler.enumeration_part)."""
    action: object
    loops: list                # per binder: (name, domain, filter, independent, same, unique, component)
    sources: dict              # id(let or require node) -> (kind, name, source)
    early_nodes: list          # guard steps that need no binder
    stage_nodes: list          # per binder: the guard steps placed right after it
    names_all: bool            # the label shows every binder
    static_unique: bool        # no two argument tuples can show the same labels
    random: bool               # a domain draws from the random source
    late: frozenset = frozenset()   # binders whose filter took in requires (guards_as_filters)


# ---- runtime helpers of statements ------------------------------------------------------




def is_pick(node) -> bool:
    return isinstance(node, ast.Call) and node.name == "pick" and len(node.arguments) == 1




def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip())


def folded(source: str, known: dict):
    """A condition's source with `X is None` / `X is not None` decided for the names in
    `known` (name -> whether it is none), and what that decides folded (`not`, `and`, `or`,
    `a if c else b`): True or False when the whole condition is decided, else the source."""
    if not known or not any((name if isinstance(name, str) else name[1]) in source for name in known):
        return source
    try:
        tree = python_ast.parse(source, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        return source
    result = NoneFolder(known).visit(tree)
    if isinstance(result, python_ast.Constant) and isinstance(result.value, bool):
        return result.value
    return python_ast.unparse(result)


class NoneFolder(python_ast.NodeTransformer):
    """folded(): decides the none tests of known names, and folds what they decide. A key
    ("truthy", name) of `known` gives the truth of a name tested as a condition."""

    def __init__(self, known):
        self.known = {k: v for k, v in known.items() if isinstance(k, str)}
        self.truthy = {k[1]: v for k, v in known.items() if not isinstance(k, str)}

    def truth(self, node):
        """The node, or its truth when it is a name whose truth is known."""
        if isinstance(node, python_ast.Name) and node.id in self.truthy:
            return python_ast.Constant(self.truthy[node.id])
        return node

    @staticmethod
    def decided(node):
        return isinstance(node, python_ast.Constant) and isinstance(node.value, bool)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if (len(node.ops) == 1 and isinstance(node.left, python_ast.Name) and node.left.id in self.known
                and isinstance(node.ops[0], (python_ast.Is, python_ast.IsNot))
                and isinstance(node.comparators[0], python_ast.Constant) and node.comparators[0].value is None):
            return python_ast.Constant(self.known[node.left.id] == isinstance(node.ops[0], python_ast.Is))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, python_ast.Not):
            node.operand = self.truth(node.operand)
        if isinstance(node.op, python_ast.Not) and self.decided(node.operand):
            return python_ast.Constant(not node.operand.value)
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        is_and = isinstance(node.op, python_ast.And)
        kept = []
        for value in node.values:
            value = self.truth(value)
            if self.decided(value):
                if value.value != is_and:
                    return python_ast.Constant(value.value)     # False in an `and`, True in an `or`
                continue                                        # no effect on the rest
            kept.append(value)
        if not kept:
            return python_ast.Constant(is_and)
        return kept[0] if len(kept) == 1 else python_ast.BoolOp(node.op, kept)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        node.test = self.truth(node.test)
        if self.decided(node.test):
            return node.body if node.test.value else node.orelse
        return node


def one_call(source: str, name: str) -> bool:
    """Whether a source is one call of `name` as a whole (`numbers(1, f(x) + 1)`), not a
    call followed by more (`numbers(1, 2) + x`)."""
    if not source.startswith(name + "(") or not source.endswith(")"):
        return False
    depth = 0
    for k, char in enumerate(source[len(name):], len(name)):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return k == len(source) - 1
    return False


# ---- the values of a variable indexed by their value (see Compiler.var_indexes) ----




class Lines:
    """Python source being written, with its indentation, and for each line the span of the
    rules text it comes from (so that an error raised there points at the rules file): the
    actions' functions, until they are built as IR (then `define` takes them as host source)."""

    def __init__(self, span=None):
        self.lines = []
        self.spans = []
        self.span = span
        self.offset = 0         # added to every indent (a block written inside another)

    def add(self, indent, text):
        self.lines.append("    " * (indent + self.offset) + text)
        self.spans.append(self.span)


def unless(out, test, action):
    """`if not (test): action` at the top of a function, over two lines when long."""
    if len(test) + len(action) > SPREAD:
        out.add(1, f"if not ({test}):")
        out.add(2, action)
    else:
        out.add(1, f"if not ({test}): {action}")


class Compiler(StatementLowering, FunctionLowering, Caching, FlowInstructions, Visitor):
    kinds = STATEMENTS

    def __init__(self, checked, game, sources, adopted=None):
        self.program = checked.program
        self.game = game
        self.sources = sources
        self.checked = checked            # known to be clean
        # a compiled module whose functions are taken instead of executing the ones generated
        # here (a module.CompiledModule; they must be the same: see adopt_done)
        self.adopted = adopted
        self.function_spans = []   # per generated function, in order: (name, {its line: rules span}, lines to its def)
        self.actions = []          # CompiledAction per action, once compiled (compile_all)
        self.action_index = {}
        self.triggers_may_choose = False
        # the checker that typed the program: its symbols, and the typing of nodes in scopes
        self.types = checked.typer
        self.procedures = {}
        self.functions = {}
        self.may_choose_procs = set()
        self.codegen = SourceGenerator(self)
        # loop rounds and units of work left to the step that runs (the engine sets them anew
        # at every step); what charges the work is said in work.py
        self.step_budget = self.codegen.namespace["STEP"] = [MAX_STEP_ROUNDS, MAX_STEP_WORK]
        self.work = WorkModel(self)
        self.listing_units = {}       # action name -> units per tried tuple, None when free
        self.inline_depth = 0
        self.memoized = set()
        self.maintained = {}          # cached filter kept up to date -> the zone parts it reads
        self.indexed_reads = {}       # see var_indexes
        game.var_positions = {}
        self.random_functions = callers(self.types.functions, {"pick"})     # calls that draw: never hoisted
        # the component attributes that statements change (x.a = ...): read like variables
        self.changed_attributes = self.types.changed_attributes
        self.explicit_chance = game.explicit_chance     # shuffles and picks as chance nodes
        self.not_inlined = set()   # with coverage: the counted functions are called, not inlined
        self.index_domain_cache = {}   # var -> what each of its indexes may be (index_domains)
        self.listed_scopes = {}        # id -> scope of an action binder over a zone or a type (never none); kept alive
        self.module = []           # the generated functions' sources, in order
        self.seat_texts = None     # the name of a SeatTexts lookup, once a log line shows a seat
        self.coverage = game.coverage     # None, or the places that count (coverage.py)
        if self.coverage is not None:
            self.codegen.namespace["COV"] = self.coverage.counts

    # ---- helpers ----
    def type_of(self, node, scope) -> str:
        """The type the checker found for an expression; one the compiler made is typed here."""
        found = self.checked.types.get(id(node))
        return found.text if found is not None else self.types.expr(node, scope)

    def reason_source(self, text, scope, ctx, span) -> str:
        """The source that makes the text a refused move is told: its {expressions} shown by
        their labels as the mover sees them (owner-only attributes of others' components masked)."""
        def seen_by_mover(node, value, scope):
            seen_by = {p: self.game.labeler(self.type_of(node, scope), p) for p in self.game.seats}
            return f"{self.codegen.bind(seen_by, 'seen_by')}[s.current](s, {value})"
        return self.text_source(text, scope, ctx, span, seen_by_mover)

    def in_words(self, condition) -> str:
        """A filter said as what it asks: `mark[c] == none` -> "mark[c] must be none", each
        conjunct of an `and` so; any other condition, "COND must hold"."""
        if isinstance(condition, ast.And):
            return f"{self.in_words(condition.left)} and {self.in_words(condition.right)}"
        if isinstance(condition, ast.Compare) and condition.op in COMPARISON_WORDS:
            return f"{self.source_text(condition.left)} {COMPARISON_WORDS[condition.op]} {self.source_text(condition.right)}"
        return f"{self.source_text(condition)} must hold"

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

    def where(self, node) -> str:
        span = node.span
        return f"# {span.file.rsplit('/', 1)[-1]}:{span.line}" if span.line else ""

    def counter(self, node, slots=None):
        """With coverage, the first counter of a node a rule tag stands on, else None."""
        return None if self.coverage is None else self.coverage.counter(node, slots)

    def fresh(self, hint) -> str:
        self.codegen.count += 1
        return f"{hint}{self.codegen.count}"

    def local_types(self, scope):
        out = {}
        while scope is not None and scope is not self.types.globals:
            for name, t in scope.names.items():
                out.setdefault(name, t)
            scope = scope.parent
        return out

    # ---- declarations ----
    def reason_function(self, text, scope, binder):
        """f(s, e) -> a binder's own text for a refused value, its {expressions} of the binders
        so far (e: their values)."""
        return self.define(f"def {self.fresh('_why')}(s, e)",
                           [f"    return {self.reason_source(text, scope, Context('env'), binder.span)}"],
                           self.where(binder), binder.span)

    def compile_action(self, index, action):
        scope = self.types.globals
        binders = []
        texts, outside = [], []
        for binder in action.binders:
            domain_type = self.type_of(binder.domain, scope)
            domain, where, scope, element = self.binder_functions(binder, scope)
            binders.append((binder.name, domain, where, element))
            if self.codegen.never_none_domain(binder.domain, domain_type, scope):
                self.listed_scopes[id(scope)] = scope     # its moves come from the domain: never none
            if binder.reason is not None:
                texts.append(self.reason_function(binder.reason, scope, binder))
            else:
                texts.append(RuleText(self.in_words(binder.condition)) if binder.condition is not None else "")
            outside.append(self.reason_function(binder.outside, scope, binder) if binder.outside is not None else None)
        guard_scope = scope.child()
        run_scope = scope.child()
        legal_scope = scope.child()
        guard, run, legal = Lines(action.span), Lines(action.span), Lines(action.span)
        checks = 0
        rest = list(action.body)
        env, local = Context("env"), Context("local")
        span = self.codegen.bind(action.span, "span")
        while rest and isinstance(ast.untag(rest[0])[0], (ast.Let, ast.Require)):
            node = ast.untag(rest.pop(0))[0]
            guard.span = run.span = legal.span = node.span
            if isinstance(node, ast.Let):
                self.visit_Let(node, guard_scope, env, guard, 1)
                self.visit_Let(node, run_scope, local, run, 1)
                self.visit_Let(node, legal_scope, Context("local"), legal, 1)
            else:
                checks += 1
                reason = node.reason or f"this needs {self.source_text(node.condition)}"
                # a require without 'else': its reason is the rule's own text, marked as such
                given = self.reason_source(node.reason, guard_scope, env, node.span) if node.reason \
                    else self.codegen.bind(RuleText(reason), "rule")
                unless(guard, truth(self.x(node.condition, guard_scope, env)), f"return {given}")
                unless(run, self.x(node.condition, run_scope, local),
                       f"raise RulesRuntimeError({('move no longer legal: ' + reason)!r}, {span})")
        guard.add(1, "return None")
        name = re.sub(r"\W", "_", action.name)
        guard_fn = self.define(f"def guard_{name}(s, e)", guard, self.where(action))
        may_choose = self.may_choose(rest)   # (a pick in the guard is drawn where legal moves are listed)
        local.steps = may_choose           # an action that may choose is a generator: its steps
        counter = self.counter(action)
        self.bump(counter, run, 1)
        self.block(rest, run_scope, local, run, 1)
        run_fn = self.define(f"def act_{name}(s{self.parameters(action.binders)})", run, self.where(action))
        run_legal = run_fn
        if checks and not may_choose:
            # a move just listed as legal passed its guard: its effect without the checks
            self.bump(counter, legal, 1)
            self.block(rest, legal_scope, Context("local"), legal, 1)
            run_legal = self.define(f"def act_legal_{name}(s{self.parameters(action.binders)})", legal, self.where(action))
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

    def enumeration(self, action, template):
        """One generated function that lists the action's legal argument tuples: a loop per
        binder, each guard step inline right after the binders it needs, the domains that
        depend on no earlier binder computed once, identical components tried once, each zone
        read once per loop level. It returns (tuples, exact): exact when no two tuples can
        show the same labels (else the engine merges them)."""
        ctx, fixed_ctx = self.enumeration_contexts()
        part = self.enumeration_part(action, template, ctx, fixed_ctx)
        loops, stage_nodes = part.loops, part.stage_nodes
        out = Lines(action.span)
        out.add(1, "out = []")
        out.add(1, "exact = True")
        self.emit_hoisted(out, ctx, -1, 1)
        self.emit_steps(out, part, part.early_nodes, 1, "return out, exact")
        self.emit_fixed_domains(out, part, "", "exact", "return out, exact")
        self.charge_fixed_product(out, part, [f"fixed{k}" for k, loop in enumerate(loops) if loop[3]], 1)
        if len(loops) == 1 and loops[0][3] and not stage_nodes[0]:
            # one binder, no guard step after it: the tuples at once
            out.add(1, "out = [(v,) for v in fixed0]")
        else:
            indent = 1
            values = "".join(f"L_{b.name}, " for b in action.binders)
            for k in range(len(loops)):
                innermost = [f"out.append(({values}))"] if k == len(loops) - 1 else None
                indent = self.emit_loop(out, part, ctx, k, indent, f"fixed{k}", body=innermost)
            if indent is not None:
                out.add(indent, f"out.append(({values}))")
            if len(loops) > 1:
                # the product of several binders may be huge: counted after each round of the
                # outermost loop (not deeper: a check per inner round costs on every listing)
                out.add(2, f"if len(out) > {MAX_LEGAL_MOVES}: too_many_moves({action.name!r}, "
                           f"{self.codegen.bind(action.span, 'span')})")
        out.add(1, "return out, exact" if part.static_unique else "return out, False")
        self.inline_single_lazy(out, ctx.lazy)
        name = re.sub(r"\W", "_", action.name)
        return self.define(f"def legal_{name}(s)", out, self.where(action))

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

    def charge_fixed_product(self, out, part, fixed_names, indent):
        """The tuples of the domains computed once, charged together once per listing."""
        units = self.listing_charge(part.action)
        if units is not None and fixed_names:
            self.charge(" * ".join([*(f"len({n})" for n in fixed_names), str(units)]), part.action.span, out, indent)

    @staticmethod
    def enumeration_contexts():
        """(the nested loops' context, the context of the domains computed once): one table of
        the values read once per loop level (hoist)."""
        fixed_ctx = Context("local")               # the domains computed once
        ctx = Context("local")                     # the nested loops
        ctx.hoist, ctx.levels = {}, {}
        fixed_ctx.hoist, fixed_ctx.levels, fixed_ctx.lazy = ctx.hoist, ctx.levels, ctx.lazy
        fixed_ctx.outside_loops = True
        return ctx, fixed_ctx

    def enumeration_part(self, action, template, ctx, fixed_ctx, unfolded=1):
        """An action's binders and guard steps compiled for listing its legal moves: each
        binder's loop (name, domain, filter, independent, same, unique, component), the guard's
        lets and requires placed by loop level, their sources. The binders from `unfolded` on
        take in the requires that test them alone (guards_as_filters)."""
        original, action = action, self.guards_as_filters(action, unfolded)
        late = frozenset(k for k, (a, b) in enumerate(zip(original.binders, action.binders)) if a is not b)
        cg = self.codegen
        named = set(re.findall(r"\{(\w+)\}", template))
        names_all = named >= {b.name for b in action.binders}
        early_nodes, stage_nodes = self.guard_placement(action)
        lets = {n.name: k for k, stage in enumerate(stage_nodes) for n in stage if isinstance(n, ast.Let)}
        scope = self.types.globals
        loops = []
        for k, binder in enumerate(action.binders):
            domain_type = self.type_of(binder.domain, scope)
            earlier = {b.name for b in action.binders[:k]} | {n for n, d in lets.items() if d < k}
            used = names_in(binder.domain) | (names_in(binder.condition) if binder.condition is not None else set())
            independent = not (used & earlier)
            here = fixed_ctx if independent else ctx
            indexed = self.indexed_reads.get(id(binder)) if k == 0 else None
            domain = cg.indexed_keys(indexed, scope, here) if indexed is not None else cg.collection(binder.domain, scope, here)
            element = strip_optional(element_of(domain_type))
            if element.startswith("list["):
                domain = f"hashable_values({domain})"     # a move's arguments are keys: lists as tuples
            scope = scope.child(**{binder.name: element})
            if cg.never_none_domain(binder.domain, domain_type, scope):
                fixed_ctx.safe.add(f"L_{binder.name}")
                ctx.safe.add(f"L_{binder.name}")
            where = truth(self.x(binder.condition, scope, here)) if binder.condition is not None else None
            if indexed is not None:       # the table gave the values that pass the test on the variable
                where = " and ".join(f"({self.x(o, scope, here)})" for o in indexed[2] + indexed[3]) or None
            ctx.levels[f"L_{binder.name}"] = k
            component = element in self.types.components or element in self.types.boards
            # board cells are all different: only components can be identical
            same = binder.name in named and names_all and element in self.types.components
            if element in self.types.boards and len(self.types.boards) == 1:
                component = False     # one board: a cell's label is its own
            unique = cg.never_none_domain(binder.domain, domain_type, scope) or (
                isinstance(binder.domain, ast.Name) and binder.domain.id in self.types.enums)
            loops.append((binder.name, domain, where, independent, same, unique, component))
        guard_scope = scope.child()
        sources = {}
        for statement in action.body:
            node = ast.untag(statement)[0]
            if isinstance(node, ast.Let):
                source = self.x(node.value, guard_scope, ctx)
                sources[id(node)] = ("let", node.name, source)
                guard_scope.names[node.name] = self.type_of(node.value, guard_scope)
                if re.fullmatch(r"_h\d+", source):
                    ctx.bound[node.name] = source     # a let of a value read once: the same name
            elif isinstance(node, ast.Require):
                sources[id(node)] = ("require", None, self.x(node.condition, guard_scope, ctx))
            else:
                break
        static_unique = not any(not independent and (not unique or (component and names_all))
                                for name, domain, where, independent, same, unique, component in loops)
        # one may draw from the random source: the domains are computed in binder order, all of them
        draws = callers(self.types.functions, {"pick"})
        random = any(isinstance(n, ast.Call) and n.name in draws for n in ast.walk(action.binders))
        return EnumerationPart(action, loops, sources, early_nodes, stage_nodes, names_all, static_unique, random, late)

    def emit_steps(self, out, part, nodes, indent, fail, known=None):
        for node in nodes:
            out.span = node.span
            kind, name, source = part.sources[id(node)]
            counter = self.counter(node)
            if known and counter is None and kind == "require":
                decided = folded(source, known)
                if decided is True:
                    continue            # (always holds in this case: none_split)
                if decided is not False:
                    source = decided
            self.bump(counter, out, indent)
            if kind == "let":
                if counter is None and re.fullmatch(r"_h\d+", source):
                    continue        # a value read once: the steps after it use that name
                out.add(indent, f"L_{name} = {source}")
            elif counter is None:
                out.add(indent, f"if not ({source}): {fail}")
            else:
                out.add(indent, f"if not ({source}):")
                self.bump(counter, out, indent + 1, 1)
                out.add(indent + 1, fail)

    def emit_nested_steps(self, out, part, nodes, indent, known=None):
        """Guard steps without coverage counters as nested ifs (what follows runs inside the
        last one); the indent of what follows, or None when a step is decided false by `known`
        (which values are none: folded()), so that nothing passes."""
        for node in nodes:
            out.span = node.span
            kind, name, source = part.sources[id(node)]
            if kind == "let":
                if not re.fullmatch(r"_h\d+", source):      # (else: the steps after it use that name)
                    out.add(indent, f"L_{name} = {source}")
            else:
                source = folded(source, known)
                if source is False:
                    return None
                if source is not True:
                    out.add(indent, f"if {source}:")
                    indent += 1
        return indent

    def emit_action_loops(self, out, part, ctx, shared, inner, j, own, values, known=None):
        """A fused action's own binders' loops (after the shared ones) and its tuples."""
        for k in range(shared, len(part.loops)):
            innermost = [f"out{j}.append(({values}))"] if k == len(part.loops) - 1 else None
            inner = self.emit_loop(out, part, ctx, k, inner, f"fixed{j}_{k}", own, body=innermost, known=known)
        if inner is not None:
            out.add(inner, f"out{j}.append(({values}))")

    def none_split(self, part, ctx, k):
        """A value read once at loop level k whose none-ness the guard steps there test (`under
        == none or ...`): the loop body is then written once for each case, the tests decided.
        Its name, or None."""
        sources = [part.sources[id(node)][2] for node in part.stage_nodes[k]]
        for m in range(k + 1, len(part.loops)):
            sources += [part.sources[id(node)][2] for node in part.stage_nodes[m]]
        for temp, level in ctx.levels.items():
            if level == k and temp.startswith("_h") and temp not in ctx.lazy and \
                    sum(len(re.findall(rf"\b{temp} is (?:not )?None\b", src)) for src in sources) >= 2:
                return temp
        return None

    @staticmethod
    def emit_hoisted(out, ctx, level, indent, hoist=None, keys=None):
        """The values read once at this loop level (hoist: those of one action, else all);
        keys: zone key source -> the loop's row variable that holds it (listing_rows)."""
        for source, temp in (ctx.hoist if hoist is None else hoist).items():
            if ctx.levels[temp] == level:
                if keys and temp not in ctx.lazy:
                    source = ZONE_KEY_SOURCE.sub(lambda m: keys.get(m[0], m[0]), source)
                out.add(indent, f"{temp} = UNSET" if temp in ctx.lazy else f"{temp} = {source}")

    def listing_rows(self, part, ctx, k, hoist):
        """For binder k over a constant domain (a range, an enum...): (loop target, iterable,
        key source -> row variable) when the values it reads once build zone keys from it and
        from what stays the same through the loop; the keys are then made once per value of
        those (zone_rows), not on every round. Else None."""
        name, domain, where, _, same = part.loops[k][:5]
        if where is not None or same:
            return None         # (the loop goes over its filtered list, not the whole domain)
        constant_range = re.fullmatch(r"range\((-?\d+), (-?\d+)\)", domain)
        values = tuple(range(int(constant_range[1]), int(constant_range[2]))) if constant_range else \
            self.codegen.namespace.get(domain) if re.fullmatch(r"_k\d+", domain) else None
        if not isinstance(values, tuple) or not values or len(values) > 1000:
            return None
        rows, keys = KeyRows(self.codegen, f"L_{name}", values), {}
        for source, temp in (ctx.hoist if hoist is None else hoist).items():
            if ctx.levels[temp] != k or temp in ctx.lazy:
                continue
            for match in ZONE_KEY_SOURCE.finditer(source):
                row = rows.key(match[1], match[2].split(", "))
                if row is not None:
                    keys[match[0]] = row
        if not keys:
            return None
        target, iterable = rows.iteration(domain)
        return target, iterable, keys

    def emit_loop(self, out, part, ctx, k, indent, fixed, hoist=None, steps=True, body=None, known=None):
        """The loop of binder k with its filter and (steps) the guard steps placed at its
        level; the indent of its body. With `body` (the innermost loop's lines), a loop whose
        one guard step is `A or B`, A the same for every value, may be written twice instead,
        under `if A:` without the step and under `else:` testing B only: then it writes the
        body itself and returns None."""
        name, domain, where, independent, same, unique, component = part.loops[k]
        split = self.unswitched(part, ctx, k, hoist) if body is not None and steps and independent else None
        if split is not None:
            invariant, rest = split
            decided = folded(invariant, known)

            rows = self.listing_rows(part, ctx, k, hoist)

            def one_loop(at, test):
                out.add(at, f"for {rows[0]} in {rows[1]}:" if rows else f"for L_{name} in {fixed}:")
                self.emit_hoisted(out, ctx, k, at + 1, hoist, rows[2] if rows else None)
                if test is not None:
                    out.span = part.stage_nodes[k][0].span
                    out.add(at + 1, f"if not ({test}): continue")
                for line in body:
                    out.add(at + 1, line)
            if decided is True or decided is False:
                one_loop(indent, None if decided else rest)      # the case is known here (none_split)
            else:
                out.add(indent, f"if {invariant}:")
                one_loop(indent + 1, None)
                out.add(indent, "else:")
                one_loop(indent + 1, rest)
            return None
        units = self.listing_charge(part.action)
        if not independent and units is not None:
            # a domain computed per outer value: its length times the fixed ones inside it
            # (its own filter and steps per value, and what the fixed ones inside it may try)
            prefix = fixed[:-len(str(k))]
            deeper = [m for m in range(k + 1, len(part.loops)) if part.loops[m][3]]
            per_value = str(self.level_units(part, k))
            if deeper:
                inside = max(self.level_units(part, m) for m in deeper)
                per_value = f"({per_value} + {' * '.join(f'len({prefix}{m})' for m in deeper)} * {inside})"
            domain = f"charged(STEP, {domain}, {per_value}, {self.codegen.bind(part.action.span, 'span')})"
        rows = self.listing_rows(part, ctx, k, hoist) if independent else None
        out.add(indent, f"for {rows[0]} in {rows[1]}:" if rows else f"for L_{name} in {fixed if independent else domain}:")
        indent += 1
        self.emit_hoisted(out, ctx, k, indent, hoist, rows[2] if rows else None)
        if where is not None and not independent:
            out.add(indent, f"if not ({where}): continue")
        if steps:
            self.emit_steps(out, part, part.stage_nodes[k], indent, "continue", known)
        return indent

    def returns_list(self, source) -> bool:
        """Whether a source is one call of a rules function declared to return a list (its
        value is a list of its own or a cached one, never changed in place)."""
        lazy = re.fullmatch(r"\((_h\d+) if \1 is not UNSET else \(\1 := (.*)\)\)", source)
        if lazy:
            source = lazy[2]        # (a call hoisted to be made on first use)
        match = re.match(r"fn_(\w+)\(", source)
        function = self.types.functions.get(match[1]) if match else None
        return function is not None and isinstance(function.result_type, ast.ListType) and one_call(source, f"fn_{match[1]}")

    def unswitched(self, part, ctx, k, hoist):
        """(A, B) when binder k's only guard step is a `require A or B` (no coverage counter)
        whose A reads nothing of this loop level: neither the binder nor the values read once
        per round of this loop, nor a value it keeps (:=). Else None."""
        nodes = part.stage_nodes[k]
        if len(nodes) != 1 or self.counter(nodes[0]) is not None:
            return None
        kind, _, source = part.sources[id(nodes[0])]
        if kind != "require":
            return None
        try:
            tree = python_ast.parse(source, mode="eval").body
        except (SyntaxError, RecursionError, MemoryError):
            return None
        if not (isinstance(tree, python_ast.BoolOp) and isinstance(tree.op, python_ast.Or)):
            return None
        invariant = tree.values[0]
        this_level = {f"L_{part.loops[k][0]}"} | {temp for temp in (ctx.hoist if hoist is None else hoist).values()
                                                   if ctx.levels.get(temp) == k}
        names = {n.id for n in python_ast.walk(invariant) if isinstance(n, python_ast.Name)}
        if names & this_level or any(isinstance(n, python_ast.NamedExpr) for n in python_ast.walk(invariant)):
            return None
        rest = tree.values[1] if len(tree.values) == 2 else python_ast.BoolOp(python_ast.Or(), tree.values[1:])
        return python_ast.unparse(invariant), python_ast.unparse(rest)

    def emit_fixed_domains(self, out, part, prefix, exact, fail, levels=None):
        """The domains computed once (named fixed<prefix><k>), those with a filter first (the
        likeliest to be empty: then nothing else is computed), each checked at once (`fail`
        when empty); in binder order, all of them, when one may draw from the random source
        (the draws must stay the same). levels: only these binders."""
        loops, random = part.loops, part.random
        fixed_order = [k for k, loop in enumerate(loops) if loop[3] and (levels is None or k in levels)]
        if not random:
            # (a filter that took in requires after the domains without one: a guard costs more)
            fixed_order.sort(key=lambda k: 2 if k in part.late else loops[k][2] is None)
        for k in fixed_order:
            name, domain, where, independent, same, unique, component = loops[k]
            fixed = f"fixed{prefix}{k}"
            if where is None and not same:
                # (only iterated: a zone's list or a constant tuple needs no copy)
                constant = re.fullmatch(r"range\((-?\d+), (-?\d+)\)", domain)
                if constant:
                    domain = self.codegen.bind(tuple(range(int(constant[1]), int(constant[2]))), "k")
                copied = domain if (re.fullmatch(r"_[hk]\d+", domain) or one_call(domain, "numbers")
                                    or self.returns_list(domain)) else f"list({domain})"
                out.add(1, f"{fixed} = {copied}")
                if not unique:
                    out.add(1, f"if len(set({fixed})) != len({fixed}): {exact} = False")
                if not random:
                    out.add(1, f"if not {fixed}: {fail}")    # no value: no move at all
                continue
            out.add(1, f"{fixed} = []")
            # the domain is gone through once, its filter tried on each value: charged when the
            # filter costs more than a loop round may (the list itself was paid for where it was
            # made, or is a zone, which the components limit bounds)
            units = 1 + self.work.cost(part.action.binders[k].condition)
            if self.listing_charge(part.action) is not None and units > ROUND_FREE_WORK:
                domain = f"charged(STEP, {domain}, {units}, {self.codegen.bind(part.action.span, 'span')})"
            if same:
                # identical components (the same attributes) are tried once; when two kept ones
                # still share a label, the moves are merged by label afterwards
                out.add(1, f"seen{prefix}{k} = set()")
                out.add(1, f"labels{prefix}{k} = set()")
            out.add(1, f"for L_{name} in {domain}:")
            if same:
                out.add(2, f"signature = {self.game.component_column('__same__')}[L_{name}]")
                out.add(2, f"if signature in seen{prefix}{k}: continue")
                out.add(2, f"seen{prefix}{k}.add(signature)")
            if where is not None:
                out.add(2, f"if not ({where}): continue")
            if same:
                out.add(2, f"labels{prefix}{k}.add({self.game.component_column('__label__')}[L_{name}])")
            out.add(2, f"{fixed}.append(L_{name})")
            if same:
                out.add(1, f"if len(labels{prefix}{k}) != len({fixed}): {exact} = False")
            elif not unique:
                out.add(1, f"if len(set({fixed})) != len({fixed}): {exact} = False")
            if not random:
                out.add(1, f"if not {fixed}: {fail}")    # no value: no move at all
        for k, (name, domain, where, independent, same, unique, component) in enumerate(loops):
            if independent and component and not same and part.names_all and (levels is None or k in levels):
                # cells of several boards may share a label: moves are merged by label then
                out.add(1, f"if len({{{self.game.component_column('__label__')}[v] for v in fixed{prefix}{k}}}) != len(fixed{prefix}{k}): {exact} = False")

    def emit_merged_domains(self, out, parts, shared) -> set:
        """The fused actions' own first binder after the shared ones, when all of them go over
        the same domain (`card in hand[current] where ...` in each): one pass over it for all,
        each action's filter tried on each value (identical components tried once by those
        that try them once alone, each by the others). The binders so computed (fixed<j>_<k>
        for every action j)."""
        k = shared
        loops = [part.loops[k] if k < len(part.loops) else None for part in parts]
        first = loops[0]
        if first is None or any(loop is None or loop[0] != first[0] or loop[1] != first[1] or not loop[3]
                                or loop[2] is None for loop in loops):
            return set()
        if any(part.random or 1 + self.work.cost(part.action.binders[k].condition) > ROUND_FREE_WORK
               for part in parts):
            return set()        # (a domain that charges its filter, or draws: each alone)
        name, domain = first[0], first[1]
        for j, loop in enumerate(loops):
            out.add(1, f"fixed{j}_{k} = []")
            if loop[4]:
                out.add(1, f"labels{j}_{k} = set()")
        if any(loop[4] for loop in loops):
            out.add(1, "seen = set()")
        out.add(1, f"for L_{name} in {domain}:")
        for once in (False, True):
            members = [j for j, loop in enumerate(loops) if loop[4] == once]
            if once and members:
                out.add(2, f"signature = {self.game.component_column('__same__')}[L_{name}]")
                out.add(2, "if signature in seen: continue")
                out.add(2, "seen.add(signature)")
            for j in members:
                out.add(2, f"if {loops[j][2]}:")
                if once:
                    out.add(3, f"labels{j}_{k}.add({self.game.component_column('__label__')}[L_{name}])")
                out.add(3, f"fixed{j}_{k}.append(L_{name})")
        for j, loop in enumerate(loops):
            if loop[4]:
                out.add(1, f"if len(labels{j}_{k}) != len(fixed{j}_{k}): exact{j} = False")
            elif not loop[5]:
                out.add(1, f"if len(set(fixed{j}_{k})) != len(fixed{j}_{k}): exact{j} = False")
        return {k}

    def fused_listing(self, indexes):
        """The actions of one decision that share their first binders (`r in rows, k in 1..n`
        for two actions that both begin so) listed by one generated function: the shared
        loops once, each value read at their levels once, then each action's guard steps and
        own binders in turn, in its own list. f(s) -> {action index: (tuples, exact)}, the
        same tuples as each action's own enumerator, or None when no two actions share their
        first two binders (or with coverage, or where a domain draws at random)."""
        if self.coverage is not None or len(indexes) < 2:
            return None
        declared = list(self.types.actions.values())
        group = [i for i in indexes if len(declared[i].binders) >= 2 and not self.guard_placement(declared[i])[0]]
        if len(group) < 2:
            return None
        first = declared[group[0]]
        group = [i for i in group if shared_binders(first, declared[i]) >= 2]
        if len(group) < 2:
            return None
        shared = min(shared_binders(first, declared[i]) for i in group)
        # the actions whose shared binders loop alike (independent domains, the same way of
        # trying identical components) and that pass no guard step before the last of them
        ctx, fixed_ctx = self.enumeration_contexts()
        tried = {i: self.enumeration_part(declared[i], self.actions[i].template or "", ctx, fixed_ctx, shared)
                 for i in group}
        base = tried[group[0]].loops[:shared]

        def loops_alike(loop, model):
            # (or one that tries identical components each, where the first tries them once:
            # it shares the loops when the listing finds no two identical ones there)
            return loop[3] == model[3] and loop[5] == model[5] and (
                loop[4] == model[4] or (model[4] and not loop[4] and re.fullmatch(r"_[hk]\d+", model[1])))
        group = [i for i in group if not tried[i].random and not any(tried[i].stage_nodes[k] for k in range(shared - 1))
                 and all(loop[3] for loop in tried[i].loops[:shared])
                 and all(loops_alike(loop, model) for loop, model in zip(tried[i].loops[:shared], base))]
        if len(group) < 2 or group[0] != next(iter(tried)):
            return None
        # per action: the shared levels where the first dedupes identical components and it does not
        plain = [[k for k in range(shared) if base[k][4] and not tried[i].loops[k][4]] for i in group]
        ctx, fixed_ctx = self.enumeration_contexts()
        parts, own_hoists = [], []
        for i in group:
            action = declared[i]
            bound, known = dict(ctx.bound), set(ctx.hoist.values())
            part = self.enumeration_part(action, self.actions[i].template or "", ctx, fixed_ctx, shared)
            # what this action reads at its own levels is its own: the next one makes its own
            own = {source: temp for source, temp in ctx.hoist.items()
                   if temp not in known and ctx.levels[temp] >= shared}
            for source in own:
                del ctx.hoist[source]
            ctx.bound = bound
            for b in action.binders[shared:]:
                ctx.levels.pop(f"L_{b.name}", None)
            parts.append(part)
            own_hoists.append(own)
        if not all(re.fullmatch(r"_[hk]\d+", parts[0].loops[k][1]) for levels in plain for k in levels):
            return None         # (a shared domain whose length cannot be read again: each alone)
        out = Lines(first.span)
        # an action listed apart (None) where the shared loops skipped identical components it tries each
        listed = [f"(out{j}, exact{j} and exact_s)" if parts[j].static_unique else f"(out{j}, False)" for j in range(len(group))]
        result = "{" + ", ".join(f"{i}: {listed[j]}" if not plain[j] else f"{i}: {listed[j]} if alike{j} else None"
                                 for j, i in enumerate(group)) + "}"
        for j in range(len(group)):
            out.add(1, f"out{j} = []")
            out.add(1, f"exact{j} = True")
            out.add(1, f"on{j} = True")
            if plain[j]:
                out.add(1, f"alike{j} = False")
        out.add(1, "exact_s = True")
        self.emit_hoisted(out, ctx, -1, 1)
        self.emit_fixed_domains(out, parts[0], "s", "exact_s", f"return {result}", levels=range(shared))
        for j in range(len(group)):
            if plain[j]:
                # no two identical components among the shared values: the same loops as its own
                out.add(1, f"alike{j} = " + " and ".join(f"len(seens{k}) == len({parts[0].loops[k][1]})" for k in plain[j]))
                out.add(1, f"if not alike{j}: on{j} = False")
        merged = self.emit_merged_domains(out, parts, shared)
        for j, part in enumerate(parts):
            # the action's own domains: one that is empty leaves it without moves
            block = Lines(part.action.span)
            for k in merged:
                block.add(1, f"if not fixed{j}_{k}: on{j} = False; break")
            self.emit_fixed_domains(block, part, f"{j}_", f"exact{j}", f"on{j} = False; break",
                                    levels=[k for k in range(shared, len(part.loops)) if k not in merged])
            self.charge_fixed_product(block, part, [f"fixeds{k}" for k in range(shared)] + [
                f"fixed{j}_{k}" for k in range(shared, len(part.loops)) if part.loops[k][3]], 1)
            if block.lines:
                out.add(1, "while True:")
                for line, span in zip(block.lines, block.spans):
                    out.lines.append("    " + line)
                    out.spans.append(span)
                out.add(2, "break")
        out.add(1, f"if not ({' or '.join(f'on{j}' for j in range(len(group)))}): return {result}")
        indent = 1
        for k in range(shared):
            indent = self.emit_loop(out, parts[0], ctx, k, indent, f"fixeds{k}", steps=False)
        splits = [self.none_split(part, ctx, shared - 1) if self.nested_steps(part, shared) else None for part in parts]
        common = max(set(splits) - {None}, key=splits.count, default=None)
        if common is not None and splits.count(common) >= 2:
            # several actions test the same value's none-ness: one split for all of them
            pile = self.top_of_zone(ctx, common)
            for case in (True, False):
                out.add(indent, f"if {common} is None:" if case else "else:")
                known = {common: case} if pile is None else {common: case, ("truthy", pile): not case}
                for j, (part, own) in enumerate(zip(parts, own_hoists)):
                    self.emit_fused_action(out, part, ctx, shared, indent + 1, j, own, known, splits[j] == common)
        else:
            for j, (part, own) in enumerate(zip(parts, own_hoists)):
                self.emit_fused_action(out, part, ctx, shared, indent, j, own, None, False)
        for j, part in enumerate(parts):
            out.add(2, f"if len(out{j}) > {MAX_LEGAL_MOVES}: too_many_moves({part.action.name!r}, "
                       f"{self.codegen.bind(part.action.span, 'span')})")
        out.add(1, f"return {result}")
        self.inline_single_lazy(out, ctx.lazy)
        self.split_on_empty_zone(out)
        self.drop_implied_tests(out)
        name = "_".join(re.sub(r"\W", "_", declared[i].name) for i in group)
        return self.define(f"def legal_together_{name}(s)", out, self.where(first))

    @staticmethod
    def top_of_zone(ctx, temp):
        """The name of the zone read that `temp` is the top card of (`(_h1[-1] if _h1 else
        None)`, _h1 a zone's list: its cards are never none, so temp is none exactly when the
        zone is empty), or None."""
        sources = {t: source for source, t in ctx.hoist.items()}
        top = re.fullmatch(r"\((_h\d+)\[-1\] if \1 else None\)", sources.get(temp, ""))
        if top is None or not re.fullmatch(r"_Z\.get\(.*, EMPTY\)", sources.get(top[1], "")):
            return None
        return top[1]

    def nested_steps(self, part, shared) -> bool:
        """Whether a fused action's guard steps at the last shared level are written as nested
        ifs (not so many that Python's indentation limit is near, and no coverage counters)."""
        steps = part.stage_nodes[shared - 1]
        return len(steps) <= 16 and all(self.counter(node) is None for node in steps)

    def emit_fused_action(self, out, part, ctx, shared, indent, j, own, known, split_outside):
        """One fused action inside the shared loops: its guard steps at the last shared level
        and its own loops. known: the none-ness of a value decided by the branch this is
        written in; split_outside: that branch is the action's own none split."""
        steps = part.stage_nodes[shared - 1]
        values = "".join(f"L_{b.name}, " for b in part.action.binders)
        if not self.nested_steps(part, shared):
            out.add(indent, f"if on{j}:")
            out.add(indent + 1, "while True:")
            self.emit_steps(out, part, steps, indent + 2, "break")
            self.emit_action_loops(out, part, ctx, shared, indent + 2, j, own, values)
            out.add(indent + 2, "break")
            return
        if known and any(part.sources[id(node)][0] == "require" and folded(part.sources[id(node)][2], known) is False
                         for node in steps):
            return          # no move in this case
        if split_outside:
            out.add(indent, f"if on{j}:")
            inner = self.emit_nested_steps(out, part, steps, indent + 1, known)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, values, known)
            return
        out.add(indent, f"if on{j}:")
        split = self.none_split(part, ctx, shared - 1)
        if split is None:
            inner = self.emit_nested_steps(out, part, steps, indent + 1, known)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, values, known)
            return
        # the guard's none tests of that value decided in each case; a case where a step
        # is false lists nothing (no `else` of its own)
        live = [case for case in (True, False)
                if not any(part.sources[id(node)][0] == "require"
                           and folded(part.sources[id(node)][2], {**(known or {}), split: case}) is False for node in steps)]
        if not live:
            out.add(indent + 1, "pass")
        for n, case in enumerate(live):
            test = f"{split} is None" if case else f"{split} is not None"
            out.add(indent + 1, (f"if {test}:" if len(live) == 1 else "if " + f"{split} is None:") if n == 0 else "else:")
            decided = {**(known or {}), split: case}
            inner = self.emit_nested_steps(out, part, steps, indent + 2, decided)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, values, decided)

    @staticmethod
    def split_on_empty_zone(out):
        """`T = (X[-1] if X else None)` followed by `if T is None: A else: B`, where A does not
        read T (nor does anything after B): `if not X: A else: T = X[-1]; B`, the zone's
        emptiness tested once (X is a zone's list, whose cards are never none)."""
        lines = out.lines
        k = 0
        while k < len(lines) - 1:
            top = re.fullmatch(r"( *)(_h\d+) = \((_h\d+)\[-1\] if \3 else None\)", lines[k])
            if top is None or lines[k + 1] != f"{top[1]}if {top[2]} is None:":
                k += 1
                continue
            indent, temp, pile = top[1], top[2], top[3]
            other = next((m for m in range(k + 2, len(lines)) if indent_of(lines[m]) <= len(indent)), len(lines))
            end = len(lines)
            if other < len(lines) and lines[other] == f"{indent}else:":
                end = next((m for m in range(other + 1, len(lines)) if indent_of(lines[m]) <= len(indent)), len(lines))
            later = next((m for m in range(end, len(lines)) if indent_of(lines[m]) < len(indent)), len(lines))
            reads = re.compile(rf"\b{temp}\b")
            if other == len(lines) or lines[other] != f"{indent}else:" or \
                    any(reads.search(line) for line in lines[k + 2:other] + lines[end:later]):
                k += 1
                continue
            lines[k + 1] = f"{indent}if not {pile}:"
            lines.insert(other + 1, f"{indent}    {temp} = {pile}[-1]")
            out.spans.insert(other + 1, out.spans[k])
            del lines[k], out.spans[k]
            k += 1

    @staticmethod
    def drop_implied_tests(out):
        """`if not X == 'a':` whose whole body is `if X == 'b' ...:` (another constant): the
        inner test implies the outer one, which goes."""
        lines = out.lines
        k = 0
        while k < len(lines) - 1:
            outer = re.fullmatch(r"( *)if not \(?(.+?) == ('\w*'|-?\d+)\)?:", lines[k])
            inner = outer and re.fullmatch(rf"{outer[1]}    if {re.escape(outer[2])} == ('\w*'|-?\d+)(?: and .*)?:", lines[k + 1])
            if not inner or inner[1] == outer[3] or not re.fullmatch(r"[\w\[\]]+", outer[2]):
                k += 1
                continue
            depth = len(outer[1])
            end = next((m for m in range(k + 2, len(lines)) if indent_of(lines[m]) <= depth + 4), len(lines))
            if end < len(lines) and indent_of(lines[end]) == depth + 4:
                k += 1          # (the outer body holds more than the inner test)
                continue
            for m in range(k + 1, end):
                lines[m] = lines[m][4:]
            del lines[k], out.spans[k]

    @staticmethod
    def inline_single_lazy(out, lazy):
        """A call hoisted to be computed once per loop round, but asked once per round anyway
        (its one use is not inside a deeper loop): the plain call again."""
        lines = out.lines
        for temp in lazy:
            declared = [k for k, line in enumerate(lines) if line.strip() == f"{temp} = UNSET"]
            pattern = re.compile(rf"\({temp} if {temp} is not UNSET else \({temp} := ")
            uses = [(k, m) for k, line in enumerate(lines) for m in pattern.finditer(line)]
            if len(declared) != 1 or len(uses) != 1:
                continue
            k, match = uses[0]
            indent = len(lines[declared[0]]) - len(lines[declared[0]].lstrip())
            if len(lines[k]) - len(lines[k].lstrip()) != indent or " for " in lines[k]:
                continue
            line = lines[k]
            start, depth, end = match.end(), 1, match.end()
            quote = None
            while depth and end < len(line):      # the call's source ends where its bracket closes
                char = line[end]
                if quote is not None:             # (brackets inside a text do not count)
                    if char == "\\":
                        end += 1
                    elif char == quote:
                        quote = None
                elif char in "'\"":
                    quote = char
                else:
                    depth += {"(": 1, ")": -1}.get(char, 0)
                end += 1
            if depth:
                continue
            lines[k] = line[:match.start()] + line[start:end - 1] + line[end + 1:]
            del lines[declared[0]]
            del out.spans[declared[0]]

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
        """Whether running these statements may stop at a choice (so the engine keeps a copy);
        with explicit chance, at a chance node too (a shuffle, a pick given to a let or an
        assignment)."""
        return any(isinstance(n, ast.Choose)
                   or (isinstance(n, ast.CallStatement) and n.name in self.may_choose_procs)
                   or (self.explicit_chance and (isinstance(n, ast.Shuffle) or (
                       isinstance(n, (ast.Let, ast.Assign)) and is_pick(n.value))))
                   for n in ast.walk(tuple(statements)))

    def compile_all(self) -> CompiledRules:
        self.var_indexes()
        self.choose_memoized()
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
            self.functions[name] = self.compile_function(name, fn)
        self.log_changes()
        for name, proc in procs.items():
            self.procedures[name] = self.compile_procedure(name, proc)
        actions = self.types.actions
        self.actions = [self.compile_action(i, a) for i, a in enumerate(actions.values())]
        self.action_index = {a.name: a.index for a in self.actions}
        triggers = list(self.program.of_kind(ast.Trigger))
        self.triggers_may_choose = any(self.may_choose(t.body) for t in triggers)
        fire_one_trigger = self.compile_triggers() if triggers else None
        invariants = [(i.name, self.expr(i.condition, self.types.globals), i.span)
                      for i in self.program.of_kind(ast.Invariant)]
        if self.coverage is not None:
            counters = [self.counter(i) for i in self.program.of_kind(ast.Invariant)]
            invariants = [(name, holds if k is None else counting_invariant(holds, self.coverage.counts, k), span)
                          for (name, holds, span), k in zip(invariants, counters)]
        setup = self.program.setup.body if self.program.setup else ()
        setup_ctx = Context("local")
        # with explicit chance, a setup that shuffles is a generator: the engine runs it as a step
        setup_may_choose = setup_ctx.steps = self.explicit_chance and self.may_choose(setup)
        setup_function = self.setup_function(setup, setup_ctx)
        setup_parts = None
        if self.coverage is None and not self.explicit_chance:
            setup_parts = self.setup_parts(setup)
        flow = []
        self.flow_block(self.program.flow.body, self.types.globals, flow)
        run_flow = self.compile_flow(flow)
        # the header's per-player numbers: score p (ranks the players), returns p (their payoffs)
        header = {}
        for field in self.program.game.fields:
            kind = {ast.ScoreField: "score", ast.ReturnsField: "returns"}.get(type(field))
            if kind is not None:
                header[kind] = self.header_function(kind, field)
        return CompiledRules(
            self.actions, self.action_index, self.triggers_may_choose, fire_one_trigger,
            triggers[0].span if triggers else None, self.functions, self.procedures, invariants, setup_may_choose,
            setup_function, setup_parts, flow, run_flow, header.get("score"), header.get("returns"))

    def module_source(self) -> str:
        """The generated module as text: a module that imports and runs on its own (module.py)."""
        return module_text(self)
