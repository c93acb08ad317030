"""A recursion through rules functions rendered as Numba's own (a mixin of
rules_source.KernelSource): one function of the group, its head, stays a function of its own
(rec_NAME) that calls itself; every other function of the group, and every helper rendered inside the
group's bodies (a `let`, a `map`), is inlined where it is called (`inline='always'`), so the
cycles all close on the head. The head is compiled at the kernel's import with an explicit
signature, then no more (`disable_compile`): Numba's cache loads a self-recursive function
compiled so, where it crashes on a mutual recursion or on a recursive function that was typed
from its calls (numba/numba#6061: two overloads, the second's recursive call unresolved).

The head counts its calls nested in a cell of the state: past HEAD_DEPTH it sets the error slot
and the game plays in Python (a recursion that never ends gives Python's error, not a C stack
overflow). Any depth below that costs one compile: a cycle of four functions through `let` and
`map` compiled by copies took minutes at 24 copies and half an hour at 64 (recursion.py); as one
head it compiles in seconds and goes as deep as the game does.

A group is rendered so when it holds only functions, one of them (the head) lies on every cycle
of the group, and the head's parameters and result have a fixed Numba type (numbers, seats,
enum members, cells, components, lists of those, lists of lists). Other groups (a procedure in
the cycle, two cycles with no function in common) keep their copies by depth (recursion.py).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, ListOf, OptionalOf, Type, named_type, written_type

from .recursion import calls_of

STATE_TYPE = "types.Array(types.int64, 1, 'C')"         # S: the state (np.zeros in every driver)
WORD = "types.int64"
LIST_TYPE = "types.Array(types.int64, 1, 'C')"          # a list (a row of a list of lists too: cell_lists_source.ROW)
HEAD_DEPTH = 100        # the head's calls nested at most: deeper, the game plays in Python (whose own
                        # limit, a few hundred rules calls, gives its error; and no C stack runs out)
CANONICAL = {WORD: "np.int64({})", "types.boolean": "bool({})", LIST_TYPE: "np.ascontiguousarray({})"}


def head_of(group: frozenset, calls: dict, order: list):
    """The first function of the group (in file order) on every cycle of its calls: without it
    the group's calls form no cycle. None when there is none."""
    for name in (n for n in order if n in group):
        rest = {n: (calls[n] & group) - {name} for n in group if n != name}
        if not has_cycle(rest):
            return name
    return None


def has_cycle(calls: dict) -> bool:
    state: dict = {}        # name -> 1 while on the walk's path, 2 when done

    def walk(name) -> bool:
        state[name] = 1
        for callee in calls.get(name, ()):
            if state.get(callee) == 1 or (callee not in state and walk(callee)):
                return True
        state[name] = 2
        return False
    return any(name not in state and walk(name) for name in calls)


class RecursionHeadsSource:
    """Recursive groups as Numba's own recursion for KernelSource (its `program`, `game`,
    `boards`); flow_source.find_recursion asks `native_groups` which groups go so."""

    def native_groups(self, groups: dict) -> dict:
        """name -> its group's head, for the functions of the groups rendered as Numba's recursion."""
        functions = {f.name: f for f in self.program.of_kind(ast.Function)}
        calls, _ = calls_of(self.program)
        order = list(functions)
        heads: dict = {}
        for group in set(groups.values()):
            if not group <= functions.keys():
                continue
            head = head_of(group, calls, order)
            if head is None or self.head_signature(functions[head]) is None:
                continue
            heads.update({name: head for name in group})
        self.recursing = None       # while a group's function renders: its head
        self.depth_cell = None      # the state's cell counting the heads' calls nested now
        return heads

    def recursion_decorator(self) -> str:
        """The decorator of a function defined now: inlined inside a group's bodies."""
        return "@njit(inline='always')" if self.recursing else "@njit"

    def define_head(self, fn, scope, value: str) -> None:
        """A head: rec_NAME, compiled for its signature (`recursion_compiles`), and fn_NAME, inlined
        where it is called, which gives rec_NAME its arguments in exactly the signature's types (a
        recursive call typed otherwise, a literal 1 or a list of another layout, would be a second
        overload that Numba's cache cannot resolve)."""
        names = list(scope.names.values())
        kinds = [self.value_type(written_type(p.type)) for p in fn.parameters]
        given = "".join(", " + CANONICAL.get(kind, "{}").format(name) for kind, name in zip(kinds, names))
        result = self.value_type(written_type(fn.result_type))
        body = CANONICAL[result].format(value) if result == LIST_TYPE else value
        if self.depth_cell is None:         # (a cell of the state past the others, 0 from the setup)
            self.depth_cell, self.size = self.size, self.size + 1
        depth = f"S[{self.depth_cell}]"
        lines = [f"if {depth} >= {HEAD_DEPTH}:", "    S[ERROR] = 1",
                 f"    return {self.zero_of(written_type(fn.result_type), fn.span)}",
                 f"{depth} += 1", f"value = {body}", f"{depth} -= 1", "return value"]
        self.defs.append(f"@njit(cache=True)\ndef rec_{fn.name}(S, cur{scope.params()}):\n"
                         + "\n".join("    " + line for line in lines))
        self.define(f"def fn_{fn.name}(S, cur{scope.params()}):", [f"return rec_{fn.name}(S, np.int64(cur){given})"])

    def value_type(self, t: Type):
        """The Numba type (its source) of a value of type t in the kernel, None if it has no fixed one."""
        if isinstance(t, ListOf):
            element = t.element.without_none()
            if isinstance(element, ListOf):
                return f"types.ListType({LIST_TYPE})" if self.value_type(element) is not None else None
            return LIST_TYPE if self.value_type(element) == WORD else None
        if isinstance(t, OptionalOf):
            base = self.value_type(t.base)
            return base if base == WORD else None
        if t == BOOL:
            return "types.boolean"
        named = named_type(t)
        components = {c.name for c in self.program.of_kind(ast.Component)}
        if t in (INT, PLAYER) or named in self.game.enum_members or named in self.boards.geometries \
                or named in components:
            return WORD
        return None

    def head_signature(self, fn):
        """The source of a head's Numba signature, None when a parameter or its result has no fixed type."""
        result = self.value_type(written_type(fn.result_type))
        arguments = [self.value_type(written_type(p.type)) for p in fn.parameters]
        if result is None or None in arguments:
            return None
        return f"{result}({', '.join([STATE_TYPE, WORD, *arguments])})"

    def recursion_compiles(self) -> str:
        """The module's last lines: each head compiled for its signature, then sealed."""
        functions = {f.name: f for f in self.program.of_kind(ast.Function)}
        heads = sorted({head for head in self.heads.values()})
        lines = [f"rec_{head}.compile({self.head_signature(functions[head])})\nrec_{head}.disable_compile()\n"
                 for head in heads]
        return "".join(lines) and "\n\n# the recursive heads (recursion_heads.py)\n" + "".join(lines)
