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


import attrs

from referee.dsl import ast
from referee.dsl.limits import MAX_STEP_ROUNDS, MAX_STEP_WORK
from referee.dsl.types import Type
from referee.dsl.visitor import STATEMENTS, Visitor

from ..runtime import counting_invariant
from . import ir
from .module import module_text
from .render_python import where
from .codegen import Context, SourceGenerator, names_in, python_name  # noqa: F401  (names_in: the engine imports it from here)
from .work import WorkModel
from .caching import Caching, callers
from .lower_functions import FunctionLowering
from .lower_naming import MoveNaming
from .flow_instructions import FlowInstructions
from .lower_statements import PUBLIC, StatementLowering  # noqa: F401  (PUBLIC: the engine imports it from here)
from .lower_actions import ActionCompiler
from .lower_fused import FusedListingCompiler
from .lower_listing import ListingCompiler

COMPARISON_WORDS = {"==": "must be", "!=": "must not be", "<": "must be less than", "<=": "must be at most",
                    ">": "must be more than", ">=": "must be at least"}


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
    teams: object = None       # team(s, p) of the header's `teams p: EXPR`, or None


class Compiler(StatementLowering, FunctionLowering, MoveNaming, Caching, FlowInstructions, ActionCompiler,
               ListingCompiler, FusedListingCompiler, Visitor):
    kinds = STATEMENTS

    def __init__(self, checked, game, sources, adopted=None):
        self.program = checked.program
        self.game = game
        self.sources = sources
        self.checked = checked            # known to be clean
        # a compiled module whose functions are taken instead of executing the ones generated
        # here (a module.CompiledModule; they must be the same: see adopt_done)
        self.adopted = adopted
        self.generated = []        # the generated functions the module holds, in order (module.Generated)
        self.held_names = set()    # the names given to functions the engine holds (held_name)
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
        self.seat_texts = None     # the name of a SeatTexts lookup, once a log line shows a seat
        self.coverage = game.coverage     # None, or the places that count (coverage.py)
        if self.coverage is not None:
            self.codegen.namespace["COV"] = self.coverage.counts

    # ---- helpers ----
    def type_value(self, node, scope) -> Type:
        """The type the checker found for an expression (dsl/types.py: taken apart by its
        structure, never as a text); one the compiler made is typed here."""
        found = self.checked.types.get(id(node))
        return found if found is not None else self.types.expr(node, scope)

    def reason_node(self, text, scope, ctx, span) -> ir.Expression:
        """The IR that makes the text a refused move is told: its {expressions} shown by
        their labels as the mover sees them (owner-only attributes of others' components masked)."""
        def seen_by_mover(node, value, scope):
            seen_by = {p: self.game.labeler(self.type_value(node, scope), p) for p in self.game.seats}
            seen = ir.Item(ir.Global(self.codegen.bind(seen_by, 'seen_by')), ir.ReadState("current"))
            return ir.Apply(seen, (ir.TheState(), value))
        return self.text_node(text, scope, ctx, span, seen_by_mover)

    def in_words(self, condition) -> str:
        """A filter said as what it asks: `flag[c] == none` -> "flag[c] must be none", each
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
        """The comment that names a node's rules line (the renderer's)."""
        return where(node.span)

    def counter(self, node, slots=None):
        """With coverage, the first counter of a node a rule tag stands on, else None."""
        return None if self.coverage is None else self.coverage.counter(node, slots)

    def fresh(self, hint) -> str:
        self.codegen.count += 1
        return f"{hint}{self.codegen.count}"

    def held_name(self, *words) -> str:
        """The name of a function the engine holds (a binder's domain or filter, a refusal's
        text, an invariant, a step of the flow), from the rules: its words joined, numbered
        only when the module has it already. The count moves as `fresh` moves it (the numbered
        names after it stay as they were)."""
        self.codegen.count += 1
        name = "_".join(python_name(word) for word in words)
        if name in self.held_names or name in self.codegen.namespace:
            name = f"{name}_{self.codegen.count}"
        self.held_names.add(name)
        return name

    # ---- declarations ----
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
        invariants = [(i.name, self.expr(i.condition, self.types.globals, "invariant", i.name), i.span)
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
            kind = {ast.ScoreField: "score", ast.ReturnsField: "returns", ast.TeamsField: "teams"}.get(type(field))
            if kind is not None:
                header[kind] = self.header_function(kind, field)
        return CompiledRules(
            self.actions, self.action_index, self.triggers_may_choose, fire_one_trigger,
            triggers[0].span if triggers else None, self.functions, self.procedures, invariants, setup_may_choose,
            setup_function, setup_parts, flow, run_flow, header.get("score"), header.get("returns"),
            header.get("teams"))

    def module_source(self) -> str:
        """The generated module as text: a module that imports and runs on its own (module.py)."""
        return module_text(self)
