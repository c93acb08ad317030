"""The rules' functions, procedures, triggers and setup built as ir.Functions, and `define`: an
ir.Function rendered (render_python.py) with the state's tables it reads bound at its top, then
executed into the generated module's namespace."""
from __future__ import annotations

from collections.abc import Mapping

from referee.dsl import ast
from referee.dsl.types import BOOL, ListOf

from ..runtime import without_choice
from ..runtime.errors import RulesRuntimeError
from . import ir
from .caching import Stamp, callers
from .codegen import Context
from .lower_flow import located
from .lower_statements import NONE, STATE, call, guard, negated
from .module import digest, functions_text, generated, written_parts
from .passes import run_passes
from .render_python import where
from .expression_facts import facts_of
from .generated_names import RulesFunction, rules_local

# the state's tables a function reads through locals of these names, bound once at its top
TABLES = (("_Z", "zones"), ("_V", "vars"), ("_E", "entities"))


def tables_read(body: tuple) -> set:
    """The names of the state's tables that statements read (TABLES, columns) or write."""
    return set().union(*(facts_of(top).bound for top in body))


def is_generator(function: ir.Function) -> bool:
    return facts_of(function).generator


def prologue(body: tuple, columns: Mapping[str, int]) -> tuple:
    """`_Z = s.zones`, ... `_A3 = s.columns[3]`: the tables the body reads, bound first;
    `columns`, the local of each component attribute's column -> its index in s.columns."""
    read = tables_read(body)
    bound = [ir.Assign(local, ir.ReadState(field)) for local, field in TABLES if local in read]
    bound += [ir.Assign(local, ir.Item(ir.ReadState("columns"), ir.Constant(k)))
              for local, k in sorted(columns.items(), key=lambda column: column[1]) if local in read]
    return tuple(bound)


def memo_item(table: str, k: int) -> ir.Item:
    return ir.Item(ir.Global(table), ir.Constant(k))


def stale_cache_dropped(cache: ir.Global) -> ir.Guard:
    """A cache that grew to MEMO_LIMIT values starts again (memory stays bounded)."""
    return guard(ir.Compare(">=", ir.Call("len", (cache,)), ir.Global("MEMO_LIMIT")),
                 ir.ExpressionStatement(ir.Method(cache, "clear")))


def too_deep(error, span) -> RulesRuntimeError:
    return RulesRuntimeError(f"this rule is nested too deeply to compile "
                             f"({getattr(error, 'msg', type(error).__name__)}): split it into functions", span)


STAMP, ENTRY, VALUE = ir.Local("stamp"), ir.Local("entry"), ir.Local("value")


class FunctionLowering:
    """Functions of the generated module as IR: a mixin of the Compiler (compiler.py)."""

    def define(self, function, comment=None, by_rule=True, passes=True, comments=True, emitted=True):
        """exec one generated function, an ir.Function, its tables bound at its top. `comment`
        goes above it (default: its rules line). `by_rule`: a function of the rules' statements
        (else the flow's: a comment wherever the rules line changes); `passes` False where they
        ran already (the flow's, a listing's own); `comments` False: no `# file:line` inside;
        `emitted` False: a function only run while compiling (a value known before the game
        starts), which the module does not hold."""
        comment = where(function.span) if comment is None else comment
        try:
            if passes:      # (before the tables are bound)
                optimised = run_passes(function, self.game.passes_off)
                # a step stays a generator even where the passes took out its every choice
                function = optimised if is_generator(optimised) or not is_generator(function) else function
            whole = ir.Function(function.name, function.params, prologue(function.body, self.game.column_locals())
                                + function.body, function.span)
            made = generated(whole, comment, by_rule, comments)
        except RecursionError as error:
            raise too_deep(error, function.span) from None
        name = function.name
        filename = f"<rules {self.program.path} {name}>"
        namespace = self.codegen.namespace
        if self.adopted is not None and name in self.adopted.namespace:
            # the module's own function, reading the values bound here (its globals)
            self.adopted.namespace.update(namespace)
            namespace[str(name)] = self.adopted.namespace[name]      # (a plain str key, as bind's)
        else:
            self.game.line_spans[filename] = made.line_spans
            try:
                exec(compile(made.source, filename, "exec"), namespace)
            except (SyntaxError, RecursionError, MemoryError) as error:     # too deep for Python's own parser
                raise too_deep(error, next((sp for sp in made.line_spans.values()), None)) from None
        if not emitted:
            return namespace.pop(name)
        self.generated.append(made)
        return namespace[name]

    def adopt_done(self):
        """After the last function of a game loaded from a compiled module: the module's
        namespace gets the values bound since, its functions' lines their rules spans, and a
        module whose functions are not the ones its rules compile to is refused."""
        adopted = self.adopted
        if adopted is None:
            return
        functions, _ = written_parts(self)
        if digest(functions_text(made.source for made in functions)) != adopted.functions:
            raise RulesRuntimeError(f"{adopted.path} holds functions its rules do not compile to (edited, or "
                                    "compiled by another version of referee): compile it again", None)
        adopted.namespace.update(self.codegen.namespace)
        spans = self.game.line_spans.setdefault(adopted.path, {})
        for made in functions:
            first = adopted.namespace[made.function.name].__code__.co_firstlineno - made.header
            spans.update({first + line: span for line, span in made.line_spans.items()})
        self.adopted = None          # (functions compiled later, for a tool, are executed here)

    # ---- expressions as functions ----
    def expression_function(self, node, scope, ctx=None, held=(), emitted=True):
        """f(s, e) -> the value of an expression (e: the flow's or a caller's environment);
        `held`: the words of its name (held_name), `emitted` False: one only run while
        compiling, not in the module."""
        ctx = ctx or Context("env")
        value = self.value(node, scope, ctx)
        name = self.held_name(*held) if held else self.fresh("_x")
        fn = self.define(ir.Function(name, ("s", "e"), (ir.Return(value, node.span),), node.span), emitted=emitted)
        constant = self.codegen.constant_of(node)
        if constant is not None:
            fn.value = constant[0]
        return fn

    def compile_time_function(self, node, scope):
        """f(s, e) -> the value of an expression, run only while compiling (a board's cells):
        the module does not hold it."""
        return self.expression_function(node, scope, emitted=False)

    def constant(self, node):
        """Evaluate an expression that needs no state (params, sizes, initial values)."""
        fn = self.compile_time_function(node, self.types.globals)
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

    def expr(self, node, scope, *words):
        """f(s, e) -> the value of an expression, a function the engine holds (named from `words`)."""
        return self.expression_function(node, scope, held=words)

    def binder_functions(self, binder, scope, owner):
        """(domain fn, where fn or None, inner scope, element Type), in the env form; named
        after the binder and its `owner` (an action, or the flow's statement)."""
        values = self.sequence(binder.domain, scope, Context("env"))
        element = self.items_type(binder.domain, scope)
        if isinstance(element, ListOf):
            values = ir.Call("hashable_values", (values,))
        domain = self.define(ir.Function(self.held_name("domain", owner, binder.name), ("s", "e"),
                                         (ir.Return(values, binder.span),), binder.span))
        inner = scope.child(**{binder.name: element})
        where_fn = self.expr(binder.condition, inner, "where", owner, binder.name) if binder.condition is not None else None
        return domain, where_fn, inner, element

    def header_function(self, kind, field):
        """score(s, p), returns(s, p) or teams(s, p) of the game's header."""
        scope = self.types.globals.child(**{field.player_name: "Player"})
        value = self.value(field.expr, scope, Context("local"))
        return self.define(ir.Function(kind, ("s", rules_local(field.player_name)), (ir.Return(value, field.span),), field.span))

    # ---- functions and procedures ----
    def parameters(self, parameters) -> str:
        return "".join(f", L_{p.name}" for p in parameters)

    @staticmethod
    def params_of(parameters) -> tuple:
        return ("s",) + tuple(rules_local(p.name) for p in parameters)

    def stamp(self, name, available) -> ir.Expression:
        """The stamp of a cached function's values: it grows when what it reads changes. A zone
        part read through a parameter that is not `available` counts as the whole family."""
        terms = [memo_item("MEMO_STAMPS", k) for k in self.memo_reads[name]]
        for zone, param in sorted(self.memo_zone_parts[name]):
            if param in available:
                part = ir.Tuple((ir.Constant(zone), ir.Local(rules_local(param))))
                terms.append(ir.Method(ir.Global("MEMO_PARTS"), "get", (part, ir.Constant(0))))
            else:
                terms.append(memo_item("MEMO_STAMPS", self.memo_stamp_index[Stamp("zone", zone)]))
        terms = list(dict.fromkeys(terms))
        total = terms[0]
        for term in terms[1:]:
            total = ir.Arithmetic("+", total, term)
        return total

    def cached_body(self, name, parameters, cache, computed, charge, maintained=None, span=None) -> list:
        """The statements of a function that keeps its values until the state it reads changes
        (the stamps of what function `name` reads; see choose_memoized), `computed` those that
        set its `value`, `charge` its cost (none for a value found in the cache). A filter
        `maintained` (codegen.MaintainedFilter) tests again only the values whose zones changed
        since its last value, when it can (maintained.py)."""
        key = ir.CacheKey(tuple(ir.Local(rules_local(p.name)) for p in parameters))
        cache = ir.Global(cache)
        head = [guard(ir.Compare("is not", memo_item("MEMO_OWNER", 0), STATE), call("memo_reset", STATE)),
                ir.Assign("stamp", self.stamp(name, {p.name for p in parameters})),
                ir.Assign("entry", ir.Method(cache, "get", (key,))),
                guard(ir.BoolOp("and", (ir.Compare("is not", ENTRY, NONE), ir.Compare("==", ir.Item(ENTRY, ir.Constant(0)),
                                                                                       STAMP))),
                      ir.Return(ir.Item(ENTRY, ir.Constant(1))))] + charge
        if maintained is None:
            return head + computed + [stale_cache_dropped(cache), ir.SetItem(cache, key, ir.Tuple((STAMP, VALUE))),
                                      ir.Return(VALUE)]
        m = maintained
        changed, tested = ir.Local("changed"), ir.Local("tested")
        parts = ir.Global("MEMO_PARTS")
        retest = ir.ShortLoop(m.target, changed, (ir.Append("tested", m.tested),), "a loop: no frame for a few rows", span)
        kept = ir.Tuple((STAMP, VALUE, memo_item("MEMO_STAMPS", 0),
                         ir.Arithmetic("+", ir.Field(parts, "dropped"), ir.Call("len", (ir.Field(parts, "log"),)))))
        return head + [
            ir.Assign("changed", ir.Call("changed_rows", (ENTRY, memo_item("MEMO_STAMPS", 0), parts,
                                                          m.rows_of_key, ir.Constant(m.limit)))),
            ir.If(ir.Compare("is", changed, NONE), tuple(computed),
                  (ir.Assign("tested", ir.NewList()), retest,
                   ir.Assign("value", ir.Call("refiltered", (ir.Item(ENTRY, ir.Constant(1)), tested, m.order))))),
            stale_cache_dropped(cache), ir.SetItem(cache, key, kept), ir.Return(VALUE)]

    def entry_charge(self, name, span) -> list:
        """The statements that charge a function's (or procedure's) body at its entry, when its
        calls may compound (work.py); else none."""
        if not self.work.charges_at_entry(name):
            return []
        return [located(s, span) for s in self.spend(1, ir.Constant(self.work.body_cost(name)), span)]

    def compile_function(self, name, fn):
        scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in fn.parameters})
        if name in self.memoized:
            self.equality_index(name, fn, scope)
        maintained = computed = None
        boolean = self.declared_type(fn.result_type) == BOOL
        counter = self.counter(fn, ("called", "true") if boolean else None)
        found = self.codegen.maintained_filter(fn.body, scope, Context("local"), [p.name for p in fn.parameters]) \
            if name in self.memoized and self.memo_reads[name] == [0] and self.memo_zone_parts[name] else None
        if found is None and counter is None:
            computed = self.codegen.stopping_loop(fn.body, scope, Context("local"))
        if found is not None:
            value, maintained = found
            if maintained is not None:
                self.maintained[name] = self.memo_zone_parts[name]
        elif computed is None:
            value = self.codegen.lower(fn.body, scope, Context("local"))
        span = fn.body.span
        computing = list(computed) if computed is not None else [ir.Assign("value", value)]
        body = computing + [ir.Return(VALUE)] if computed is not None else [ir.Return(value)]
        if counter is not None:        # (coverage: such a function is never cached)
            body = [ir.CountCoverage(counter), ir.Assign("value", value),
                    *([guard(VALUE, ir.CountCoverage(counter + 1))] if boolean else []), ir.Return(VALUE)]
        charge = self.entry_charge(name, fn.body.span)
        # a body that only reads its indexes keeps no values of its own: the indexes keep them
        if name in self.memoized and (charge or not self.answered_by_indexes(fn.body)):
            body = self.cached_body(name, fn.parameters, self.memo_cache_names[name], computing, charge, maintained, span)
        else:
            body = charge + body
        body = [located(s, span) for s in body]
        self.define(ir.Function(RulesFunction.of(name), self.params_of(fn.parameters), tuple(body), fn.span))
        parameters = [p.name for p in fn.parameters]
        compiled = self.codegen.namespace[f"fn_{name}"]
        reset = self.game.memo_reset

        def call_function(s, env):
            reset(s)       # the state may have been changed from outside since the last call
            return compiled(s, *[env[p] for p in parameters])
        return call_function

    def index_function(self, name, others, b, source, plain, found):
        """The function that answers a cached function's aggregate over the values of its
        parameter `b` (Compiler.define_index): the aggregate as written for a value asked alone,
        a table of every value once a second is asked in the same state."""
        cache = ir.Global(self.codegen.bind({}, f"cache_{name}_index"))
        asked = ir.Global(self.codegen.bind({}, f"asked_{name}_index"))
        index = self.fresh(f"index_{name}_")
        plain = plain()
        key = ir.CacheKey(tuple(ir.Local(rules_local(p.name)) for p in others))
        table = ir.Local("table")
        second = ir.BoolOp("or", (ir.Compare("is", ir.Method(asked, "get", (key, ir.Constant(0))), ir.Constant(True)),
                                  ir.Compare("==", ir.Method(asked, "get", (key,)), STAMP)))
        body = (guard(ir.Compare("is not", memo_item("MEMO_OWNER", 0), STATE), call("memo_reset", STATE)),
                ir.Assign("stamp", self.stamp(name, {p.name for p in others})),
                ir.Assign("entry", ir.Method(cache, "get", (key,))),
                ir.If(ir.BoolOp("and", (ir.Compare("is not", ENTRY, NONE),
                                        ir.Compare("==", ir.Item(ENTRY, ir.Constant(0)), STAMP))),
                      (ir.Assign("table", ir.Item(ENTRY, ir.Constant(1))),),
                      (ir.If(second, (ir.Remark("a second value asked in the same state: worth the table, now and from "
                                                "then on"),
                                      ir.SetItem(asked, key, ir.Constant(True)), ir.Assign("table", source),
                                      stale_cache_dropped(cache), ir.SetItem(cache, key, ir.Tuple((STAMP, table)))),
                             (ir.SetItem(asked, key, STAMP), ir.Return(plain))),)),
                ir.Return(found))
        self.define(ir.Function(index, self.params_of(others) + (rules_local(b),), body),
                    comment=f"# {name}: its aggregate over the values of '{b}', a table once two are asked")
        return index

    def compile_procedure(self, name, proc):
        scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in proc.parameters})
        ctx = Context("local")
        ctx.steps = name in self.may_choose_procs      # a procedure that may choose is a generator
        body = self.count(self.counter(proc)) + self.entry_charge(name, proc.span)
        body += self.statements(proc.body, scope, ctx)
        compiled = self.define(ir.Function(f"proc_{name}", self.params_of(proc.parameters), tuple(body), proc.span))
        parameters = [p.name for p in proc.parameters]
        reset = self.game.memo_reset
        steps = ctx.steps

        def run(s, env):
            reset(s)
            done = compiled(s, *[env[p] for p in parameters])
            if steps:
                without_choice(done, s)     # run from outside a step: a choice stops it (NeedChoice)
        return run

    # ---- triggers and the setup ----
    def compile_triggers(self):
        """One generated function: fire the first trigger whose condition holds (True), or
        none (False). The engine calls it until nothing fires."""
        ctx = Context("local")
        ctx.steps = self.triggers_may_choose
        body = []
        for trigger in self.program.of_kind(ast.Trigger):
            scope = self.types.globals
            loop = None
            if trigger.binder is not None:
                domain, scope = self.loop_variable(trigger.binder, scope, ctx)
                # (no copy: the loop ends with the first body it runs, which may change the domain)
                loop = (rules_local(trigger.binder.name), domain)
                tests = [guard(negated(self.condition(trigger.binder.condition, scope, ctx)), ir.Continue())] \
                    if trigger.binder.condition is not None else []
            counter = self.counter(trigger)
            fire = self.count(counter, 1)
            test = self.condition(trigger.condition, scope, ctx)
            fire.append(ir.If(test, tuple(self.count(counter)) + self.statements(trigger.body, scope, ctx)
                              + (ir.Return(ir.Constant(True)),)))
            if loop is not None:
                fire = [ir.ForEach(loop[0], loop[1], tuple(tests + fire))]
            body.append(ir.Rule(tuple(fire), trigger.span))
        body.append(ir.Return(ir.Constant(False)))
        return self.define(ir.Function("fire_one_trigger", ("s",), tuple(body)))

    def setup_function(self, setup, setup_ctx):
        """setup(s): the setup's statements (a generator when it may choose)."""
        declared = self.program.setup
        body = self.count(self.counter(declared)) if declared else []
        body += self.statements(setup, self.types.globals, setup_ctx)
        if setup_ctx.steps and not any(isinstance(n, (ir.Yield, ir.YieldFrom)) for s in body for n in ir.walk(s)):
            body.append(ir.YieldFrom(ir.Tuple(())))
        return self.define(ir.Function("setup", ("s",), tuple(body), declared.span if declared else None))

    def setup_part(self, name, statements):
        body = self.statements(statements, self.types.globals, Context("local"))
        return self.define(ir.Function(name, ("s",), body, self.program.setup.span))

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
        return tuple(self.setup_part(name, statements)
                     for name, statements in (("setup_prefix", setup[:cut]), ("setup_rest", setup[cut:])))

    @staticmethod
    def draws_nothing(statements, drawing, drawing_procs) -> bool:
        """Whether statements are the same in every game: no shuffle, no pick, no choice, no
        finish, no call that may do one of these."""
        for n in ast.walk(tuple(statements)):
            if isinstance(n, (ast.Shuffle, ast.Choose, ast.PlayBy, ast.Respond, ast.Finish, ast.FinishTeam, ast.FinishLost)):
                return False
            if isinstance(n, ast.Call) and n.name in drawing:
                return False
            if isinstance(n, ast.CallStatement) and (n.name in drawing_procs or n.name in drawing):
                return False
        return True
