"""The checks of moves' names: the labels of actions and components, their placeholders and
{expressions}, and where in the source each stands."""
from __future__ import annotations

from .. import ast
from ..checker import Checker
from ..diagnostics import did_you_mean
from ..parser import parse_expression
from ..templates import Template, parse_template
from ..types import UNKNOWN, named_type


def check_labels(c: Checker):
    """A move's name is its action's label filled in: a placeholder must name an argument, and
    an argument left out of the label must not tell two moves apart (two moves with one name
    would be merged into one). Only arguments drawn from components may be left out: identical
    components make one move, and the engine refuses two different ones with the same name."""
    for action in c.actions.values():
        names = [b.name for b in action.binders]
        for placeholder in template_of(c, action.public_template or "").placeholders:
            inside = placeholder.inside
            if inside not in names:
                c.error("E410", f"the public text of action '{action.name}' shows '{{{inside}}}', which is not one of its arguments",
                        action.span, did_you_mean(inside, names) or (f"its arguments are {', '.join(names)}" if names else
                                                                    "this action has no arguments to show"))
        if action.template is None:
            continue          # the default name shows every argument
        if action.template and not action.template.strip():
            c.error("E416", f"the label of action '{action.name}' is blank: its moves would have no name to type",
                    label_span(c, action), f'give it words, e.g. "{action.name}", or leave the label out')
            continue
        names = [b.name for b in action.binders]
        template = action.template
        shown, wrong = set(), False
        for placeholder, span in placeholders(c, action, template):
            inside = placeholder.inside
            if inside in names:
                shown.add(inside)
                continue
            if placeholder.named:
                wrong = True
                c.error("E410", f"the label of action '{action.name}' shows '{{{inside}}}', which is not one of its arguments",
                        span, did_you_mean(inside, names) or (f"its arguments are {', '.join(names)}" if names else
                                                             "this action has no arguments to show"))
                continue
            node, mentioned = label_expression(c, action, inside, span)
            wrong = wrong or node is None
            shown |= mentioned & set(names)
        for binder in action.binders:
            if binder.name in shown:
                continue
            if named_type(c.argument_types.get((action.name, binder.name), UNKNOWN)) in c.components:
                continue
            start = template.strip() if template.strip() and not wrong else action.name
            example = f'"{start} {{{binder.name}}}"'
            c.error("E412", f"the label of action '{action.name}' does not show its argument '{binder.name}': "
                            f"two moves that differ only in '{binder.name}' would have the same name and be merged into one",
                    label_span(c, action), f"show it, e.g. {example}")
    for component in c.components.values():
        if not component.label:
            continue
        fields = [f.name for f in component.fields] + ["owner"]
        for placeholder in template_of(c, component.label).placeholders:
            if placeholder.inside not in fields:
                c.error("E410", f"the label of component '{component.name}' shows '{placeholder.written}', which is not one of its attributes",
                        text_span(c, component.span, placeholder.written),
                        did_you_mean(placeholder.inside, fields) or f"its attributes are {', '.join(fields)}")


def check_labels_of_a_play(c: Checker):
    """Two actions offered by one `play` with the same label and no placeholder make moves of
    one name: a player could not tell them apart, and naming one would always play the other.
    (Labels with placeholders may differ by their values: `"{c}"` for two kinds of card.)"""
    for play in (n for n in ast.walk(c.program.parts()) if isinstance(n, (ast.Play, ast.PlayBy))):
        seen = {}
        for name in play.actions:
            action = c.actions.get(name)
            if action is None or (action.binders and not action.template) or template_of(c, action.template or "").placeholders:
                continue
            if action.template and not action.template.strip():
                continue          # blank: E416 says so
            # the name a player types, in any case and spacing (without a label: the action's name)
            text = " ".join((action.template or action.name).lower().split())
            if text in seen and seen[text] != name:
                c.error("E415", f"'{seen[text]}' and '{name}' both make the move '{text}' in this play: "
                                f"a player could not tell them apart", play.span,
                        "give each action a label of its own")
            seen.setdefault(text, name)


def template_of(c: Checker, text: str) -> Template:
    """A label parsed once, kept for the checker's consumers."""
    found = c.templates.get(text)
    if found is None:
        found = c.templates[text] = parse_template(text)
    return found


def text_span(c: Checker, span, fragment) -> ast.Span:
    """The span of the first `fragment` at or after `span` on its line (`span` without the source)."""
    text = c.sources.get(span.file)
    start = source_offset(text, span)
    if start is None:
        return span
    where, end = text.find(fragment, start), text.find("\n", start)
    if where == -1 or (end != -1 and where > end):
        return span
    return offset_span(span.file, text, where, len(fragment))


def source_offset(text, span):
    if text is None:
        return None
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return None
    return sum(len(line) + 1 for line in lines[:span.line - 1]) + span.column - 1


def label_span(c: Checker, action) -> ast.Span:
    """Where an action's label string starts (the action itself without the source text)."""
    found = label_offset(c, action)
    if found is None:
        return action.span
    text, offset = found
    return offset_span(action.span.file, text, offset, 1)


def label_expression(c: Checker, action, inside, span):
    """A label's {expression}: of the action's arguments only (a move's name never changes
    while it is legal, and is known without the state): no variable, zone, `current` or
    function of the rules, no attribute that statements change. (The node, kept in
    c.label_expressions, or None after an error; the names it mentions.)"""
    node = parse_expression(inside, span)
    if node is None:
        c.error("E411", f"'{{{inside}}}' in the label of action '{action.name}' is neither an argument nor an expression",
                span, "show an argument as {name}, or a value computed from the arguments, e.g. {to.row - from.row}")
        return None, set()
    mentioned = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    changed = c.changed_attributes
    for n in ast.walk(node):
        read = None
        if isinstance(n, ast.Name) and (n.id in c.vars or n.id in c.zones or n.id == "current"
                                        or n.id in c.components):
            read = f"'{n.id}'"
        elif isinstance(n, ast.Call) and (n.name in c.functions or n.name in ("pick", "can_play")):
            read = f"'{n.name}(...)'"
        elif isinstance(n, ast.Attribute) and n.name in changed:
            read = f"the attribute '{n.name}', which statements change"
        elif isinstance(n, ast.After):
            read = "'after'"
        if read is not None:
            c.error("E413", f"the label of action '{action.name}' reads {read} in '{{{inside}}}': "
                            f"a label computes from the action's arguments only", span,
                    "make the value an argument of the action (e.g. 'd in ... where d == ...') and show that")
            return None, mentioned
    scope = c.globals.child(**{b.name: c.argument_types.get((action.name, b.name), UNKNOWN) for b in action.binders})
    before = len(c.diagnostics)
    c.expr(node, scope)
    if len(c.diagnostics) > before:
        return None, mentioned
    c.label_expressions[(action.name, inside)] = node
    return node, mentioned


def placeholders(c: Checker, action, template):
    """Each {...} of a label with the span of it in the source (the label's span when the
    string holds escapes that make the offsets differ)."""
    found = label_offset(c, action)
    for placeholder in template_of(c, template).placeholders:
        span = action.span
        if found is not None:
            text, offset = found
            where = text.find(placeholder.written, offset)
            end = text.find("\n", offset)
            if where != -1 and (end == -1 or where < end):
                span = offset_span(action.span.file, text, where, len(placeholder.written))
            else:
                span = offset_span(action.span.file, text, offset, 1)
        yield placeholder, span


def label_offset(c: Checker, action):
    """(source text, offset of the label's opening quote), found after the action's name and
    arguments; None without the source or a label."""
    text = c.sources.get(action.span.file)
    position = source_offset(text, action.span)
    if position is None or not action.template:
        return None
    depth, quoted = 0, False
    for i in range(position, min(len(text), position + 20_000)):
        ch = text[i]
        if quoted:
            if ch == "\\":
                continue
            if ch == '"' and text[i - 1] != "\\":
                quoted = False
        elif ch == '"':
            if depth == 0:
                return text, i
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "{" and depth == 0:
            return None          # the body starts: no label
    return None


def offset_span(file, text, offset, length) -> ast.Span:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return ast.Span(file, line, column, line, column + length)
