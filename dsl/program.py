"""Files -> one normalised program: parse, follow `extends`, apply overrides, index the names.

`load_program` returns (program or None, diagnostics, sources). It never raises on bad input.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional

import attrs

from . import ast
from .diagnostics import Diagnostic, did_you_mean
from .limits import MAX_EXTENDS, MAX_FILE_BYTES
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
    modules: dict = attrs.Factory(dict)          # file -> its syntax tree as parsed (for editors)

    def parts(self) -> tuple:
        """Every declaration, the setup and the flow: what a walk over the rules goes through."""
        return tuple(d.node for d in self.declarations.values()) + tuple(
            part for part in (self.setup, self.flow) if part is not None)

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


class Unreadable(Exception):
    """Why a file is not read: `kind` is 'missing', 'unreadable', 'not regular' or 'too large'."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind, self.reason = kind, reason


def read_regular_file(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or Unreadable: never a device, a
    FIFO or a directory (which could block, never end or mean nothing)."""
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, open does not wait
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError as error:
        raise Unreadable("missing", error.strerror) from None
    except (OSError, ValueError) as error:      # ValueError: a NUL in the path
        raise Unreadable("unreadable", error.strerror if isinstance(error, OSError) else "not a file name") from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        raise Unreadable("not regular", "a directory" if stat.S_ISDIR(kind) else "not a regular file")
    with os.fdopen(fd, "rb") as handle:     # (a directory cannot be opened as a file object)
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise Unreadable("unreadable", error.strerror) from None
    if len(data) > limit:
        raise Unreadable("too large", f"larger than {limit} bytes")
    return data


def refusal(file: str, error: Unreadable) -> Diagnostic:
    """Why a rules file is not read, as a diagnostic of the file (at no line)."""
    nowhere = ast.Span(file, 0, 0, 0, 0)
    if error.kind in ("not regular", "too large"):
        return Diagnostic("E502", f"cannot read the rules file: {error.reason}", nowhere,
                          hint="a rules file is a text file (see the limits in docs/language.md)")
    return Diagnostic("E501", f"cannot read the rules file: {error.reason}", nowhere)


def read_source(file: str):
    """(text, None) or (None or the text, Diagnostic) for a rules file: a regular file of at
    most MAX_FILE_BYTES bytes, as UTF-8 with or without a byte order mark. Text that is not
    UTF-8 is reported at its line and column, and given back decoded with replacement
    characters so that the diagnostic can show its line."""
    try:
        data = read_regular_file(file, MAX_FILE_BYTES)
    except Unreadable as error:
        return None, refusal(file, error)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        column = len(data[start:error.start].decode("utf-8")) + 1
        span = ast.Span(file, line, column, line, column + 1)
        return data.decode("utf-8", errors="replace"), Diagnostic(
            "E503", f"the rules file is not UTF-8 text (byte 0x{data[error.start]:02x})", span,
            hint="save the file as UTF-8")


def buffered_source(file: str, texts: Optional[dict]):
    """read_source, but the text an editor holds for the file (`texts`: real path -> text, the
    buffers not saved yet) when it holds one, refused beyond the same size limit."""
    if "\0" in file:      # no file has this name (and realpath would raise): read_source says so
        return read_source(file)
    text = (texts or {}).get(os.path.realpath(file))
    if text is None:
        return read_source(file)
    if len(text.encode("utf-8", errors="surrogatepass")) > MAX_FILE_BYTES:
        return None, refusal(file, Unreadable("too large", f"larger than {MAX_FILE_BYTES} bytes"))
    return text, None


def load_program(path: str, sources: Optional[dict] = None, _seen=None, texts: Optional[dict] = None):
    """Read a rules file (and the files it extends); `texts` (real path -> text) stands for
    files whose text is not the one on disk (an editor's unsaved buffers)."""
    sources = {} if sources is None else sources
    seen = set() if _seen is None else _seen
    file = str(path)
    text, error = buffered_source(file, texts)
    if text is not None:
        sources[file] = text
    if error is not None:
        return None, [error], sources
    module, errors = parse(text, file)
    if errors:
        return None, errors, sources
    return build_program(module, file, sources, seen | {os.path.realpath(file)}, texts)


def base_problem(name: str) -> Optional[str]:
    """Why the path of an `extends` is refused, or None: it names a rules file relative to the
    extending file, never any file of the machine."""
    if not name or any(ord(c) < 32 or c == "\x7f" for c in name):
        return "the path of a base file must be a file name, without control characters"
    if os.path.isabs(name) or name.startswith(("~", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "the path of a base file must be relative to the extending file"
    if not name.endswith(".rules"):
        return "a base file is a rules file: its name must end with '.rules'"
    return None


def build_program(module: ast.Module, file: str, sources: dict, seen=frozenset(), texts: Optional[dict] = None):
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
            # without its base, every override of the file would be reported too: stop at a
            # base that cannot be used
            problem = base_problem(inner.path)
            if problem is not None:
                diagnostics.append(Diagnostic("E504", problem, inner.span,
                                              hint=f"write the path from {Path(file).parent}/ to a .rules file"))
                return None, diagnostics, sources
            base_path = Path(file).parent / inner.path
            if os.path.realpath(base_path) in seen:
                diagnostics.append(Diagnostic("E404", f"'{inner.path}' extends itself in a cycle", inner.span))
                return None, diagnostics, sources
            if len(seen) >= MAX_EXTENDS:
                diagnostics.append(Diagnostic("E505", f"more than {MAX_EXTENDS} files extend one another",
                                              inner.span, hint="see the limits in docs/language.md"))
                return None, diagnostics, sources
            # (a symbolic link that loops exists; an editor's buffer may not be saved yet)
            if not os.path.lexists(base_path) and os.path.realpath(base_path) not in (texts or {}):
                diagnostics.append(Diagnostic("E501", f"cannot find the base file '{inner.path}'", inner.span,
                                              hint=f"the path is relative to {Path(file).parent}/"))
                return None, diagnostics, sources
            base, base_errors, _ = load_program(str(base_path), sources, set(seen), texts)
            if base_errors and base_errors[0].span.line == 0:
                # the base file itself cannot be read: say so at the 'extends' that names it
                first = base_errors[0]
                base_errors = [attrs.evolve(first, message=f"{first.message} ('{inner.path}')", span=inner.span)]
            diagnostics.extend(base_errors)
            if base is None:
                return None, diagnostics, sources
            program.game, program.setup, program.flow = base.game, base.setup, base.flow
            program.declarations = dict(base.declarations)
            program.section_tags = dict(base.section_tags)
            program.files = list(base.files)
            program.modules = dict(base.modules)
    program.files.append(file)
    program.modules[file] = module
    own = set()
    for item in items:
        inner, _ = ast.untag(item)
        tag = item if isinstance(item, ast.Tagged) else None     # the outermost: every tag is under it
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
