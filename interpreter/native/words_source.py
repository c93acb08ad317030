"""Sets of cells as one word in a native kernel (a mixin of rules_source.KernelSource): where
`has_line` is given a `filter` over the board's cells (written there, or as the body of a
function called there) and the board fits a 64-bit word, the filter's cells go straight into
the word has_line tests (board_tables.line_bits), with their number: no list is made, so a
playout that asks for a line after every move allocates nothing for it. The filter's test is
rendered as a filter's is, in the same order, so the game is the same. Likewise `finish
winners [a, b]`: the seats' bits or'ed (-1, flagged, for a value that is no seat), no array.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, ListOf


def untag(node):
    return ast.untag(node)[0]


class WordsSource:
    """has_line over a filter of the board's cells, as one word (see the module)."""

    def word_call(self, node, scope):
        """has_line(filter over the board's cells, n) rendered over a word, else None."""
        if node.name != "has_line" or len(node.arguments) != 2 or not self.board_fits_word():
            return None
        cells = self.cells_word(untag(node.arguments[0]), scope)
        if cells is None:
            return None
        return f"has_line_word(BOARD_SHIFT, {cells}, {self.expr(node.arguments[1], scope, INT)})"

    def winners_word(self, winners, scope) -> str:
        """The winners' bit mask (the WINNERS slot) of a `finish winners` list."""
        listed = untag(winners)
        if isinstance(listed, ast.ListLiteral):
            return " | ".join(f"seat_bit({self.expr(p, scope, PLAYER)}, PLAYERS)" for p in listed.items) or "0"
        return f"winner_mask({self.expr(winners, scope, ListOf(PLAYER))})"

    def board_fits_word(self) -> bool:
        if not self.boards.grid:
            return False
        return self.boards.arrays()["BOARD_SHIFT"][0][0] >= 0

    def cells_word(self, node, scope):
        """The source of (word, count) of a filter's cells, or None when it is not one."""
        if isinstance(node, ast.Call) and node.name in self.functions and self.callee_suffix(node.name) == "":
            fn = self.functions[node.name]
            body = untag(fn.body)
            if not self.is_board_filter(body):
                return None
            made = self.__dict__.setdefault("word_functions", {})
            if node.name not in made:       # (once a function, at no depth of recursion, as functions are)
                outer, self.depth = self.depth, None
                inner = type(scope)({p.name: f"L_{p.name}" for p in fn.parameters})
                made[node.name] = self.word_function(f"word_fn_{node.name}", body, inner)
                self.depth = outer
            values = "".join(f", {self.expr(a, scope, self.type_of(a))}" for a in node.arguments)
            return f"{made[node.name]}(S, cur{values})"
        if self.is_board_filter(node):
            name = self.word_function(self.fresh("agg_word_"), node, scope)
            return f"{name}(S, cur{''.join(', ' + v for v in scope.names.values())})"
        return None

    def is_board_filter(self, node) -> bool:
        if not isinstance(node, ast.Aggregate) or node.kind != "filter" or node.value is not None:
            return False
        domain = untag(node.binder.domain)
        return isinstance(domain, ast.Name) and domain.id in self.boards.geometries and domain.id not in self.functions

    def word_function(self, name: str, node, scope) -> str:
        """A function of (word, count) of the cells of the filter `node`, its locals as arguments."""
        binder = node.binder
        var = self.fresh("x")
        first, size = self.boards.range_of(untag(binder.domain).id)
        inner = scope.child(**{binder.name: var})
        test = [f"    if not ({self.expr(binder.condition, inner, BOOL)}): continue"] if binder.condition is not None else []
        self.define(f"def {name}(S, cur{scope.params()}):",
                    ["word = np.uint64(0)", "n = 0", f"for {var} in range({first}, {first + size}):", *test,
                     f"    word |= BOARD_BIT[{var}]", "    n += 1", "return word, n"])
        return name
