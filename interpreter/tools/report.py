"""A report is lines and tables: values the tools (analyze, coverage, tournament) return and
the terminal (cli/console.py) prints in colour or plain."""
from __future__ import annotations

import attrs


def cells(row) -> tuple:
    return tuple(str(cell) for cell in row)


@attrs.frozen
class Table:
    """Columns of text two spaces apart under `indent`: the first column left-aligned, the
    others right-aligned, unless `align` gives 'left' or 'right' per column."""
    header: tuple = attrs.field(converter=cells)
    rows: tuple = attrs.field(converter=lambda rows: tuple(cells(row) for row in rows))
    indent: str = ""
    align: tuple = ()

    def alignments(self) -> tuple:
        return self.align or ("left", *("right",) * (len(self.header) - 1))

    def lines(self) -> list:
        rows = [self.header, *self.rows]
        widths = [max(len(row[i]) for row in rows) for i in range(len(self.header))]
        return [(self.indent + "  ".join(cell.ljust(w) if how == "left" else cell.rjust(w)
                                         for cell, w, how in zip(row, widths, self.alignments()))).rstrip()
                for row in rows]


def plain_lines(items) -> list:
    """A report's lines and tables as text lines."""
    lines = []
    for item in items:
        if isinstance(item, Table):
            lines.extend(item.lines())
        else:
            lines.append(item)
    return lines
