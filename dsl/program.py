"""Files -> one normalised program: parse, follow `extends`, apply overrides, index the names.

`load_program` returns (program or None, diagnostics, sources). It never raises on bad input.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import attrs

from . import ast
from .diagnostics import Diagnostic, did_you_mean
from .parser import parse

DECLARATION_KINDS = {
    ast.Game: "game", ast.Option: "option", ast.Param: "param", ast.Enum: "enum",
    ast.Component: "component", ast.Zone: "zone", ast.Var: "var", ast.Board: "board",
    ast.Function: "fn", ast.Procedure: "proc", ast.Action: "action", ast.Trigger: "trigger", ast.Invariant: "invariant",
    ast.Setup: "setup", ast.Flow: "flow",
}
SINGLE_SECTIONS = {"game", "setup", "flow"}


def declaration_name(decl) -> str:
    kind = DECLARATION_KINDS[type(decl)]
    return kind if kind in SINGLE_SECTIONS else decl.name


@attrs.define
class Declared:
    """A declaration with the rule tag that annotates it."""
    node: object
    tag: Optional[ast.Tagged]


@attrs.define
class Program:
    path: str
    game: Optional[ast.Game] = None
    declarations: dict = attrs.Factory(dict)     # name -> Declared, in file order
    setup: Optional[ast.Setup] = None
    flow: Optional[ast.Flow] = None
    files: list = attrs.Factory(list)            # every file read, base first
    section_tags: dict = attrs.Factory(dict)     # "game"/"setup"/"flow" -> the tag on it, if any

    def of_kind(self, cls):
        return [d.node for d in self.declarations.values() if isinstance(d.node, cls)]

    def get(self, name):
        declared = self.declarations.get(name)
        return declared.node if declared else None

    def tags(self):
        """Every rule tag in the program, in order: (rule id, text, span)."""
        found = []

        def walk(value):
            found.extend((n.rule_id[1:], n.text, n.span) for n in ast.walk(value) if isinstance(n, ast.Tagged))

        for declared in self.declarations.values():
            if declared.tag is not None:
                walk(declared.tag)
            else:
                walk(declared.node)
        for kind in ("game", "setup", "flow"):
            section = getattr(self, kind)
            if section is not None:
                walk(self.section_tags.get(kind) or section)
        return found


def load_program(path: str, sources: Optional[dict] = None, _seen=None):
    """Read a rules file (and the files it extends)."""
    sources = {} if sources is None else sources
    seen = set() if _seen is None else _seen
    file = str(path)
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        span = ast.Span(file, 0, 0, 0, 0)
        return None, [Diagnostic("E501", f"cannot read the rules file: {error.strerror if isinstance(error, OSError) else error}", span)], sources
    sources[file] = text
    module, errors = parse(text, file)
    if errors:
        return None, errors, sources
    return build_program(module, file, sources, seen | {str(Path(file).resolve())})


def build_program(module: ast.Module, file: str, sources: dict, seen=frozenset()):
    diagnostics: list[Diagnostic] = []
    items = list(module.items)
    program = Program(path=file)
    base_given = False
    for position, item in enumerate(items):
        inner, tag = ast.untag(item)
        if isinstance(inner, ast.Extends):
            if position != 0 or base_given:
                diagnostics.append(Diagnostic("E403", "'extends' must be the first line of a file", inner.span))
                continue
            base_given = True
            base_path = Path(file).parent / inner.path
            if str(base_path.resolve()) in seen:
                diagnostics.append(Diagnostic("E404", f"'{inner.path}' extends itself in a cycle", inner.span))
                # without its base, every override of the file would be reported too: stop here
                return None, diagnostics, sources
            if not base_path.exists():
                diagnostics.append(Diagnostic("E501", f"cannot find the base file '{inner.path}'", inner.span,
                                              hint=f"the path is relative to {Path(file).parent}/"))
                return None, diagnostics, sources
            base, base_errors, _ = load_program(str(base_path), sources, set(seen))
            diagnostics.extend(base_errors)
            if base is None:
                return None, diagnostics, sources
            program.game, program.setup, program.flow = base.game, base.setup, base.flow
            program.declarations = dict(base.declarations)
            program.section_tags = dict(base.section_tags)
            program.files = list(base.files)
    program.files.append(file)
    own = set()
    for item in items:
        inner, tag = ast.untag(item)
        if isinstance(inner, ast.Extends):
            continue
        overriding = isinstance(inner, ast.Override)
        if overriding:
            inner, inner_tag = ast.untag(inner.declaration)
            tag = inner_tag or tag
            if type(inner) not in DECLARATION_KINDS:
                what = "extends" if isinstance(inner, ast.Extends) else "override"
                diagnostics.append(Diagnostic(
                    "E406", f"'override' replaces a declaration, it cannot apply to '{what}'", inner.span))
                continue
        name = declaration_name(inner)
        kind = DECLARATION_KINDS[type(inner)]
        existing = program.get(name) if kind not in SINGLE_SECTIONS else getattr(program, kind)
        if overriding:
            if existing is None:
                names = list(program.declarations)
                diagnostics.append(Diagnostic(
                    "E405", f"'override' names '{name}', which the base file does not declare",
                    inner.span, hint=did_you_mean(name, names)))
                continue
            if kind not in SINGLE_SECTIONS and type(existing) is not type(inner):
                diagnostics.append(Diagnostic(
                    "E406", f"'{name}' is a {DECLARATION_KINDS[type(existing)]} in the base file, not a {kind}",
                    inner.span))
                continue
        elif existing is not None:
            where = "in the base file" if name not in own else "already"
            diagnostics.append(Diagnostic(
                "E201", f"'{name}' is declared {where}", inner.span,
                hint=f"write 'override {kind} {name} ...' to replace it" if name not in own else None))
            continue
        own.add(name)
        if kind in SINGLE_SECTIONS:
            program.section_tags[kind] = tag
        if kind == "game":
            program.game = inner
        elif kind == "setup":
            program.setup = inner
        elif kind == "flow":
            program.flow = inner
        else:
            program.declarations[name] = Declared(inner, tag)
    return program, diagnostics, sources
