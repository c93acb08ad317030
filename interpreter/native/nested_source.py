"""Lists of lists in a native kernel (a mixin of rules_source.KernelSource): a `list of list of T`
is a Numba typed List of int64 arrays (its rows, each a list of T coded as any list: layout.py),
so that a loop over it, `size` and a `let` need nothing of their own. What does: the literals
(`[]`, `[[]]`, `[[a], [b, c]]`), `+` of two lists (of values or of lists), `map` and `filter`
that make a list of lists, and an action's argument that ranges over a list of lists (checkers'
jump paths): its move codes the row's position in the domain, and the move, when played, takes
the row at that position in the domain listed again (the state has not changed in between).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import element_of, strip_optional


def untag(node):
    return ast.untag(node)[0]


def is_list(t: str) -> bool:
    return strip_optional(t).startswith("list[")


def is_nested(t: str) -> bool:
    return is_list(t) and is_list(element_of(strip_optional(t)))


class NestedListsSource:
    """Lists of lists and joined lists for KernelSource (its `expr`, `define`, `domain_loop`,
    `type_of`, `fresh`)."""

    def known_type(self, node, want: str) -> str:
        """The checker's type of an expression, or the type its context wants where the checker
        could not tell (`any`: a conditional whose one branch is an empty list)."""
        t = self.type_of(node)
        return want if "any" in t.replace("[", " ").replace("]", " ").split() else t

    def list_type(self, node, want: str) -> str:
        """The type of a list expression: the type the context wants when it is a list (an empty
        literal has no type of its own), else the checker's."""
        return want if is_list(want) else self.type_of(node)

    def nested_literal(self, node, scope, want: str):
        """`[[a], [b, c]]` or `[]` of lists as a typed List, else None."""
        t = self.list_type(node, want)
        if not is_nested(t):
            return None
        rows = "nested_empty()"
        for item in node.items:
            rows = f"nested_with({rows}, {self.expr(item, scope, element_of(strip_optional(t)))})"
        return rows

    def joined_lists(self, node, scope, want: str):
        """`a + b` of two lists (a list of lists too), else None."""
        if node.op != "+":
            return None
        t = self.list_type(node, want)
        if not is_list(t) or t.endswith("?"):
            return None
        left, right = (self.expr(side, scope, t) for side in (node.left, node.right))
        return f"nested_join({left}, {right})" if is_nested(t) else f"joined({left}, {right})"

    def empty_list(self, t: str):
        """The empty list of type t (what a call too deep gives), else None."""
        if not is_list(t) or t.endswith("?"):
            return None
        return "nested_empty()" if is_nested(t) else "np.empty(0, dtype=np.int64)"

    def makes_nested(self, node, want: str) -> bool:
        return node.kind in ("map", "filter") and is_nested(self.known_type(node, want))

    def nested_aggregate(self, node, scope, want: str) -> str:
        """`map` or `filter` whose result is a list of lists: a function of its own that appends
        each row to a typed List."""
        binder = node.binder
        name, var = self.fresh(f"agg_{node.kind}_"), self.fresh("x")
        loop, _ = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        test = [f"if not ({self.expr(binder.condition, inner, 'bool')}): continue"] if binder.condition is not None else []
        if node.kind == "map":
            value = self.expr(node.value, inner, element_of(strip_optional(self.known_type(node, want))))
        else:
            value = var
        body = ["out = nested_empty()", *loop, *("    " + line for line in test + [f"out.append({value}.copy())"]),
                "return out"]
        self.define(f"def {name}(S, cur{scope.params()}):", body)
        return f"{name}(S, cur{''.join(', ' + v for v in scope.names.values())})"

    # ---- an action's argument over a list of lists ----------------------------------------------
    def argument_loop(self, binder, scope, var: str) -> tuple:
        """(the lines of an action's loop over a binder's domain, the expression its move codes):
        the value itself, or its position in a list of lists."""
        domain = untag(binder.domain)
        if isinstance(domain, (ast.Name, ast.Range)) or not is_nested(self.type_of(domain)):
            lines, _ = self.domain_loop(binder, scope, var)
            return lines, var
        return [f"items_{var} = {self.expr(domain, scope, self.type_of(domain))}",
                f"for at_{var} in range(len(items_{var})):", f"    {var} = items_{var}[at_{var}]"], f"at_{var}"

    def argument_decoded(self, binders, names, bits: int, scope_class) -> list:
        """run_ACTION's lines that decode a move's arguments into the names (a row of a list of
        lists taken again from its domain, where the earlier arguments are bound)."""
        mask = (1 << bits) - 1
        lines, scope = [], scope_class()
        for k, (binder, name) in enumerate(zip(binders, names)):
            code = f"(move >> {bits * k}) & {mask}"
            domain = untag(binder.domain)
            if isinstance(domain, (ast.Name, ast.Range)) or not is_nested(self.type_of(domain)):
                lines.append(f"{name} = {code}")
            else:
                lines += [f"items_{name} = {self.expr(domain, scope, self.type_of(domain))}",
                          f"{name} = items_{name}[{code}]"]
            scope = scope.child(**{binder.name: name})
        return lines


NESTED_FUNCTIONS = '''
from numba import types as numba_types  # noqa: E402
from numba.typed import List  # noqa: E402

ROW = numba_types.int64[::1]


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
