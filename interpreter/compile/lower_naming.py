"""The functions that name a move, built as ir.Functions: name_<action>(s, a0, ...) makes a
move's full name from its action's template, label_<action>_<k>(s, a0, ...) the text of the
template's k-th {expression} (kept for the text the others see of a move)."""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import PLAYER, ListOf

from ..runtime.values import EMPTY_VALUE, GAP_CLOSINGS, plain_label
from . import ir
from .codegen import Context
from .lower_statements import STATE

TEXT = ir.Local("t")


def identifier(name: str) -> str:
    """A name of the rules as part of a Python name: what is not a letter, a digit or '_' as '_'."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def gaps_closed(text: ir.Expression) -> tuple:
    """The statements that return a text without the gaps its empty values leave ('take  now'
    would show one): str methods alone, so a compiled module needs no function of the engine."""
    found = ir.Compare("in", ir.Constant(EMPTY_VALUE), TEXT)
    closings = tuple(ir.Assign(TEXT.name, ir.Method(TEXT, "replace", (ir.Constant(gap), ir.Constant(closed))))
                     for gap, closed in GAP_CLOSINGS)
    return ir.Assign(TEXT.name, text), ir.If(found, closings), ir.Return(TEXT)


def or_empty(text: ir.Expression) -> ir.Expression:
    """A value's text, or EMPTY_VALUE where it reads as nothing (its gap closed afterwards)."""
    return ir.BoolOp("or", (text, ir.Constant(EMPTY_VALUE)))


class MoveNaming:
    """Move names as IR: a mixin of the Compiler (compiler.py)."""

    def move_namer(self, action, parts, tail):
        """(name_<action>, [(node, label function, the names it reads)] of its {expressions}):
        `parts` are (literal text, what follows: an argument's position, an {expression}'s
        node or None) of the action's template, `tail` the text after the last."""
        arguments = tuple(ir.Local(f"a{k}") for k in range(len(action.binders)))
        params = ("s",) + tuple(a.name for a in arguments)
        name = identifier(action.name)
        pieces, labels = [], []
        may_be_empty = False      # a value that may read as nothing: its gap is closed
        for literal, position in parts:
            if literal:
                pieces.append(ir.Constant(literal))
            if position is None:
                continue
            if not isinstance(position, int):
                value, label = self.label_function(action, position, f"label_{name}_{len(labels)}", params)
                labels.append((position, label, {n.id for n in ast.walk(position) if isinstance(n, ast.Name)}))
                pieces.append(or_empty(value))
                may_be_empty = True
                continue
            value, t = arguments[position], action.binders[position][3]
            if t == PLAYER:
                pieces.append(ir.ArgumentText(value, "seat"))
            elif self.is_entity(t):
                pieces.append(ir.ArgumentText(value, "label"))
            elif isinstance(t, ListOf):
                pieces.append(or_empty(ir.Call(self.codegen.bind(self.game.labeler(t)), (STATE, value))))
                may_be_empty = True
            else:
                pieces.append(or_empty(ir.Call(self.codegen.bind(plain_label), (value,))))
                may_be_empty = True
        if tail:
            pieces.append(ir.Constant(tail))
        text = ir.JoinedText(tuple(pieces))
        body = gaps_closed(text) if may_be_empty else (ir.Return(text),)
        return self.define(ir.Function(f"name_{name}", params, body)), labels

    def label_function(self, action, node, name, params):
        """(the text of a label's {expression} as IR, the function `name` that makes it)."""
        scope = self.types.globals.child(**{b[0]: b[3] for b in action.binders})
        ctx = Context("local", {b[0]: f"a{k}" for k, b in enumerate(action.binders)})
        value = self.value(node, scope, ctx)
        text = ir.Call(self.codegen.bind(self.game.labeler(self.type_value(node, scope))), (STATE, value))
        return text, self.define(ir.Function(name, params, (ir.Return(text),)))
