"""What a piece of the rules costs, counted in units of work, so that the generated code can
charge the step's work budget (MAX_STEP_WORK) only where work multiplies.

A unit is about one node of the rules evaluated once. `cost(node)` is a static bound on the
units a node takes that no runtime charge covers ("uncharged" work). The rule, sound and simple:

- an aggregate (and a ranking) goes through its domain once per item: it is free (charges
  nothing) when its domain has a length known when compiling (a board's cells, the players, an
  enum, a constant range, a list literal, a cell's neighbours, a filter, map or sorted of one
  of those, a function that returns one of those) and that length times what one
  item costs is at most FREE_WORK; otherwise it charges, when it runs, its domain's length times
  what one item costs (a number known when compiling) and costs its caller one unit;
- a function or procedure charges at its entry what its body costs when it is recursive (it
  calls itself, through others or not) or when its body costs more than FREE_WORK (a chain of
  functions each calling the previous one twice doubles at each link: the sum says so); its
  call then costs its caller one unit; any other call costs its caller what the body costs;
- a statement loop charges its rounds times what one round costs when a round costs more than
  ROUND_FREE_WORK (the rounds themselves are counted by MAX_STEP_ROUNDS);
- an action's legal moves: the product of its binders' domains (see Compiler.enumeration).

So the work no charge covers in a step is at most ROUND_FREE_WORK per loop round plus what the
rules' text costs once (each piece at most FREE_WORK): a step stops after a bounded amount of
work whatever the rules say, and the common small aggregates of board games charge nothing.
"""
import attrs

from referee.dsl import ast
from referee.dsl.builtins import SEAT_LISTS

FREE_WORK = 10_000        # what a free aggregate (or a function not charged at entry) may cost
ROUND_FREE_WORK = 100     # what a loop round may cost without charging the work budget

ITERATING_KINDS_WITHOUT_FILTER = ("sum", "max", "min", "map", "any", "all", "longest_trail")   # the others just take len/copy


def children(node):
    """The nodes right under a node (through tuples), in order."""
    if isinstance(node, tuple):
        for item in node:
            yield from children(item) if isinstance(item, tuple) else (item,)
        return
    if not attrs.has(node.__class__):
        return
    for field in attrs.fields(node.__class__):
        value = getattr(node, field.name)
        if isinstance(value, tuple):
            yield from children(value)
        elif attrs.has(value.__class__) and not isinstance(value, ast.Span):
            yield value


class WorkModel:
    def __init__(self, compiler):
        self.compiler = compiler
        self.types = compiler.types
        self.costs = {}             # id(node) -> its cost
        self.body_costs = {}        # function or procedure name -> what its body costs
        self.result_lengths = {}    # function name -> the most items of the list it returns, or None
        self.recursive = self.recursive_callables()

    # ---- the call graph ----
    def callees(self, name) -> set:
        decl = self.types.functions.get(name) or self.types.procedures.get(name)
        found = set()
        for node in ast.walk(decl.body):
            if isinstance(node, ast.Call) and node.name in self.types.functions:
                found.add(node.name)
            elif isinstance(node, (ast.CallStatement, ast.After)):
                found.add(node.name if isinstance(node, ast.CallStatement) else node.procedure)
        return found

    def recursive_callables(self) -> set:
        """The functions and procedures that can call themselves, through others or not."""
        graph = {name: self.callees(name) for name in [*self.types.functions, *self.types.procedures]}
        recursive = set()
        for start in graph:
            seen, stack = set(), list(graph[start])
            while stack:
                name = stack.pop()
                if name == start:
                    recursive.add(start)
                    break
                if name not in seen and name in graph:
                    seen.add(name)
                    stack.extend(graph[name])
        return recursive

    def charges_at_entry(self, name) -> bool:
        return name in self.recursive or self.body_cost(name) > FREE_WORK

    def body_cost(self, name) -> int:
        if name not in self.body_costs:
            self.body_costs[name] = 1       # (a recursive call met on the way: charged, one unit)
            decl = self.types.functions.get(name) or self.types.procedures.get(name)
            self.body_costs[name] = self.cost(decl.body)
        return self.body_costs[name]

    def call_cost(self, name) -> int:
        return 1 if self.charges_at_entry(name) else self.body_cost(name)

    # ---- lengths known when compiling ----
    def static_length(self, domain):
        """The most items the domain can have, when known when compiling; else None."""
        c = self.compiler
        if isinstance(domain, ast.Name):
            if domain.id in self.types.boards:
                return len(c.game.geometries[domain.id].cells)
            if domain.id in SEAT_LISTS:
                return c.game.num_players
            if domain.id in self.types.enums:
                return len(self.types.enums[domain.id].members)
            return None
        if isinstance(domain, ast.Range):
            low, high = self.bounds(domain.low), self.bounds(domain.high)
            if low is None or high is None:
                return None
            return max(0, high[1] - low[0] + 1)
        if isinstance(domain, ast.ListLiteral):
            return len(domain.items)
        if isinstance(domain, ast.Call) and domain.name == "neighbors":
            return max((len(n) for n in c.game.neighbor_table().values()), default=0)
        if isinstance(domain, ast.Call) and domain.name not in self.types.functions:
            if domain.name == "squares":      # (the blocks of one board)
                return c.game.board_functions["most_squares"]()
            if domain.name == "bordering":
                return sum(len(geometry.cells) for geometry in c.game.geometries.values())
            if domain.name in ("groups", "reachable") and domain.arguments:
                # a group per cell at most; the cells reached are among the last argument's
                return self.static_length(domain.arguments[-1])
        # a list made from another keeps at most its items
        if isinstance(domain, ast.Aggregate) and domain.kind in ("filter", "map") or \
                isinstance(domain, ast.Ranking) and domain.kind == "sorted":
            return self.static_length(domain.binder.domain)
        if isinstance(domain, ast.Conditional):
            lengths = [self.static_length(domain.then), self.static_length(domain.otherwise)]
            return None if None in lengths else max(lengths)
        if isinstance(domain, ast.Call) and domain.name in self.types.functions and domain.name not in self.recursive:
            if domain.name not in self.result_lengths:
                self.result_lengths[domain.name] = self.static_length(self.types.functions[domain.name].body)
            return self.result_lengths[domain.name]
        return None

    def bounds(self, node):
        """(least, most) an int expression can be, when known when compiling: a constant (a
        param included), a variable without index that declares its range (`int in 1..48`), or
        one of those plus or minus a constant; else None."""
        c = self.compiler
        constant = c.codegen.constant_of(node)
        if constant is not None:
            return (constant[0], constant[0]) if type(constant[0]) is int else None
        if isinstance(node, ast.Name) and node.id in c.game.var_ranges and not self.types.vars[node.id].index:
            return c.game.var_ranges[node.id]
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            left, right = self.bounds(node.left), self.bounds(node.right)
            if left is None or right is None:
                return None
            if node.op == "+":
                return left[0] + right[0], left[1] + right[1]
            return left[0] - right[1], left[1] - right[0]
        return None

    # ---- costs ----
    def per_item(self, binder, values) -> int:
        """What one item of a binder's domain costs: its filter and the values computed from it."""
        return 1 + (self.cost(binder.condition) if binder.condition is not None else 0) + \
            sum(self.cost(v) for v in values if v is not None)

    def iteration(self, node):
        """(charged, units per item) of an aggregate or a ranking: charged when it must charge
        its domain's length times the units per item when it runs."""
        values = node.keys if isinstance(node, ast.Ranking) else (node.value,)
        units = self.per_item(node.binder, values)
        if isinstance(node, ast.Aggregate) and node.binder.condition is None and \
                node.kind not in ITERATING_KINDS_WITHOUT_FILTER:
            return False, 1       # len(), list() or next() of the domain: no round per item
        length = self.static_length(node.binder.domain)
        return (length is None or length * units > FREE_WORK), units

    def may_unroll(self, node) -> bool:
        """Whether an aggregate may be written once per item (codegen.unrolled): only a free
        one with no charged aggregate inside, so that the copies stay as small as the cost."""
        if self.iteration(node)[0]:
            return False
        inside = (node.binder.condition, node.value)
        return not any(isinstance(n, (ast.Aggregate, ast.Ranking)) and self.iteration(n)[0]
                       for n in ast.walk(inside))

    def cost(self, node) -> int:
        if node is None:
            return 0
        if isinstance(node, tuple):
            return sum(self.cost(item) for item in node)
        key = id(node)
        if key not in self.costs:
            self.costs[key] = self.compute(node)
        return self.costs[key]

    def compute(self, node) -> int:
        if isinstance(node, ast.Tagged):
            return self.cost(node.node)
        if isinstance(node, (ast.Aggregate, ast.Ranking)):
            charged, units = self.iteration(node)
            domain = self.cost(node.binder.domain)
            if charged:
                return 1 + domain
            length = self.static_length(node.binder.domain)
            return 1 + domain + (units if length is None else length * units)
        if isinstance(node, ast.Call) and node.name in self.types.functions:
            return self.call_cost(node.name) + self.cost(node.arguments)
        if isinstance(node, ast.Call) and node.name == "can_play":
            return 1 + self.cost(node.arguments[1:]) + self.compiler.listing_cost(node.arguments[0].id)
        if isinstance(node, ast.CallStatement):
            return self.call_cost(node.name) + self.cost(node.arguments)
        if isinstance(node, ast.After):
            return self.call_cost(node.procedure) + self.cost(node.arguments) + self.cost(node.value)
        if isinstance(node, ast.Conditional):
            return 1 + self.cost(node.condition) + max(self.cost(node.then), self.cost(node.otherwise))
        if isinstance(node, ast.If):
            branches = [node.body, node.orelse] + [e.body for e in node.elifs]
            return 1 + self.cost(node.condition) + sum(self.cost(e.condition) for e in node.elifs) + \
                max(self.cost(b) for b in branches)
        if isinstance(node, ast.For):
            # the rounds are counted (MAX_STEP_ROUNDS) and charged when they cost much (visit_For)
            return 1 + self.cost(node.binder.domain)
        if isinstance(node, (ast.While, ast.Repeat)):
            return 1
        return 1 + sum(self.cost(child) for child in children(node))

    def round_cost(self, loop) -> int:
        """What one round of a statement loop costs: its test (or filter) and its body."""
        if isinstance(loop, ast.For):
            test = loop.binder.condition
        else:
            test = loop.condition if isinstance(loop, ast.While) else loop.until
        return 1 + self.cost(test) + self.cost(loop.body)
