"""Where a comprehension over a fixed domain goes over rows of zone keys made once
(runtime/zone_rows.py): codegen.SourceGenerator asks a KeyRows for every zone key written inside
the comprehension (`key`), then for the loop's head (`iteration`)."""
from __future__ import annotations

import ast as python_ast
import re

from ..runtime.zone_rows import row_of_key_maker, rows_maker

# the indexes a key may hold besides the comprehension's variable: a rules local (a parameter,
# a let), an enclosing comprehension's variable, or a literal; each stays the same for the
# whole loop (an enclosing loop's variable changes only between two runs of this one)
INVARIANT = re.compile(r"L_\w+|a\d+_\w+")


def literal_value(source):
    """(value,) of an int or text literal's source, else None."""
    try:
        value = python_ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return None
    return (value,) if isinstance(value, (int, str)) and not isinstance(value, bool) else None


class KeyRows:
    """The zone keys of one comprehension over a fixed domain, and the rows that hold them."""

    def __init__(self, generator, var, values):
        self.generator = generator
        self.var = var                  # the comprehension's variable, as written in Python
        self.values = values            # the fixed domain it goes over
        self.templates = {}             # key source -> (its row variable, template)
        self.invariants = []            # the Python names of the invariant indexes, in order

    def key(self, name, sources):
        """The row variable that stands for zone key (name, *sources), or None when the key
        does not name the comprehension's variable or names something that changes inside it."""
        if self.var not in sources:
            return None
        template = []
        for source in sources:
            if source == self.var:
                template.append(("var", None))
            elif INVARIANT.fullmatch(source):
                if source not in self.invariants:
                    self.invariants.append(source)
                template.append(("invariant", self.invariants.index(source)))
            else:
                value = literal_value(source)
                if value is None:
                    return None
                template.append(("literal", value[0]))
        source = "(" + ", ".join([repr(name)] + sources) + ",)"
        known = self.templates.get(source)
        if known is None:
            self.generator.count += 1
            # (named like a comprehension variable: never hoisted out of the loop)
            known = self.templates[source] = (f"a{self.generator.count}_key", (name, tuple(template)))
        return known[0]

    def iteration(self, domain):
        """(loop target, iterable) of the comprehension: its variable over `domain` as it was,
        or with the rows of its keys."""
        if not self.templates:
            return self.var, domain
        names, found, make = self.tables()
        _, _, key, arguments = self.made
        return ", ".join([self.var] + names), f"({found}.get({key}) or {make}({arguments}))"

    def tables(self):
        """(the row variables, the name of the table of rows made, the name of the function
        that makes them): the rows already made found without a call; the others made (and
        kept) by one, from the invariant indexes' values."""
        names = [row for row, _ in self.templates.values()]
        templates = tuple(template for _, template in self.templates.values())
        table = {}
        single = len(self.invariants) == 1
        rows = rows_maker(table, self.values, templates, single)
        found = self.generator.bind(table, "rows")
        make = self.generator.bind(rows, "make_rows")
        arguments = ", ".join(self.invariants)
        key = arguments if single else f"({arguments}{',' if arguments else ''})"
        self.made = (rows, table, key, arguments)
        return names, found, make

    def rows_of_keys(self):
        """After `iteration`: the source of {zone key: the row that reads it} for the invariant
        indexes' values (what a change of that key may change: maintained.py), made once per
        value like the rows."""
        rows, table, key, arguments = self.made
        by_key = {}
        make = row_of_key_maker(by_key, table, rows, len(self.invariants) == 1)
        known = self.generator.bind(by_key, "row_of_key")
        maker = self.generator.bind(make, "make_row_of_key")
        return f"({known}.get({key}) or {maker}({arguments}))"
