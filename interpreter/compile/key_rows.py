"""Where a comprehension over a fixed domain goes over rows of zone keys made once
(runtime/zone_rows.py): codegen.SourceGenerator asks a KeyRows for every zone key written inside
the comprehension (`key_of`), then for the loop's head (`iteration`)."""
from __future__ import annotations

from ..runtime.zone_rows import row_of_key_maker, rows_maker
from . import ir
from .expression_facts import is_comprehension_variable, literal_of
from .generated_names import RowKey, RulesLocal
from .render_python import expression as rendered

class KeyRows:
    """The zone keys of one comprehension over a fixed domain, and the rows that hold them."""

    def __init__(self, generator, var, values):
        self.generator = generator
        self.var = var                  # the comprehension's variable, as written in Python
        self.values = values            # the fixed domain it goes over
        self.templates = {}             # key source -> (its row variable, template)
        self.invariants = []            # the Python names of the invariant indexes, in order

    def key_of(self, name, values):
        """The row variable that stands for zone key (name, *values), or None when the key does
        not name the comprehension's variable or names something that changes inside it: a
        local is the variable or an invariant (a rules local, an enclosing comprehension's
        variable: the same for the whole loop), a literal stays."""
        if ir.Local(self.var) not in values:
            return None
        template = []
        for value in values:
            literal = literal_of(value)
            if value == ir.Local(self.var):
                template.append(("var", None))
            elif isinstance(value, ir.Local) and (isinstance(value.name, RulesLocal) or is_comprehension_variable(value.name)):
                template.append(("invariant", self.invariant(value.name)))
            elif literal is not None:
                template.append(("literal", literal[0]))
            else:
                return None
        return self.row(rendered(ir.Key(name, tuple(values))), name, template)

    def invariant(self, name) -> int:
        """The place of an invariant index among the rows' arguments."""
        if name not in self.invariants:
            self.invariants.append(name)
        return self.invariants.index(name)

    def row(self, source, name, template):
        known = self.templates.get(source)
        if known is None:
            self.generator.count += 1
            # (named like a comprehension variable: never hoisted out of the loop)
            known = self.templates[source] = (RowKey(f"a{self.generator.count}_key"), (name, tuple(template)))
        return known[0]

    def iteration(self, domain):
        """(loop target, iterable) of the comprehension: its variable over `domain` as it was,
        or with the rows of its keys."""
        if not self.templates:
            return self.var, domain
        names, found, make = self.tables()
        invariants = tuple(ir.Local(name) for name in self.invariants)
        key = invariants[0] if len(invariants) == 1 else ir.RowKey(invariants)
        return ", ".join([self.var] + names), ir.Grouped(ir.BoolOp("or", (ir.Method(ir.Global(found), "get", (key,)),
                                                                           ir.Call(make, invariants))))

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
        self.made = (rows, table)
        return names, found, make

    def rows_of_keys(self):
        """After `iteration`: {zone key: the row that reads it} (IR) for the invariant
        indexes' values (what a change of that key may change: maintained.py), made once per
        value like the rows."""
        rows, table = self.made
        by_key = {}
        make = row_of_key_maker(by_key, table, rows, len(self.invariants) == 1)
        known = self.generator.bind(by_key, "row_of_key")
        maker = self.generator.bind(make, "make_row_of_key")
        invariants = tuple(ir.Local(name) for name in self.invariants)
        key = invariants[0] if len(invariants) == 1 else ir.RowKey(invariants)
        return ir.Grouped(ir.BoolOp("or", (ir.Method(ir.Global(known), "get", (key,)), ir.Call(maker, invariants))))
