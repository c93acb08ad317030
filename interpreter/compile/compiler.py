"""A checked program -> one generated Python module, once per (options, player count).

codegen.py turns expressions into Python source; here statements, functions, procedures,
actions (their legal-move enumeration and their effect), triggers, the setup and the flow are
assembled into functions of one module (`Compiler.module_source()` is its text). The flow is a
flat list of instructions with a program counter kept in the state, so that a game can stop at
any decision and be copied cheaply; each instruction's expressions and statements are
generated functions `f(s, e)`, e being the flow's environment kept in the state.
"""
from __future__ import annotations

import ast as python_ast
import re

import attrs

from referee.dsl import ast
from referee.dsl.templates import parse_template
from referee.dsl.types import element_of, may_be_none, strip_optional
from referee.dsl.limits import MAX_LOG_LINE, MAX_NUMBER, MAX_STEP_ROUNDS, MAX_STEP_WORK
from referee.dsl.parser import parse_expression
from referee.dsl.visitor import STATEMENTS, Visitor

from ..runtime import LOOP_CAP, SeatTexts, counting_invariant, without_choice
from ..runtime.errors import RulesRuntimeError
from ..runtime.maintained import PartCounts
from .module import digest, functions_text, module_text
from .codegen import Context, SourceGenerator, names_in
from .source_text import attributes_read_once, joined, truth
from .instructions import Instruction
from .lines import Lines
from .lower_actions import ActionCompiler, is_pick
from .lower_fused import FusedListingCompiler
from .lower_listing import ListingCompiler
from .work import ROUND_FREE_WORK, WorkModel

PUBLIC = 0      # a viewer who is no player: sees only what everybody may see

# how many cells an aggregate may visit before a function is worth caching (see memoized)
MEMO_COST = 40
# the most values one cached function keeps (then it starts again): memory stays bounded
MEMO_LIMIT = 50_000
# what a comparison may compare in a body answered by indexes alone (answered_by_indexes)
SIMPLE_OPERANDS = (ast.Name, ast.Integer, ast.Text, ast.Boolean, ast.Nothing)


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



# ---- runtime helpers of statements ------------------------------------------------------








def call_graph(functions) -> dict:
    """function name -> the names its body calls; for the last functions asked about (a
    compile asks callers() a dozen times of the same functions: one walk of each body)."""
    last = LAST_CALL_GRAPH
    if last and last[0] is functions and last[1] == len(functions):
        return last[2]
    calls = {name: {n.name for n in ast.walk(fn.body) if isinstance(n, ast.Call)} for name, fn in functions.items()}
    LAST_CALL_GRAPH[:] = [functions, len(functions), calls]
    return calls


LAST_CALL_GRAPH = []


def callers(functions, names) -> set:
    """The names, and the functions that call one of them, directly or through others."""
    calls = call_graph(functions)
    found = set(names)
    changed = True
    while changed:
        changed = False
        for name in functions:
            if name not in found and not calls[name].isdisjoint(found):
                found.add(name)
                changed = True
    return found




# ---- the values of a variable indexed by their value (see Compiler.var_indexes) ----




def any_chain(node):
    """([binders], conjuncts) of `any(x in D: any(y in E where c1 and c2 ...))` (the innermost
    binder without its filter, which is the conjunction), else None."""
    levels, chain = [], node
    while isinstance(chain, ast.Aggregate) and chain.kind == "any":
        if chain.value is None:
            if chain.binder.condition is None:
                return None
            levels.append(attrs.evolve(chain.binder, condition=None))
            return levels, flatten_and(chain.binder.condition)
        levels.append(chain.binder)
        chain = chain.value
    return (levels, flatten_and(chain)) if levels else None


def flatten_and(node) -> list:
    """The conjuncts of a condition (a and b and c -> [a, b, c])."""
    if isinstance(node, ast.And):
        return flatten_and(node.left) + flatten_and(node.right)
    return [node]


class Compiler(ActionCompiler, ListingCompiler, FusedListingCompiler, Visitor):
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

    def define(self, header, body, comment="", span=None):
        """exec one generated function (body: a Lines, or lines all from `span`); its state
        reads (_Z, _V, _E) bound once at its top."""
        body_lines = body.lines if isinstance(body, Lines) else body
        spans = body.spans if isinstance(body, Lines) else [span] * len(body_lines)
        if any("\n" in line for line in body_lines):      # an expression written over lines: each its span
            pairs = [(part, spans[k] if k < len(spans) else None)
                     for k, line in enumerate(body_lines) for part in line.split("\n")]
            body_lines, spans = [part for part, _ in pairs], [sp for _, sp in pairs]
        text = "\n".join(body_lines)
        prologue = []
        for local, attribute in (("_Z", "zones"), ("_V", "vars"), ("_E", "entities")):
            if re.search(rf"\b{local}\b", text):
                prologue.append(f"    {local} = s.{attribute}")
        for column in sorted(set(re.findall(r"\b_A(\d+)\b", text)), key=int):
            prologue.append(f"    _A{column} = s.columns[{column}]")
        name = header.split("(", 1)[0].split()[-1]
        head = ([comment] if comment else []) + [f"{header}:"] + prologue
        source = "\n".join(head + body_lines) + "\n"
        filename = f"<rules {self.program.path} {name}>"
        line_spans = {len(head) + k + 1: sp for k, sp in enumerate(spans) if sp is not None}
        namespace = self.codegen.namespace
        if self.adopted is not None and name in self.adopted.namespace:
            # the module's own function, reading the values bound here (its globals)
            self.adopted.namespace.update(namespace)
            namespace[name] = self.adopted.namespace[name]
        else:
            self.game.line_spans[filename] = line_spans
            try:
                exec(compile(source, filename, "exec"), namespace)
            except (SyntaxError, RecursionError, MemoryError) as error:     # too deep for Python's own parser
                where = next((sp for sp in spans if sp is not None), None)
                raise RulesRuntimeError(f"this rule is nested too deeply to compile "
                                        f"({getattr(error, 'msg', type(error).__name__)}): split it into functions", where) from None
        self.module.append(source)
        self.function_spans.append((name, line_spans, len(head) - len(prologue)))
        return namespace[name]

    def adopt_done(self):
        """After the last function of a game loaded from a compiled module: the module's
        namespace gets the values bound since, its functions' lines their rules spans, and a
        module whose functions are not the ones its rules compile to is refused."""
        adopted = self.adopted
        if adopted is None:
            return
        if digest(functions_text(self.module)) != adopted.functions:
            raise RulesRuntimeError(f"{adopted.path} holds functions its rules do not compile to (edited, or "
                                    "compiled by another version of referee): compile it again", None)
        adopted.namespace.update(self.codegen.namespace)
        spans = self.game.line_spans.setdefault(adopted.path, {})
        for name, line_spans, header in self.function_spans:
            first = adopted.namespace[name].__code__.co_firstlineno - header
            spans.update({first + line: span for line, span in line_spans.items()})
        self.adopted = None          # (functions compiled later, for a tool, are executed here)

    def counter(self, node, slots=None):
        """With coverage, the first counter of a node a rule tag stands on, else None."""
        return None if self.coverage is None else self.coverage.counter(node, slots)

    def bump(self, k, out, indent, slot=0):
        if k is not None:
            out.add(indent, f"COV[{k + slot}] += 1")

    def fresh(self, hint) -> str:
        self.codegen.count += 1
        return f"{hint}{self.codegen.count}"

    def expression_function(self, node, scope, ctx=None, name=None):
        """f(s, e) -> the value of an expression (e: the flow's or a caller's environment)."""
        ctx = ctx or Context("env")
        source = self.codegen.source(node, scope, ctx)
        fn = self.define(f"def {name or self.fresh('_x')}(s, e)", [f"    return {source}"], self.where(node), node.span)
        constant = self.codegen.constant_of(node)
        if constant is not None:
            fn.value = constant[0]
        return fn

    def constant(self, node):
        """Evaluate an expression that needs no state (params, sizes, initial values)."""
        fn = self.expression_function(node, self.types.globals)
        try:
            return fn(None, {})
        except (AttributeError, TypeError) as error:
            raise RulesRuntimeError(f"this must be known before the game starts ({error})", node.span)
        except RecursionError:
            raise RulesRuntimeError("this calls itself without end: it must be known before the game starts",
                                    node.span) from None
        except NameError:
            raise RulesRuntimeError("this must be known before the game starts, but it calls a function that "
                                    "cannot be worked out then (it calls itself, or is not small enough to "
                                    "be written in place)", node.span) from None
        except (KeyError, IndexError, ValueError, ZeroDivisionError) as error:
            raise RulesRuntimeError(f"this cannot be computed before the game starts "
                                    f"({type(error).__name__}: {error})", node.span) from None

    def expr(self, node, scope):
        return self.expression_function(node, scope)

    def binder_functions(self, binder, scope):
        """(domain fn, where fn or None, inner scope, element type), in the env form."""
        cg = self.codegen
        domain_source = cg.collection(binder.domain, scope, Context("env"))
        element = strip_optional(element_of(self.type_of(binder.domain, scope)))
        if element.startswith("list["):
            domain_source = f"hashable_values({domain_source})"
        domain = self.define(f"def {self.fresh('_d')}(s, e)", [f"    return {domain_source}"], self.where(binder), binder.span)
        inner = scope.child(**{binder.name: element})
        where = self.expr(binder.condition, inner) if binder.condition is not None else None
        return domain, where, inner, element

    # ---- statements: lines of Python ----
    def block(self, statements, scope, ctx, out, indent):
        scope = scope.child()
        before = len(out.lines)
        for statement in statements:
            node = ast.untag(statement)[0]
            saved, out.span = out.span, node.span
            comment = self.where(node)
            if comment:
                out.add(indent, comment)
            self.bump(self.counter(node), out, indent)
            self.dispatch(node, scope, ctx, out, indent)
            out.span = saved
        if not any(not line.strip().startswith("#") for line in out.lines[before:]):
            out.add(indent, "pass")

    def x(self, node, scope, ctx):
        return self.codegen.source(node, scope, ctx)

    def visit_Let(self, node, scope, ctx, out, indent):
        value = self.chance_value(node.value, scope, ctx, out, indent) or self.x(node.value, scope, ctx)
        scope.names[node.name] = self.type_of(node.value, scope)
        out.add(indent, f"{ctx.local(node.name)} = {value}")

    def assigns_local(self, target, scope) -> bool:
        return scope.lookup(target.name) is not None and target.name not in self.types.globals.names \
            and not target.indexes

    def set_attribute(self, node, value, scope, ctx, out, indent):
        """x.a = value: the component's attribute changes in this state (its labels with it)."""
        target = node.target
        obj = ctx.local(target.name)
        out.add(indent, f"set_attribute(s, {obj}, {target.attribute!r}, {value}, {self.codegen.bind(node.span, 'span')})")
        self.invalidate("." + target.attribute, out, indent)

    def visit_Assign(self, node, scope, ctx, out, indent):
        target = node.target
        public = isinstance(target, ast.Target) and target.name in self.game.var_meta and \
            not self.assigns_local(target, scope) and self.game.var_meta[target.name][0] == "public"
        value = self.chance_value(node.value, scope, ctx, out, indent, public) or self.x(node.value, scope, ctx)
        if isinstance(node.target, ast.AttributeTarget):
            declared = self.types.fields_of(strip_optional(scope.lookup(target.name)))[target.attribute]
            value = self.attribute_stored(node.value, value, declared, f"{target.name}.{target.attribute}", scope, out, indent)
            return self.set_attribute(node, value, scope, ctx, out, indent)
        if self.assigns_local(node.target, scope):
            if scope.lookup(node.target.name) == "int":
                value = self.bounded(value, node.span, out, indent)
            out.add(indent, f"{ctx.local(node.target.name)} = {value}")
        else:
            key = self.checked_key(node.target.name, node.target.indexes, node.span, scope, ctx, out, indent)
            declared = self.types.type_name(self.types.vars[target.name].type)
            value = self.never_none_stored(node.value, value, declared, target.name, scope, out, indent)
            if not (isinstance(node.value, ast.Name) and node.value.id == "current"):
                value = self.player_checked(node.target.name, value, node.span, out, indent)
            if self.is_number(node.target.name):
                value = self.in_range(node.target.name, self.bounded(value, node.span, out, indent), node.span, out, indent)
            key, value = self.index_write(node.target.name, key, value, out, indent)
            out.add(indent, f"_V[{key}] = {value}")
            self.invalidate(node.target.name, out, indent)

    def never_none_stored(self, node, value, declared, what, scope, out, indent) -> str:
        """A value that may be none (its type ends in '?') about to be stored where the declared
        type has no '?': a located error at the write if it is none, not a none stored that
        fails later, far from its cause (the checker cannot know which values are there)."""
        if may_be_none(declared) or not self.type_of(node, scope).endswith("?"):
            return value
        temp = self.fresh("_value")
        out.add(indent, f"{temp} = {value}")
        out.add(indent, f"if {temp} is None: stored_none({what!r}, {declared!r}, {self.codegen.bind(node.span, 'span')})")
        return temp

    def attribute_stored(self, node, value, declared, what, scope, out, indent) -> str:
        """A value about to be stored in a component's attribute of type `declared`: not none
        without a '?', a seat for a Player (its owner too)."""
        value = self.never_none_stored(node, value, declared, what, scope, out, indent)
        return self.player_checked(what, value, node.span, out, indent, declared)

    def player_checked(self, name, value, span, out, indent, declared=None) -> str:
        """A value about to be stored in a Player variable (or an attribute `declared` Player):
        a seat (or none if it is optional)."""
        players = self.seats_of_type(declared) if declared is not None else self.player_values(name)
        if players is None:
            return value
        temp = self.fresh("_value")
        out.add(indent, f"{temp} = {value}")
        out.add(indent, f"if {temp} not in {self.codegen.bind(players)}: "
                        f"not_a_player(s, {name!r}, {temp}, {self.codegen.bind(span)})")
        return temp

    def index_write(self, name, key, value, out, indent):
        """Before a write to a variable that a table by value follows (var_indexes): the table
        is told, if the state has built it. The key and value to write, as names."""
        if name not in self.game.var_positions:
            return key, value
        if not re.fullmatch(r"_\w+", key):
            temp = self.fresh("_key")
            out.add(indent, f"{temp} = {key}")
            key = temp
        if not re.fullmatch(r"_\w+", value):
            temp = self.fresh("_value")
            out.add(indent, f"{temp} = {value}")
            value = temp
        default = self.codegen.literal(self.game.var_defaults[name])
        out.add(indent, f"if {name!r} in s.var_index: var_index_write(s, {name!r}, {key}[1], _V.get({key}, {default}), {value})")
        return key, value

    def is_number(self, name) -> bool:
        return strip_optional(self.types.type_name(self.types.vars[name].type)) == "int"

    def bounded(self, value, span, out, indent) -> str:
        """A number about to be stored, checked against MAX_NUMBER: numbers that grow without
        bound (doubled round after round) stop at the line instead of eating the memory."""
        if re.fullmatch(r"-?\d+", value) and abs(int(value)) <= MAX_NUMBER:
            return value          # a literal within the bounds: nothing to check
        temp = self.fresh("_number")
        out.add(indent, f"{temp} = {value}")
        # the bounds as literals: no name to look up on a hot path
        out.add(indent, f"if {temp} is not None and not {-MAX_NUMBER} <= {temp} <= {MAX_NUMBER}: "
                        f"number_too_large({temp}, {self.codegen.bind(span, 'span')})")
        return temp

    def in_range(self, name, value, span, out, indent) -> str:
        """A number about to be stored in a variable with a declared range, checked against it
        (a literal when the game is compiled): a value outside is an error at the line, never
        stored, since search bots draw such a variable's hidden values from its range."""
        declared = self.game.var_ranges.get(name)
        if declared is None:
            return value
        low, high = declared
        if re.fullmatch(r"-?\d+", value):
            if not low <= int(value) <= high:
                raise RulesRuntimeError(f"{name} is given {value}, outside its range {low}..{high}", span)
            return value
        if not re.fullmatch(r"_\w+", value):
            temp = self.fresh("_number")
            out.add(indent, f"{temp} = {value}")
            value = temp
        out.add(indent, f"if {value} is not None and not {low} <= {value} <= {high}: "
                        f"outside_range({name!r}, {value}, {low}, {high}, {self.codegen.bind(span, 'span')})")
        return value

    def checked_key(self, name, indexes, span, scope, ctx, out, indent) -> str:
        """The key of a write to a variable (or of a zone a component is put in), each index
        that may fall outside the declared indexes checked first (a located error, not a silent
        new entry): ranges and players by value, cells, enum members and components by not
        being none. A literal outside a range is an error when the game is compiled."""
        if not indexes:
            return repr(name)
        parts = [repr(name)]
        for index, (element, allowed, shown) in zip(indexes, self.index_domains(name)):
            source = self.codegen.source(index, scope, ctx)
            if isinstance(index, ast.Integer) and allowed is not None:
                if index.value not in allowed:
                    raise RulesRuntimeError(f"{name}[{index.value}] is outside the indexes declared for {name} ({shown})",
                                            index.span)
                parts.append(source)
                continue
            if allowed is None and (self.codegen.never_none(index, scope, ctx) or self.listed(index, scope)):
                parts.append(source)          # a binder over a zone or a type: never outside
                continue
            if element == "Player" and isinstance(index, ast.Name) and index.id == "current" \
                    and not self.codegen.is_local("current", scope, ctx):
                parts.append(source)          # the player to move: always a seat (seat() gives turns)
                continue
            temp = self.fresh("_index")
            out.add(indent, f"{temp} = {source}")
            test = f"{temp} is None" if allowed is None else f"{temp} not in {self.codegen.bind(allowed)}"
            out.add(indent, f"if {test}: outside_indexes(s, {name!r}, {temp}, {shown!r}, {self.codegen.bind(span)})")
            parts.append(temp)
        return "(" + ", ".join(parts) + ",)"

    def listed(self, node, scope) -> bool:
        """Whether a name is an action's argument over a zone or a type (not a procedure's
        parameter, which a caller may give none, nor a local that hides the argument)."""
        if not isinstance(node, ast.Name):
            return False
        while scope is not None and node.id not in scope.names:
            scope = scope.parent
        return scope is not None and id(scope) in self.listed_scopes

    def index_domains(self, name) -> list:
        """(element type, the values allowed or None, how to say it) of each index of a var or a zone."""
        known = self.index_domain_cache.get(name)
        if known is None:
            known = []
            for domain in (self.types.vars.get(name) or self.types.zones[name]).index:
                element = strip_optional(element_of(self.type_of(domain, self.types.globals)))
                if element == "Player":
                    allowed = frozenset(range(1, self.game.num_players + 1))
                    known.append((element, allowed, f"players 1..{self.game.num_players}"))
                elif element == "int":
                    allowed = frozenset(self.constant(domain))
                    shown = f"{min(allowed)}..{max(allowed)}" if allowed and len(allowed) == max(allowed) - min(allowed) + 1 \
                        else ", ".join(map(str, sorted(allowed)))
                    known.append((element, allowed, shown))
                else:
                    known.append((element, None, f"a {element}"))
            self.index_domain_cache[name] = known
        return known

    def player_values(self, name):
        """The values a Player variable may hold (none too if it is optional), or None for a
        variable of another type."""
        return self.seats_of_type(self.types.type_name(self.types.vars[name].type))

    def seats_of_type(self, t):
        """The values a place of type t may hold if it is a Player (or Player?), else None."""
        if strip_optional(t) != "Player":
            return None
        seats = set(range(1, self.game.num_players + 1))
        return frozenset(seats | {None} if t.endswith("?") else seats)

    def visit_Augment(self, node, scope, ctx, out, indent):
        value = self.x(node.value, scope, ctx) if not self.type_of(node.value, scope).endswith("?") else \
            self.codegen.number(node.value, scope, ctx, self.codegen.bind(node.span, "span"))   # none: a located error
        sign = "+" if node.op == "+=" else "-"
        if isinstance(node.target, ast.AttributeTarget):
            now = f"attribute(s.entities, {ctx.local(node.target.name)}, {node.target.attribute!r})"
            total = self.bounded(f"present({now}, {self.codegen.bind(node.span, 'span')}) {sign} ({value})", node.span, out, indent)
            return self.set_attribute(node, total, scope, ctx, out, indent)
        if self.assigns_local(node.target, scope):
            local = ctx.local(node.target.name)
            total = self.bounded(f"{local} {sign} ({value})", node.span, out, indent)
            out.add(indent, f"{local} = {total}")
            return
        key, default = self.fresh("_key"), self.codegen.literal(self.game.var_defaults[node.target.name])
        out.add(indent, f"{key} = {self.checked_key(node.target.name, node.target.indexes, node.span, scope, ctx, out, indent)}")
        now = f"_V.get({key}, {default})"
        if self.types.type_name(self.types.vars[node.target.name].type).endswith("?"):
            now = f"present({now}, {self.codegen.bind(node.span, 'span')})"      # none += 1: a located error
        total = self.bounded(f"{now} {sign} ({value})", node.span, out, indent)
        total = self.player_checked(node.target.name, self.in_range(node.target.name, total, node.span, out, indent),
                                    node.span, out, indent)
        key, total = self.index_write(node.target.name, key, total, out, indent)
        out.add(indent, f"_V[{key}] = {total}")
        self.invalidate(node.target.name, out, indent)

    def visit_If(self, node, scope, ctx, out, indent):
        branches = [(node.condition, node.body)] + [(c.condition, c.body) for c in node.elifs]
        counter = self.counter(node)
        for k, (condition, body) in enumerate(branches):
            out.add(indent, f"{'if' if k == 0 else 'elif'} {truth(self.x(condition, scope, ctx))}:")
            self.bump(counter, out, indent + 1, 1 + k)
            self.block(body, scope, ctx, out, indent + 1)
        if node.orelse:
            out.add(indent, "else:")
            self.block(node.orelse, scope, ctx, out, indent + 1)

    def loop_variable(self, binder, scope, ctx):
        domain = self.codegen.collection(binder.domain, scope, ctx)
        element = strip_optional(element_of(self.type_of(binder.domain, scope)))
        inner = scope.child(**{binder.name: element})
        return domain, inner

    def charge(self, units, span, out, indent):
        """Take `units` (a source) from the step's work budget: a located error past it."""
        out.add(indent, f"STEP[1] -= {units}")
        out.add(indent, f"if STEP[1] < 0: work_runs_on({self.codegen.bind(span, 'span')})")

    def costly_round(self, loop):
        """What a round of the statement loop costs when it is more than the rounds limit
        covers (work.py), else None."""
        units = self.work.round_cost(loop)
        return units if units > ROUND_FREE_WORK else None

    def visit_For(self, node, scope, ctx, out, indent):
        domain, inner = self.loop_variable(node.binder, scope, ctx)
        items = self.fresh("_items")
        out.add(indent, f"{items} = list({domain})")
        # the step's one budget of loop rounds, taken at once for the whole list
        out.add(indent, f"STEP[0] -= len({items})")
        out.add(indent, f"if STEP[0] < 0: step_runs_on({self.codegen.bind(node.span, 'span')})")
        units = self.costly_round(node)
        if units is not None:
            self.charge(f"len({items}) * {units}", node.span, out, indent)
        out.add(indent, f"for {ctx.local(node.binder.name)} in {items}:")
        if node.binder.condition is not None:
            out.add(indent + 1, f"if not ({truth(self.x(node.binder.condition, inner, ctx))}): continue")
        self.bump(self.counter(node), out, indent + 1, 1)
        self.block(node.body, inner, ctx, out, indent + 1)

    def loop_round(self, loop, out, indent):
        """One round of a while or repeat: from the step's one budget of loop rounds (nested
        loops share it, so that no step runs on for ever), and from its work budget when the
        round costs much."""
        out.add(indent, "STEP[0] -= 1")
        out.add(indent, f"if STEP[0] < 0: step_runs_on({self.codegen.bind(loop.span, 'span')})")
        units = self.costly_round(loop)
        if units is not None:
            self.charge(str(units), loop.span, out, indent)

    def loop_cap(self, what, span, out, indent):
        out.add(indent, "else:")
        out.add(indent + 1, f"raise RulesRuntimeError(\"a '{what}' loop ran {LOOP_CAP} times\", "
                            f"{self.codegen.bind(span, 'span')})")

    def visit_While(self, node, scope, ctx, out, indent):
        out.add(indent, f"for {self.fresh('_loop')} in range(LOOP_CAP):")
        out.add(indent + 1, f"if not ({truth(self.x(node.condition, scope, ctx))}): break")
        self.loop_round(node, out, indent + 1)
        self.bump(self.counter(node), out, indent + 1, 1)
        self.block(node.body, scope, ctx, out, indent + 1)
        self.loop_cap("while", node.span, out, indent)

    def visit_Repeat(self, node, scope, ctx, out, indent):
        inner = scope.child()
        out.add(indent, f"for {self.fresh('_loop')} in range(LOOP_CAP):")
        self.loop_round(node, out, indent + 1)
        self.bump(self.counter(node), out, indent + 1, 1)
        self.block(node.body, inner, ctx, out, indent + 1)
        if node.until is not None:
            out.add(indent + 1, f"if {self.x(node.until, inner, ctx)}: break")
        self.loop_cap("repeat", node.span, out, indent)

    def destination(self, node, scope, ctx, out, indent):
        return self.zone_key(node.zone, scope, ctx, out, indent), isinstance(node, ast.ToBottom)

    def zone_key(self, zone, scope, ctx, out, indent):
        """The key of a zone components are put in: outside the zone's declared indexes, an
        error, not a zone nobody declared."""
        if isinstance(zone, ast.Subscript) and isinstance(zone.obj, ast.Name) and zone.obj.id in self.types.zones \
                and scope.lookup(zone.obj.id) is None:
            return self.checked_key(zone.obj.id, zone.indexes, zone.span, scope, ctx, out, indent)
        return self.x(zone, scope, ctx)

    def visit_Move(self, node, scope, ctx, out, indent):
        item = self.fresh("_item")
        out.add(indent, f"{item} = {self.x(node.item, scope, ctx)}")
        zone, under = self.destination(node.destination, scope, ctx, out, indent)
        out.add(indent, f"if {item} is not None: s.move({item}, {zone}, {under})")

    def visit_MoveAll(self, node, scope, ctx, out, indent):
        zone, under = self.destination(node.destination, scope, ctx, out, indent)
        target = self.fresh("_target")
        out.add(indent, f"{target} = {zone}")
        out.add(indent, f"move_all(s, {self.codegen.collection(node.source, scope, ctx)}, {target}, {under})")

    def visit_Deal(self, node, scope, ctx, out, indent):
        count, source = self.x(node.count, scope, ctx), self.x(node.source, scope, ctx)
        zone, under = self.destination(node.destination, scope, ctx, out, indent)
        out.add(indent, f"s.deal({count}, {source}, {zone}, {under})")

    def visit_Shuffle(self, node, scope, ctx, out, indent):
        if self.explicit_chance and ctx.steps:
            element = strip_optional(element_of(self.type_of(node.zone, scope)))
            labeler = self.codegen.bind(self.game.labeler(element))
            prompt = f"shuffle {self.source_text(node.zone)}"
            out.add(indent, f"yield from chance_shuffle(s, {self.x(node.zone, scope, ctx)}, {labeler}, {prompt!r})")
            return
        out.add(indent, f"shuffle(s, {self.x(node.zone, scope, ctx)})")

    def chance_value(self, node, scope, ctx, out, indent, public_target=False):
        """With explicit chance, a value that is a pick: drawn by a chance node first. What
        was drawn is shown to all only when it goes into a public variable (public_target) from
        a list or a public zone: a local may go anywhere, and so it is not shown."""
        if not (self.explicit_chance and ctx.steps and is_pick(node)):
            return None
        items = node.arguments[0]
        element = strip_optional(element_of(self.type_of(items, scope)))
        labeler = self.codegen.bind(self.game.labeler(element))
        temp = self.fresh("_drawn")
        hidden = not public_target
        if self.type_of(items, scope).startswith("zone["):
            zone = items.obj if isinstance(items, ast.Subscript) else items
            name = zone.id if isinstance(zone, ast.Name) else None
            hidden = hidden or name not in self.game.zone_meta or self.game.zone_meta[name][1] != "public"
        out.add(indent, f"{temp} = yield from chance_pick(s, {self.codegen.collection(items, scope, ctx)}, {labeler}, {hidden})")
        return temp

    def visit_Reveal(self, node, scope, ctx, out, indent):
        t = self.type_of(node.what, scope)
        what = self.codegen.collection(node.what, scope, ctx) if strip_optional(t) not in self.types.components \
            else f"({self.x(node.what, scope, ctx)},)"
        players = self.x(node.players, scope, ctx)
        if strip_optional(self.type_of(node.players, scope)) == "Player":
            players = f"({players},)"
        out.add(indent, f"reveal_to(s, {what}, {players})")

    def visit_Create(self, node, scope, ctx, out, indent):
        values = self.fresh("_values")
        fields = self.types.fields_of(node.type_name)
        inits = joined([f"{i.name!r}: " + self.attribute_stored(i.value, self.x(i.value, scope, ctx), fields[i.name],
                                                                f"{node.type_name}.{i.name}", scope, out, indent)
                        for i in node.inits], ", ")
        out.add(indent, f"{values} = {{{inits}}}")
        out.add(indent, f"{values}.setdefault('owner', None)")
        template = self.codegen.literal(self.game.label_templates.get(node.type_name))
        count = f"room_for(s, {self.x(node.count, scope, ctx)}, {self.codegen.bind(node.span, 'span')})"
        zone = self.zone_key(node.zone, scope, ctx, out, indent)
        out.add(indent, f"for {self.fresh('_n')} in range({count}):")
        out.add(indent + 1, f"s.create({node.type_name!r}, dict({values}), {template}, {zone})")

    def visit_Choose(self, node, scope, ctx, out, indent):
        cg = self.codegen
        var, domain, where, inner_scope, inner = cg.comprehension(node.binder, scope, ctx)
        element = strip_optional(element_of(self.type_of(node.binder.domain, scope)))
        options, names, index = self.fresh("_options"), self.fresh("_names"), self.fresh("_choice")
        # (a new list: the options stay as they are while the zone they come from changes)
        if where is None:
            out.add(indent, f"{options} = list({domain})")
        else:
            before, (where,) = attributes_read_once([where], cg.temp)
            for line in before:
                out.add(indent, line)
            out.add(indent, f"{options} = [{var} for {var} in {domain} if {where}]")
        out.add(indent, f"if {options}:")
        body = indent + 1
        components = element in self.types.components
        if components or element in self.types.boards:       # (named by their labels)
            out.add(body, f"{options}, {names} = distinct_labelled(s, {options}, {components}, {cg.bind(node.span)})")
        else:
            labeler = cg.bind(self.game.labeler(element))
            out.add(body, f"{options}, {names} = distinct_options(s, {options}, {labeler}, {components}, {cg.bind(node.span)})")
        out.add(body, f"if len({options}) == 1: {index} = 0")
        out.add(body, "elif s.cursor < len(s.choices):")
        out.add(body + 1, f"{index} = s.choices[s.cursor]")
        out.add(body + 1, "s.cursor += 1")
        out.add(body, "else:")
        who = f"seat(s, {self.x(node.chooser, scope, ctx)}, 'a choice', {cg.bind(node.chooser.span, 'span')})" \
            if node.chooser is not None else "s.current"
        prompt = node.prompt or f"choose {node.binder.name}"
        public = "None"
        if element in self.game.private_fields:
            public = f"[{cg.bind(self.game.labeler(element, PUBLIC))}(s, v) for v in {options}]"
        need = f"NeedChoice({options}, {names}, {who}, {prompt!r}, {public})"
        if ctx.steps:
            # the engine sends the chosen option back: the step goes on from here
            out.add(body + 1, f"{index} = yield {need}")
        else:
            out.add(body + 1, f"raise {need}")
        chosen_scope = scope.child(**{node.binder.name: element})
        out.add(body, f"{ctx.local(node.binder.name)} = {options}[{index}]")
        self.block(node.body, chosen_scope, ctx, out, body)

    def visit_Require(self, node, scope, ctx, out, indent):
        raise AssertionError("requirements are compiled with their action's guard")

    def visit_Again(self, node, scope, ctx, out, indent):
        out.add(indent, "s.extra = True")

    def visit_Finish(self, node, scope, ctx, out, indent):
        out.add(indent, "s.terminal = True")
        winners = self.x(node.winners, scope, ctx) if node.winners is not None else "()"
        out.add(indent, f"finish(s, {winners})")

    def visit_Log(self, node, scope, ctx, out, indent):
        # the log is public: each {expression} shown by its label as everybody sees it
        out.add(indent, "if s.shared: s.own_trails()")
        line = self.text_source(node.message, scope, ctx, node.span, self.public_label)
        span = self.codegen.bind(node.span, 'span')
        try:
            constant = python_ast.literal_eval(line)
        except (ValueError, SyntaxError):
            constant = None
        if isinstance(constant, str) and len(constant) <= MAX_LOG_LINE:      # its length known now
            out.add(indent, f"STEP[1] -= {len(constant)}")
            out.add(indent, f"if STEP[1] < 0: work_runs_on({span})")
            out.add(indent, f"s.log.append({line})")
            return
        # logged() written out: its call was a sixth of a short line's cost
        out.add(indent, f"_line = {line}")
        out.add(indent, "STEP[1] -= len(_line)")
        out.add(indent, f"s.log.append(_line if STEP[1] >= 0 and len(_line) <= MAX_LOG_LINE "
                        f"else past_log_limits(STEP, _line, {span}))")

    def text_source(self, text, scope, ctx, span, label) -> str:
        """The source of a text whose {expressions} are shown by their labels: label(node,
        value source) -> the source of one value's text."""
        pieces = []
        for part in parse_template(text).parts:
            if isinstance(part, str):
                pieces.append(repr(part))
                continue
            node = self.checked.placeholder_nodes.get((span, part.inside)) or parse_expression(part.inside, span)
            pieces.append(label(node, self.codegen.source(node, scope, ctx), scope))
        if not pieces:
            pieces.append(repr(text))
        if len(pieces) > 16:        # (a long sum of pieces is too deep for Python's compiler)
            return f"''.join(({joined(pieces, ', ')},))"
        text = joined(pieces, " + ")
        return f"({text})" if "\n" in text else text

    def public_label(self, node, value, scope) -> str:
        """The source of a value's text as everybody sees it: inline for the common types; '?'
        for an expression that reads an owner-only attribute."""
        private = self.game.private_fields
        for item in ast.walk(node):
            if isinstance(item, ast.Attribute) and item.name in private.get(strip_optional(self.type_of(item.obj, scope)), ()):
                return "'?'"
        t = strip_optional(self.type_of(node, scope))
        if t in ("Player", "list[Player]"):
            if self.seat_texts is None:
                self.seat_texts = self.codegen.bind(SeatTexts().__getitem__, "seat_text")
            return f"{self.seat_texts}({value})" if t == "Player" else f"', '.join(map({self.seat_texts}, {value}))"
        if (t in self.types.components or t in self.types.boards) and t not in private:
            return f'(_E[_v]["__label__"] if (_v := {value}) is not None else "none")'
        if t in self.types.enums:       # (a member's text is its name)
            return f'(_v if (_v := {value}) is not None else "none")'
        labeler = self.codegen.bind(self.game.labeler(t, PUBLIC), "label")
        if t == "int":
            return f"(str(_v) if (_v := {value}).__class__ is int else {labeler}(s, _v))"
        return f"{labeler}(s, {value})"

    def local_types(self, scope):
        out = {}
        while scope is not None and scope is not self.types.globals:
            for name, t in scope.names.items():
                out.setdefault(name, t)
            scope = scope.parent
        return out

    def visit_CallStatement(self, node, scope, ctx, out, indent):
        parameters = self.types.procedures[node.name].parameters
        # a parameter is written by the call: none where its type has no '?' is an error here
        args = "".join(", " + self.never_none_stored(a, self.x(a, scope, ctx), self.types.type_name(p.type),
                                                     f"'{p.name}' of {node.name}", scope, out, indent)
                       for a, p in zip(node.arguments, parameters))
        if node.name not in self.may_choose_procs:
            out.add(indent, f"proc_{node.name}(s{args})")
        elif ctx.steps:
            out.add(indent, f"yield from proc_{node.name}(s{args})")
        else:
            out.add(indent, f"without_choice(proc_{node.name}(s{args}))")

    # ---- declarations ----
    def parameters(self, parameters) -> str:
        return "".join(f", L_{p.name}" for p in parameters)

    def cached_body(self, name, parameters, cache, computed, maintained=None):
        """Lines of a function that keeps its values until the state it reads changes (the
        stamps of what function `name` reads; see choose_memoized), `computed` the lines that
        set its `value`. A filter `maintained` (codegen.MaintainedFilter) tests again only the
        values whose zones changed since its last value, when it can (maintained.py)."""
        if len(parameters) == 1:
            key = f"L_{parameters[0].name}"
        else:
            key = "(" + "".join(f"L_{p.name}, " for p in parameters) + ")"
        stamp = self.stamp_source(name, {p.name for p in parameters})
        head = ["    if MEMO_OWNER[0] is not s: memo_reset(s)",
                f"    stamp = {stamp}",
                f"    entry = {cache}.get({key})",
                "    if entry is not None and entry[0] == stamp: return entry[1]"]
        if maintained is None:
            return head + computed + [
                           f"    if len({cache}) >= MEMO_LIMIT: {cache}.clear()",
                           f"    {cache}[{key}] = (stamp, value)",
                           "    return value"]
        m = maintained
        return head + [f"    changed = changed_rows(entry, MEMO_STAMPS[0], MEMO_PARTS, {m.rows_of_key}, {m.limit})",
                       "    if changed is None:",
                       *["    " + line for line in computed],
                       "    else:",
                       "        tested = []",
                       f"        for {m.target} in changed: tested.append({m.tested})     # (a loop: no frame for a few rows)",
                       f"        value = refiltered(entry[1], tested, {m.order})",
                       f"    if len({cache}) >= MEMO_LIMIT: {cache}.clear()",
                       f"    {cache}[{key}] = (stamp, value, MEMO_STAMPS[0], MEMO_PARTS.dropped + len(MEMO_PARTS.log))",
                       "    return value"]

    def log_changes(self):
        """Once the functions are compiled, if a filter is maintained: the changes of the zone
        families counted by part are logged (maintained.py)."""
        if not self.maintained:
            return
        counts = PartCounts(self.game.memo_parts)
        self.codegen.namespace["MEMO_PARTS"] = self.game.memo_parts = counts
        self.change_logs.append(counts)
        marks = self.game.zone_marks
        for family, (k, partitioned, _) in marks.items():
            # (every family counted by part: its changes logged, key_mark)
            marks[family] = (k, partitioned, partitioned)
        self.game.key_marks.clear()

    def entry_charge(self, name, span) -> list:
        """The lines that charge a function's (or procedure's) body at its entry, when its
        calls may compound (work.py); else none."""
        if not self.work.charges_at_entry(name):
            return []
        out = Lines(span)
        self.charge(str(self.work.body_cost(name)), span, out, 1)
        return out.lines

    def compile_function(self, name, fn):
        scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in fn.parameters})
        if name in self.memoized:
            self.equality_index(name, fn, scope)
        maintained = computed = None
        boolean = self.types.type_name(fn.result_type) == "bool"
        counter = self.counter(fn, ("called", "true") if boolean else None)
        found = self.codegen.maintained_filter(fn.body, scope, Context("local"), [p.name for p in fn.parameters]) \
            if name in self.memoized and self.memo_reads[name] == [0] and self.memo_zone_parts[name] else None
        if found is None and counter is None:
            computed = self.codegen.stopping_loop(fn.body, scope, Context("local"))
        if found is not None:
            source, maintained = found
            if maintained is not None:
                self.maintained[name] = self.memo_zone_parts[name]
        elif computed is None:
            source = self.codegen.source(fn.body, scope, Context("local"))
        lines = computed + ["    return value"] if computed is not None else [f"    return {source}"]
        if counter is not None:        # (coverage: such a function is never cached)
            lines = [f"    COV[{counter}] += 1", f"    value = {source}",
                     *([f"    if value: COV[{counter + 1}] += 1"] if boolean else []), "    return value"]
        charge = self.entry_charge(name, fn.body.span)
        # a body that only reads its indexes keeps no values of its own: the indexes keep them
        if name in self.memoized and (charge or not self.answered_by_indexes(fn.body)):
            lines = self.cached_body(name, fn.parameters, self.memo_cache_names[name],
                                     computed if computed is not None else [f"    value = {source}"], maintained)
            first = next(k for k, line in enumerate(lines) if line.startswith(("    value = ", "    changed = ")))
            lines[first:first] = charge        # (a value found in the cache costs nothing)
        else:
            lines = charge + lines
        self.define(f"def fn_{name}(s{self.parameters(fn.parameters)})", lines, self.where(fn), fn.body.span)
        parameters = [p.name for p in fn.parameters]
        compiled = self.codegen.namespace[f"fn_{name}"]
        reset = self.game.memo_reset

        def call(s, env):
            reset(s)       # the state may have been changed from outside since the last call
            return compiled(s, *[env[p] for p in parameters])
        return call

    def answered_by_indexes(self, body) -> bool:
        """Whether a cached function's body became reads of its equality indexes, joined by
        `and`, `or`, `not` and comparisons of names and constants (`a != b and touches(a, b)`)."""
        substituted = self.codegen.substitutions
        found = False

        def cheap(node) -> bool:
            nonlocal found
            if id(node) in substituted:
                found = True
                return True
            if isinstance(node, (ast.And, ast.Or)):
                return cheap(node.left) and cheap(node.right)
            if isinstance(node, ast.Not):
                return cheap(node.operand)
            if isinstance(node, ast.Compare):
                return all(isinstance(side, SIMPLE_OPERANDS) for side in (node.left, node.right))
            return False
        return cheap(body) and found

    def equality_index(self, name, fn, scope):
        """Indexes for aggregates of a cached function that test one of its parameters, b, for
        equality and use it nowhere else: `any(x in D: any(y in E where v(x, y) == b and c))`
        becomes `b in` the set of the values v takes where c holds; `filter(x in D where v(x)
        == b and c)` and `count(...)` read the group of b in a table grouped by v. Each index
        is computed once for the other parameters and kept like the function's values (a
        relation asked for every pair is one set per first value, not one scan per pair)."""
        parameters = {p.name for p in fn.parameters}
        binders = [n.name for n in ast.walk(fn.body) if isinstance(n, ast.Binder)]
        covered = set()        # the nodes under an index: answered by it already
        for node in ast.walk(fn.body):
            if not isinstance(node, ast.Aggregate) or id(node) in covered or id(node) in self.indexed_reads:
                continue
            found = None
            if node.kind in ("filter", "count") and node.value is None and node.binder.condition is not None:
                level = attrs.evolve(node.binder, condition=None)
                found = self.keyed_conjunct([level], flatten_and(node.binder.condition), parameters, binders)
                if found is None:
                    # filter(w in D where c(w) and any(x in E(w) where v(x) == b ...)): grouped by
                    # every value v takes around w
                    conjuncts = flatten_and(node.binder.condition)
                    for k, conjunct in enumerate(conjuncts):
                        chain = any_chain(conjunct)
                        if chain is None:
                            continue
                        inner = self.keyed_conjunct([level] + chain[0], chain[1], parameters, binders)
                        if inner is None:
                            continue
                        b, value, inner_rest, guards = inner
                        outer_rest = conjuncts[:k] + conjuncts[k + 1:]
                        if any(b in names_in(c) or not self.cannot_fail(c) for c in outer_rest) or \
                                set().union(*(names_in(c) for c in outer_rest)) & \
                                {n for n in binders if n != level.name or binders.count(n) > 1}:
                            continue
                        found = (b, value, (chain[0], inner_rest, outer_rest), guards)
                        break
                    if found is not None:
                        b, value, nested, guards = found
                        if self.define_index(name, fn, scope, node, [level], nested, value, b, guards):
                            covered |= {id(n) for n in ast.walk(node)}
                        continue
                levels = [level]
            elif node.kind == "any":
                chain = any_chain(node)
                if chain is None:
                    continue
                levels = chain[0]
                found = self.keyed_conjunct(levels, chain[1], parameters, binders)
            if found is not None:
                b, value, rest, guards = found
                if self.define_index(name, fn, scope, node, levels, rest, value, b, guards):
                    covered |= {id(n) for n in ast.walk(node)}

    def keyed_conjunct(self, levels, conjuncts, parameters, binders):
        """(b, the value compared with b, the other conjuncts, those on b alone), for the first
        conjunct `value == b` (b a parameter) of an aggregate whose levels bind `levels` and that
        uses b nowhere else, only reads and compares, and names no variable of an enclosing
        aggregate; else None."""
        bound = {b.name for b in levels}
        # a variable of an enclosing aggregate would change from one evaluation to the next
        enclosing = {n for n in binders if n not in bound or binders.count(n) > 1}
        for k, conjunct in enumerate(conjuncts):
            if not (isinstance(conjunct, ast.Compare) and conjunct.op == "=="):
                continue
            for key_side, other in ((conjunct.right, conjunct.left), (conjunct.left, conjunct.right)):
                if not (isinstance(key_side, ast.Name) and key_side.id in parameters and key_side.id not in bound):
                    continue
                b = key_side.id
                others = conjuncts[:k] + conjuncts[k + 1:]
                # conditions on b alone are checked once, before the index is read
                guards = [c for c in others if b in names_in(c) and not names_in(c) & bound]
                rest = [c for c in others if c not in guards]
                outer = [lv.condition for lv in levels if lv.condition is not None]
                pieces = [lv.domain for lv in levels] + outer + rest + [other]
                used = set().union(*(names_in(p) for p in pieces))
                if b in used or used & enclosing or not all(self.cannot_fail(p) for p in pieces + guards):
                    continue
                return b, other, rest, guards
        return None

    def cannot_fail(self, node) -> bool:
        """An expression that only reads and compares: evaluating it more often than written
        cannot raise an error the rules would not have raised."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Binary, ast.Negate, ast.Ranking)):
                return False
            if isinstance(n, ast.Call) and n.name in self.types.functions:
                if not self.cannot_fail(self.types.functions[n.name].body):
                    return False
            elif isinstance(n, ast.Call) and n.name not in ("neighbors", "adjacent", "size", "top", "bottom") \
                    and n.name not in self.types.boards:
                return False
        return True

    def define_index(self, name, fn, scope, node, levels, rest, value, b, guards) -> bool:
        cg = self.codegen
        ctx = Context("local")
        clauses, inner_scope = [], scope
        nested = None
        if isinstance(rest, tuple):         # filter/count of items around which v takes b
            nested, rest = rest, None
        for binder in levels:
            var, domain, where, inner_scope, ctx = cg.comprehension(binder, inner_scope, ctx)
            clauses.append(f"for {var} in {domain}" + (f" if {where}" if where is not None else ""))
        item = var
        if nested is not None:
            inner_levels, inner_rest, outer_rest = nested
            clauses[-1] += "".join(f" if {cg.source(c, inner_scope, ctx)}" for c in outer_rest)
            ctx.no_walrus += 1          # the set of values is the iterable of a comprehension
            inner_clauses = []
            for binder in inner_levels:
                var, domain, where, inner_scope, ctx = cg.comprehension(binder, inner_scope, ctx)
                inner_clauses.append(f"for {var} in {domain}" + (f" if {where}" if where is not None else ""))
            if self.type_of(value, inner_scope).startswith("list["):
                return False
            keys = "{" + cg.source(value, inner_scope, ctx) + " " + " ".join(inner_clauses) + \
                "".join(f" if {cg.source(c, inner_scope, ctx)}" for c in inner_rest) + "}"
            ctx.no_walrus -= 1
            key = self.fresh("key")
            loops = " ".join(clauses) + f" for {key} in {keys}"
            source = f"grouped([({key}, {item}) {loops}])" if node.kind == "filter" else f"counted([{key} {loops}])"
        else:
            if self.type_of(value, inner_scope).startswith("list["):
                return False        # not hashable
            conditions = "".join(f" if {cg.source(c, inner_scope, ctx)}" for c in rest)
            element = cg.source(value, inner_scope, ctx)
            loops = " ".join(clauses) + conditions
            if node.kind == "any":
                source = "{" + f"{element} {loops}" + "}"
            elif node.kind == "filter":
                source = f"grouped([({element}, {var}) {loops}])"
            else:
                source = f"counted([{element} {loops}])"
        others = [p for p in fn.parameters if p.name != b]
        cache = cg.bind({}, f"cache_{name}_index")
        asked = cg.bind({}, f"asked_{name}_index")
        index = self.fresh(f"index_{name}_")
        # the aggregate as written, for a value of b asked alone
        plain = cg.source(node, scope, Context("local"))
        found = {"any": f"(L_{b} in table)", "filter": f"(table.get(L_{b}) or [])",
                 "count": f"table.get(L_{b}, 0)"}[node.kind]
        if len(others) == 1:
            key = f"L_{others[0].name}"
        else:
            key = "(" + "".join(f"L_{p.name}, " for p in others) + ")"
        stamp = self.stamp_source(name, {p.name for p in others})
        lines = ["    if MEMO_OWNER[0] is not s: memo_reset(s)",
                 f"    stamp = {stamp}",
                 f"    entry = {cache}.get({key})",
                 "    if entry is not None and entry[0] == stamp:",
                 "        table = entry[1]",
                 f"    elif {asked}.get({key}, 0) is True or {asked}.get({key}) == stamp:",
                 "        # a second value asked in the same state: worth the table, now and from then on",
                 f"        {asked}[{key}] = True",
                 f"        table = {source}",
                 f"        if len({cache}) >= MEMO_LIMIT: {cache}.clear()",
                 f"        {cache}[{key}] = (stamp, table)",
                 "    else:",
                 f"        {asked}[{key}] = stamp",
                 f"        return {plain}",
                 f"    return {found}"]
        self.define(f"def {index}(s{self.parameters(others)}, L_{b})", lines,
                    f"# {name}: its aggregate over the values of '{b}', a table once two are asked")
        read = f"{index}(s{''.join(f', L_{p.name}' for p in others)}, L_{b})"
        fn_scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in fn.parameters})
        guard = " and ".join(f"({cg.source(g, fn_scope, Context('local'))})" for g in guards)
        empty = {"any": "False", "filter": "[]", "count": "0"}[node.kind]
        cg.substitutions[id(node)] = f"({read} if {guard} else {empty})" if guards else read
        return True

    def compile_procedure(self, name, proc):
        scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in proc.parameters})
        out = Lines()
        ctx = Context("local")
        ctx.steps = name in self.may_choose_procs      # a procedure that may choose is a generator
        self.bump(self.counter(proc), out, 1)
        out.lines.extend(self.entry_charge(name, proc.span))
        out.spans.extend([proc.span] * (len(out.lines) - len(out.spans)))
        self.block(proc.body, scope, ctx, out, 1)
        compiled = self.define(f"def proc_{name}(s{self.parameters(proc.parameters)})", out, self.where(proc))
        parameters = [p.name for p in proc.parameters]
        reset = self.game.memo_reset
        steps = ctx.steps

        def run(s, env):
            reset(s)
            done = compiled(s, *[env[p] for p in parameters])
            if steps:
                without_choice(done, s)     # run from outside a step: a choice stops it (NeedChoice)
        return run

    def var_indexes(self):
        """Aggregates that ask which indexes of a variable hold a value, over the variable's
        whole domain (`filter(c in Cell where mark[c] == p)`, `count`, `any`, and `all(c in
        Cell: mark[c] != e)`), read a table of the variable by value that the state keeps
        exact as the variable is written (var_table, var_index_write), instead of a scan.
        Only for variables of one index over a board, an enum or the players, whose values are
        not lists. Sets self.indexed_reads (id of the node -> (variable, the value compared,
        the conditions that do not name the binder, those that do)) and game.var_positions
        (variable -> {index: its place})."""
        self.indexed_reads = {}
        positions = {}
        program = self.program
        everything = program.parts() + ((program.game,) if program.game is not None else ())
        for node in ast.walk(everything):
            if isinstance(node, ast.Aggregate):
                if node.kind in ("filter", "count", "any") and node.value is None and node.binder.condition is not None:
                    found = self.indexed_condition(node.binder.domain, node.binder.name, node.binder.condition, "==")
                elif node.kind == "all" and node.value is not None and node.binder.condition is None:
                    found = self.indexed_condition(node.binder.domain, node.binder.name, node.value, "!=")
                else:
                    found = None
            elif isinstance(node, ast.Action):
                # an action's first binder: `put(c in Cell where mark[c] == none)`
                first = node.binders[0] if node.binders else None
                found = None if first is None or first.condition is None else \
                    self.indexed_condition(first.domain, first.name, first.condition, "==")
                if found is not None:
                    self.indexed_reads[id(first)] = found
                continue
            else:
                continue
            if found is not None:
                self.indexed_reads[id(node)] = found
        for family, _, _, _ in self.indexed_reads.values():
            positions[family] = {x: k for k, x in enumerate(self.static_domain(self.types.vars[family].index[0]))}
        self.game.var_positions = positions

    def static_domain(self, node):
        """The values of a board, an enum or the players named by `node`, or None."""
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.types.boards:
            return list(self.game.geometries[node.id].cells)
        if node.id in self.types.enums:
            return list(self.game.enum_members[node.id])
        if node.id in ("Player", "players"):
            return list(self.game.seats)
        return None

    def indexed_condition(self, domain, name, condition, op):
        """(variable, the value compared (None: `name` itself), the other conjuncts without
        `name`, those with it) when `condition` is `v[name] op value` (and other conditions), v a variable indexed by
        `domain` alone, every part only reading and comparing (tried on fewer values than
        written, none can fail); else None."""
        values = self.static_domain(domain)
        if values is None:
            return None
        conjuncts = flatten_and(condition) if op == "==" else [condition]
        for k, conjunct in enumerate(conjuncts):
            if not (isinstance(conjunct, ast.Compare) and conjunct.op == op):
                continue
            for side, value in ((conjunct.left, conjunct.right), (conjunct.right, conjunct.left)):
                if not (isinstance(side, ast.Subscript) and isinstance(side.obj, ast.Name) and len(side.indexes) == 1
                        and isinstance(side.indexes[0], ast.Name) and side.indexes[0].id == name):
                    continue
                var = self.types.vars.get(side.obj.id)
                if var is None or len(var.index) != 1 or self.static_domain(var.index[0]) != values:
                    continue
                if self.types.type_name(var.type).startswith("list["):
                    continue
                others = conjuncts[:k] + conjuncts[k + 1:]
                if isinstance(value, ast.Name) and value.id == name:
                    value = None        # v[x] == x: the indexes that hold themselves (indexed_keys)
                elif name in names_in(value):
                    continue
                if not all(self.cannot_fail(c) for c in ([value] if value is not None else []) + others):
                    continue
                guards = [c for c in others if name not in names_in(c)]
                rest = [c for c in others if name in names_in(c)]
                if rest and op != "==":
                    continue
                return side.obj.id, value, guards, rest
        return None

    def choose_memoized(self):
        """Functions worth caching: their body visits a large board (an aggregate over many
        cells) or calls one that does. A cached value stays until a statement writes what the
        function reads (a variable it names, or any zone), or until the engine is entered
        again (a state changed from outside). Not cached: functions that call pick (they
        change the random source), ask `can_play` (it reads the whole state), read `current`, or
        take lists (unhashable)."""
        functions = self.types.functions
        costly = set()
        for name, fn in functions.items():
            for node in ast.walk(fn.body):
                if isinstance(node, (ast.Aggregate, ast.Ranking)) and isinstance(node.binder.domain, ast.Name) and \
                        len(self.game.static_by_type.get(node.binder.domain.id, ())) >= MEMO_COST:
                    costly.add(name)
                # a range up to a variable that may grow as far (a display of up to 48 columns)
                if isinstance(node, (ast.Aggregate, ast.Ranking)) and isinstance(node.binder.domain, ast.Range) and \
                        (self.work.static_length(node.binder.domain) or 0) >= MEMO_COST:
                    costly.add(name)
        reads_current = {name for name, fn in functions.items() if "current" in names_in(fn.body)}
        scalar = {name for name, fn in functions.items()
                  if not any(self.types.type_name(p.type).startswith("list[") for p in fn.parameters)}
        # a zone given as an argument is read under another name: such functions are not cached
        takes_zone = {name for name, fn in functions.items()
                      if any(self.types.type_name(p.type).startswith("zone[") for p in fn.parameters)}
        # a function with an `after` reads whatever its procedure reads: never cached
        hypothetical = {name for name, fn in functions.items() if any(isinstance(n, ast.After) for n in ast.walk(fn.body))}
        self.memoized = (callers(functions, costly) - callers(functions, {"pick", "can_play"} | hypothetical)
                         - callers(functions, reads_current) - callers(functions, takes_zone)) & scalar
        if self.coverage is not None:
            # a counted function counts every call: neither cached (nor any that calls it) nor inlined
            self.not_inlined = {name for name, fn in functions.items() if self.coverage.tag_of.get(id(fn))}
            self.memoized -= callers(functions, self.not_inlined)
        self.memo_cache_names = {name: self.codegen.bind({}, f"cache_{name}_") for name in sorted(self.memoized)}
        # what each cached function reads, through the functions it calls: variables, and zones
        # (a zone family, or the part of one whose first index is one of the function's
        # parameters: a function f(p) that reads only zone[p, ...] keeps its values when
        # zone[q, ...] changes)
        # one counter per thing read ('#epoch' grows when the engine is entered again)
        self.memo_stamp_index = {"#epoch": 0}
        self.memo_reads = {}
        self.memo_zone_parts = {}      # cached function -> {(zone family, its parameter)}
        partitioned = set()
        for name in sorted(self.memoized):
            variables, zones = self.state_read(name, {p.name: p.name for p in functions[name].parameters}, set())
            parts = {(zone, param) for zone, param in zones if param is not None}
            wholes = {zone for zone, param in zones if param is None}
            parts = {(zone, param) for zone, param in parts if zone not in wholes}
            partitioned |= {zone for zone, _ in parts}
            reads = variables | {"zone:" + zone for zone in wholes}
            for dependency in sorted(reads):
                self.memo_stamp_index.setdefault(dependency, len(self.memo_stamp_index))
            self.memo_reads[name] = [0] + sorted(self.memo_stamp_index[d] for d in reads)
            self.memo_zone_parts[name] = parts
        # a family read by part is also read whole by an index over that parameter
        for zone in partitioned:
            self.memo_stamp_index.setdefault("zone:" + zone, len(self.memo_stamp_index))
        stamps = [0] * len(self.memo_stamp_index)
        owner = self.game.memo_owner
        part_stamps = {}
        families = {d[5:]: k for d, k in self.memo_stamp_index.items() if d.startswith("zone:")}

        logs = self.change_logs = []       # the PartCounts a new epoch empties (log_changes)

        def memo_reset(s):
            owner[0] = s
            stamps[0] += 1
            if logs:
                logs[0].forget()

        self.codegen.namespace.update(memo_reset=memo_reset, MEMO_OWNER=owner, MEMO_STAMPS=stamps,
                                      MEMO_PARTS=part_stamps, MEMO_LIMIT=MEMO_LIMIT)
        self.game.memo_reset = memo_reset
        # for State.mark_changed: zone family -> (its stamp, also by first index?, changes logged?
        # (set by log_changes))
        self.game.zone_marks = {family: (k, family in partitioned, False) for family, k in families.items()} or None
        self.game.memo_stamps, self.game.memo_parts = stamps, part_stamps

    def state_read(self, name, mapping, seen):
        """(variables, {(zone family, parameter of the cached function or None)}) that function
        `name` reads, its parameters standing for the cached function's as `mapping` says."""
        key = (name, tuple(sorted(mapping.items())))
        if key in seen:
            return set(), set()
        seen.add(key)
        fn = self.types.functions[name]
        shadowed = {n.name for n in ast.walk(fn.body) if isinstance(n, ast.Binder)}
        mapping = {k: v for k, v in mapping.items() if k not in shadowed}
        variables, zones = set(), set()

        def visit(node):
            if isinstance(node, tuple):
                for item in node:
                    visit(item)
                return
            if not attrs.has(type(node)):
                return
            if isinstance(node, ast.Subscript) and isinstance(node.obj, ast.Name) and node.obj.id in self.types.zones:
                first = node.indexes[0] if node.indexes else None
                zones.add((node.obj.id, mapping.get(first.id) if isinstance(first, ast.Name) else None))
                visit(node.indexes)
                return
            if isinstance(node, ast.Name):
                if node.id in self.types.vars:
                    variables.add(node.id)
                elif node.id in self.types.zones:
                    zones.add((node.id, None))
                elif node.id in self.types.components:
                    zones.add(("#types", None))
                return
            if isinstance(node, ast.Subscript) and isinstance(node.obj, ast.Name) and node.obj.id in self.types.vars:
                variables.add(node.obj.id)
            if isinstance(node, ast.Attribute) and node.name in self.changed_attributes:
                variables.add("." + node.name)       # an attribute that statements change
            if isinstance(node, ast.Call) and node.name in self.types.functions:
                callee = self.types.functions[node.name]
                passed = {p.name: mapping.get(a.id) for p, a in zip(callee.parameters, node.arguments)
                          if isinstance(a, ast.Name) and mapping.get(a.id) is not None}
                more_variables, more_zones = self.state_read(node.name, passed, seen)
                variables.update(more_variables)
                zones.update(more_zones)
            for field in attrs.fields(type(node)):
                visit(getattr(node, field.name))
        visit(fn.body)
        return variables, zones

    def stamp_source(self, name, available) -> str:
        """The stamp of a cached function's values: it grows when what it reads changes. A zone
        part read through a parameter that is not `available` counts as the whole family."""
        terms = [f"MEMO_STAMPS[{k}]" for k in self.memo_reads[name]]
        for zone, param in sorted(self.memo_zone_parts[name]):
            if param in available:
                terms.append(f"MEMO_PARTS.get(({zone!r}, L_{param}), 0)")
            else:
                terms.append(f"MEMO_STAMPS[{self.memo_stamp_index['zone:' + zone]}]")
        return " + ".join(dict.fromkeys(terms))

    def invalidate(self, dependency, out, indent):
        """After a statement writes a variable (or moves components): the cached values of the
        functions that read it are stale."""
        k = self.memo_stamp_index.get(dependency)
        if k is not None:
            out.add(indent, f"MEMO_STAMPS[{k}] += 1")

    def compile_triggers(self):
        """One generated function: fire the first trigger whose condition holds (True), or
        none (False). The engine calls it until nothing fires."""
        out = Lines()
        ctx = Context("local")
        ctx.steps = self.triggers_may_choose
        for trigger in self.program.of_kind(ast.Trigger):
            scope = self.types.globals
            out.add(1, self.where(trigger))
            indent = 1
            if trigger.binder is not None:
                domain, scope = self.loop_variable(trigger.binder, scope, ctx)
                # (no copy: the loop ends with the first body it runs, which may change the domain)
                out.add(1, f"for L_{trigger.binder.name} in {domain}:")
                indent = 2
                if trigger.binder.condition is not None:
                    out.add(2, f"if not ({truth(self.x(trigger.binder.condition, scope, ctx))}): continue")
            counter = self.counter(trigger)
            self.bump(counter, out, indent, 1)
            out.add(indent, f"if {truth(self.x(trigger.condition, scope, ctx))}:")
            self.bump(counter, out, indent + 1)
            self.block(trigger.body, scope, ctx, out, indent + 1)
            out.add(indent + 1, "return True")
        out.add(1, "return False")
        return self.define("def fire_one_trigger(s)", out)

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
        out = Lines()
        if self.program.setup:
            self.bump(self.counter(self.program.setup), out, 1)
        setup_ctx = Context("local")
        # with explicit chance, a setup that shuffles is a generator: the engine runs it as a step
        setup_may_choose = setup_ctx.steps = self.explicit_chance and self.may_choose(setup)
        self.block(setup, self.types.globals, setup_ctx, out, 1)
        if setup_ctx.steps and not any("yield" in line for line in out.lines):
            out.add(1, "yield from ()")
        setup_function = self.define("def setup(s)", out, self.where(self.program.setup) if self.program.setup else "")
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
                scope = self.types.globals.child(**{field.player_name: "Player"})
                source = self.x(field.expr, scope, Context("local"))
                header[kind] = self.define(f"def {kind}(s, L_{field.player_name})", [f"    return {source}"],
                                           self.where(field), field.span)
        return CompiledRules(
            self.actions, self.action_index, self.triggers_may_choose, fire_one_trigger,
            triggers[0].span if triggers else None, self.functions, self.procedures, invariants, setup_may_choose,
            setup_function, setup_parts, flow, run_flow, header.get("score"), header.get("returns"))

    def module_source(self) -> str:
        """The generated module as text: a module that imports and runs on its own (module.py)."""
        return module_text(self)

    # ---- the flow: a flat list of instructions, run by one generated function ----
    def setup_parts(self, setup):
        """(prefix(s), rest(s)): the setup split after its longest beginning that draws nothing
        at random (creates, moves, variables) and cannot choose or end the game. That part is
        the same in every game: the engine runs it once and starts each game from a copy.
        None when the setup begins with a draw."""
        procs = self.types.procedures
        drawing = callers(self.types.functions, {"pick"})
        draws = set()
        changed = True
        while changed:          # procedures that draw, directly or through others
            changed = False
            for name, proc in procs.items():
                if name not in draws and not self.draws_nothing(proc.body, drawing, draws):
                    draws.add(name)
                    changed = True
        cut = 0
        while cut < len(setup) and self.draws_nothing((setup[cut],), drawing, draws):
            cut += 1
        if cut == 0:
            return None
        parts = []
        for name, statements in (("setup_prefix", setup[:cut]), ("setup_rest", setup[cut:])):
            out = Lines()
            self.block(statements, self.types.globals, Context("local"), out, 1)
            parts.append(self.define(f"def {name}(s)", out, self.where(self.program.setup)))
        return tuple(parts)

    @staticmethod
    def draws_nothing(statements, drawing, drawing_procs) -> bool:
        """Whether statements are the same in every game: no shuffle, no pick, no choice, no
        finish, no call that may do one of these."""
        for n in ast.walk(tuple(statements)):
            if isinstance(n, (ast.Shuffle, ast.Choose, ast.Finish)):
                return False
            if isinstance(n, ast.Call) and n.name in drawing:
                return False
            if isinstance(n, ast.CallStatement) and (n.name in drawing_procs or n.name in drawing):
                return False
        return True

    def compile_flow(self, flow):
        """run_flow(s): the flow's instructions lowered to the IR (lower_flow.py), the passes not
        switched off run over it, then rendered."""
        # (the IR is imported only when a game compiles: `referee check` starts without it)
        from .lower_flow import lower_run_flow
        from .passes import run_passes
        from .render_python import render_function
        function = lower_run_flow(flow, self.game.num_players, lambda ins: self.codegen.bind(ins, "ins"))
        rendered = render_function(run_passes(function, self.game.passes_off))
        out = Lines()
        out.lines, out.spans = rendered.lines, rendered.spans
        return self.define(rendered.header, out)

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
        source (run inside run_flow: no function of its own)."""
        from . import ir
        from .lower_flow import FLOW_LOCALS
        if isinstance(node, (ast.Boolean, ast.Integer)):
            return ir.Constant(node.value, node.span)
        return ir.Host((self.codegen.source(node, scope, Context("env")),), reads=FLOW_LOCALS, span=node.span)

    def flow_statement(self, node, scope, out):
        from . import ir
        from .lower_flow import FLOW_LOCALS
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
            domain, where, inner, _ = self.binder_functions(node.binder, scope)
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
            domain, where, inner, _ = self.binder_functions(node.binder, scope)
            out.append(Instruction("for_init", node.span, fn=(domain, where), key=key, name=node.binder.name))
            step = len(out)
            out.append(Instruction("for_next", node.span, fn=where, key=key, name=node.binder.name))
            self.flow_block(node.body, inner, out)
            out.append(Instruction("jump", node.span, target=step))
            out[step].target = len(out)
        else:
            lines = Lines(node.span)
            ctx = Context("env")
            ctx.steps = self.may_choose((node,))      # a generator, run by the engine as a step
            self.dispatch(node, scope, ctx, lines, 0)
            if self.may_choose((node,)):      # run by the engine as a step (effect_runner): a function of its own
                indented = Lines()
                indented.lines = ["    " + line for line in lines.lines] or ["    pass"]
                indented.spans = lines.spans or [node.span]
                fn = self.define(f"def {self.fresh('_run')}(s, e)", indented, self.where(node))
                out.append(Instruction("effect", node.span, fn=fn, may_choose=True))
            else:               # in run_flow itself
                code = ir.Host(tuple(lines.lines), tuple(lines.spans), FLOW_LOCALS, node.span) if lines.lines else None
                out.append(Instruction("effect", node.span, code=code))
