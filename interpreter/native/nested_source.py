"""Lists of lists in a native kernel (a mixin of rules_source.KernelSource), beyond what
cell_lists_source.py renders (a typed List of int64 rows, `ROW`; loops, `size`, rankings): the
literals (`[]`, `[[]]`, `[[a], [b, c]]`), `+` of two lists (of values or of lists), `map` and
`filter` that make a list of lists, and an action's argument that ranges over a list of lists
(paths of steps): its move codes the row's position in the domain, and the move, when
played, takes the row at that position in the domain listed again (the state has not changed in
between).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, ListOf, OptionalOf, SetOf, Type, Unknown, ZoneOf, element_type

from .cell_lists_source import is_nested


def untag(node):
    return ast.untag(node)[0]


def is_list(t: Type) -> bool:
    return isinstance(t.without_none(), ListOf)


def unknown_in(t: Type) -> bool:
    """Whether the checker could not tell part of a type (a conditional whose one branch is `[]`)."""
    t = t.without_none()
    if isinstance(t, (ListOf, SetOf, ZoneOf)):
        return unknown_in(t.element)
    return isinstance(t, Unknown)


class NestedListsSource:
    """Lists of lists and joined lists for KernelSource (its `expr`, `define`, `domain_loop`,
    `type_of`, `fresh`)."""

    def known_type(self, node, want: Type) -> Type:
        """The checker's type of an expression, or the type its context wants where the checker
        could not tell all of it."""
        t = self.type_of(node)
        return want if unknown_in(t) else t

    def list_type(self, node, want: Type) -> Type:
        """The type of a list expression: the type the context wants when it is a list (an empty
        literal has no type of its own), else the checker's."""
        return want if is_list(want) else self.type_of(node)

    def nested_literal(self, node, scope, want: Type):
        """`[[a], [b, c]]` or `[]` of lists as a typed List, else None."""
        t = self.list_type(node, want)
        if not is_nested(t):
            return None
        rows = "nested_empty()"
        for item in node.items:
            rows = f"nested_with({rows}, {self.expr(item, scope, element_type(t))})"
        return rows

    def joined_lists(self, node, scope, want: Type):
        """`a + b` of two lists (a list of lists too), else None."""
        if node.op != "+":
            return None
        t = self.list_type(node, want)
        if not is_list(t) or isinstance(t, OptionalOf):
            return None
        left, right = (self.expr(side, scope, t) for side in (node.left, node.right))
        return f"nested_join({left}, {right})" if is_nested(t) else f"joined({left}, {right})"

    def empty_list(self, t: Type):
        """The empty list of type t (what a call too deep gives), else None."""
        if not is_list(t) or isinstance(t, OptionalOf):
            return None
        return "nested_empty()" if is_nested(t) else "np.empty(0, dtype=np.int64)"

    def makes_nested(self, node, want: Type) -> bool:
        return node.kind in ("map", "filter") and is_nested(self.known_type(node, want))

    def nested_aggregate(self, node, scope, want: Type) -> str:
        """`map` or `filter` whose result is a list of lists: a function of its own that appends
        each row to a typed List."""
        binder = node.binder
        name, var = self.fresh(f"agg_{node.kind}_"), self.fresh("x")
        loop, _ = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        test = [f"if not ({self.expr(binder.condition, inner, BOOL)}): continue"] if binder.condition is not None else []
        if node.kind == "map":
            value = self.expr(node.value, inner, element_type(self.known_type(node, want)))
        else:
            value = var
        body = ["out = nested_empty()", *loop, *("    " + line for line in test + [f"out.append({value}.copy())"]),
                "return out"]
        self.define(f"def {name}(S, cur{scope.params()}):", body)
        return f"{name}(S, cur{''.join(', ' + v for v in scope.names.values())})"

    # ---- an action's argument over a list of lists ----------------------------------------------
    def over_rows(self, binder) -> bool:
        """Whether an action's binder ranges over a list of lists (its move codes a position)."""
        domain = untag(binder.domain)
        return not isinstance(domain, (ast.Name, ast.Range)) and is_nested(self.type_of(domain))

    def argument_loop(self, binder, scope, var: str) -> tuple:
        """(the lines of an action's loop over a binder's domain, the expression its move codes):
        the value itself, or its position in a list of lists."""
        if not self.over_rows(binder):
            lines, _ = self.domain_loop(binder, scope, var)
            return lines, var
        domain = untag(binder.domain)
        return [f"items_{var} = {self.rows_of(domain, scope)}",
                f"for at_{var} in range(len(items_{var})):", f"    {var} = items_{var}[at_{var}]"], f"at_{var}"

    def rows_of(self, domain, scope) -> str:
        """The rows an argument over a list of lists goes through (value_sets_source.py: a map's keys)."""
        return self.expr(domain, scope, self.type_of(domain))

    def argument_code(self, binder, var: str) -> str:
        """What an action's move codes of one argument: the value, or its row's position."""
        return self.row_code(var) if self.over_rows(binder) else var       # (repeats_source.py)

    def argument_decoded(self, binders, names, bits: int, scope_class) -> tuple:
        """(run_ACTION's lines, the arguments they give act_ACTION): each argument's code, or,
        where one ranges over a list of lists, the names bound in turn (a row taken again from
        its domain, where the earlier arguments are bound)."""
        mask = (1 << bits) - 1
        codes = [f"(move >> {bits * k}) & {mask}" for k in range(len(binders))]
        if not any(self.over_rows(b) for b in binders):
            return [], codes
        lines, scope = [], scope_class()
        for binder, name, code in zip(binders, names, codes):
            if self.over_rows(binder):
                domain = untag(binder.domain)
                lines += [f"items_{name} = {self.rows_of(domain, scope)}",
                          f"{name} = items_{name}[{code}]"]
            else:
                lines.append(f"{name} = {code}")
            scope = scope.child(**{binder.name: name})
        return lines, list(names)


NESTED_FUNCTIONS = '''

@njit
def nested_empty():
    return List.empty_list(ROW)


@njit
def nested_with(rows, row):
    """A list of lists with one more row (a copy: lists are values)."""
    out = List.empty_list(ROW)
    for r in rows:
        out.append(r)
    out.append(row.copy())
    return out


@njit
def nested_join(a, b):
    out = List.empty_list(ROW)
    for r in a:
        out.append(r)
    for r in b:
        out.append(r)
    return out


@njit
def joined(a, b):
    out = np.empty(len(a) + len(b), dtype=np.int64)
    out[:len(a)] = a
    out[len(a):] = b
    return out
'''
