"""The checks of what runs: functions, procedures, actions, triggers, invariants, the setup and
the flow (each body typed in the scope of its parameters and binders)."""
from __future__ import annotations

from .. import ast
from ..checker import Checker
from ..types import TEXT, UNKNOWN


def parameter_scope(c: Checker, parameters):
    for p in parameters:
        c.no_shadowing(p.name, p.span)
    types = {p.name: c.type_name(p.type) for p in parameters}
    c.local_types.update((p.span, types[p.name]) for p in parameters)
    return c.globals.child(**types)


def check_functions(c: Checker):
    for fn in c.functions.values():
        result = c.type_name(fn.result_type)
        given = c.expr(fn.body, parameter_scope(c, fn.parameters))
        c.fits(given, result, fn.body.span, f"'{fn.name}' says it gives {result.describe()}, but its body gives {given.describe()}")


def check_procedures(c: Checker):
    for proc in c.procedures.values():
        c.block(proc.body, parameter_scope(c, proc.parameters), "proc")


def check_actions(c: Checker):
    for action in c.actions.values():
        scope = c.globals
        for binder in action.binders:
            scope = c.binder(binder, scope)
            c.argument_types[action.name, binder.name] = scope.lookup(binder.name)
            c.no_map_option(scope.lookup(binder.name), binder.span, "a move's argument")
            if binder.reason:
                c.text_placeholders(binder.reason, scope, binder.span, "the reason of a refusal")
            if binder.outside:
                c.text_placeholders(binder.outside, scope, binder.span, "the reason of a refusal")
                element = scope.lookup(binder.name).without_none()
                if element.is_list() or element in (TEXT, UNKNOWN):
                    c.error("E414", f"'else' after the domain of '{binder.name}': a value outside it cannot be "
                                    f"typed for {element.describe()}", binder.span,
                            "a reason for a value outside the domain needs cells, components, players, an enum or numbers")
        c.block(action.body, scope, "action", guard_allowed=True)


def check_triggers(c: Checker):
    for trigger in c.program.of_kind(ast.Trigger):
        scope = c.binder(trigger.binder, c.globals) if trigger.binder else c.globals
        c.condition(trigger.condition, scope, "a trigger's 'when'")
        c.block(trigger.body, scope, "trigger")


def check_invariants(c: Checker):
    for invariant in c.program.of_kind(ast.Invariant):
        c.condition(invariant.condition, c.globals, "an invariant")


def check_setup_and_flow(c: Checker):
    if c.program.setup is not None:
        c.block(c.program.setup.body, c.globals, "setup")
    if c.program.flow is not None:
        c.block(c.program.flow.body, c.globals, "flow")


def check_binder_reasons(c: Checker):
    """`in D else "TEXT"` and `where COND else "TEXT"` say why a player's move is refused: only
    an action's binders are typed by players."""
    allowed = {id(b) for a in c.actions.values() for b in a.binders}
    for node in ast.walk(c.program.parts()):
        if isinstance(node, ast.Binder) and (node.reason is not None or node.outside is not None) and \
                id(node) not in allowed:
            where = "filter" if node.reason is not None else "domain"
            c.error("E414", f"'else' after the {where} of '{node.name}': only an action's binders have a reason "
                            f"for a refused move", node.span,
                    "remove the 'else \"...\"'; an action's binder or a 'require ... else' says why a move is refused")
