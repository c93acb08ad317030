"""`referee lsp`: a language server for .rules files (diagnostics, hover, definition,
references, completion, document symbols, rename), over stdio.

`analyse` gives the diagnostics `referee check` gives and the index of the names of the file
and of the files it extends (dsl/names.py: the language logic, pure functions); `Documents`
keeps the editor's open documents analysed together; `make_server` wraps them in a pygls
server, imported only then: the rest needs no pygls. Positions are the parser's (1-based, in
characters) until the server converts them to the editor's (0-based, in its units).
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from typing import Optional

import attrs

from referee.dsl import ast
from referee.dsl.diagnostics import source_lines
from referee.dsl.names import (Index, Tokens, completions, definitions, document_symbols, hover_text, index_of, place,
                       real, rename_edits)

from ..engine.load import load_game


# ---- analysing a document ----------------------------------------------------------------

@attrs.define
class Analysis:
    path: str
    diagnostics: list            # those of `referee check`
    sources: dict                # every file read -> its text
    index: Optional[Index]       # None when the file does not parse

    def reads(self, file: str) -> bool:
        return real(file) in {real(f) for f in self.sources}


def analyse(path: str, texts: Optional[dict] = None) -> Analysis:
    """Check a rules file as `referee check` does (the same diagnostics) and index its names.
    `texts`: real path -> the text to use instead of the file's (an editor's buffers)."""
    index, read = index_of(path, texts)
    # the index's check is the one load_game would make (its program read the same way)
    _, diagnostics, sources = load_game(path, texts=texts, checked=index.checked if index and index.complete else None)
    return Analysis(path, diagnostics, read or sources, index)


@attrs.frozen
class EditorDiagnostic:
    """A diagnostic where an editor shows it: in the document (1-based, end exclusive)."""
    span: ast.Span
    severity: str
    code: str
    message: str
    elsewhere: Optional[ast.Span] = None     # where it really is, when in a base file


def editor_diagnostics(analysis: Analysis) -> list:
    """The diagnostics of the document itself; one in a base file is shown on the `extends`
    line, saying where it is. The hint follows the message ('help: ...', as check prints it)."""
    own = real(analysis.path)
    module = analysis.index.modules.get(own) if analysis.index is not None else None
    extends = next((item.span for item in (module.items if module else ()) if isinstance(ast.untag(item)[0], ast.Extends)),
                   None)
    found = []
    for diagnostic in analysis.diagnostics:
        span = diagnostic.span
        message = diagnostic.message + (f"\nhelp: {diagnostic.hint}" if diagnostic.hint else "")
        elsewhere = None
        if real(span.file) != own:
            elsewhere = span
            where = os.path.relpath(span.file, os.path.dirname(own)) if span.line else span.file
            message = f"in {where}:{span.line}:{span.column}: {message}"
            span = extends or ast.Span(analysis.path, 1, 1, 1, 1)
        if span.line < 1:                       # about the whole file
            span = ast.Span(analysis.path, 1, 1, 1, 1)
        found.append(EditorDiagnostic(span, diagnostic.severity, diagnostic.code, message, elsewhere))
    return found


# ---- the open documents ------------------------------------------------------------------

class Documents:
    """The documents an editor has open (uri -> path and text), each analysed with the texts
    of all of them: a change re-analyses the document and every open document that reads it
    (a file that extends it). The last index of a document is kept while its text does not
    parse, so that hover and completion still work as one types."""

    def __init__(self):
        self.open = {}            # uri -> (path, text)
        self.analyses = {}        # uri -> Analysis
        self.indexes = {}         # uri -> the last Index of it

    def buffers(self) -> dict:
        return {real(path): text for path, text in self.open.values()}

    def update(self, uri: str, path: str, text: str) -> list:
        """A document opened or changed: the uris analysed again (itself first)."""
        self.edit(uri, path, text)
        return self.refresh(uri, path)

    def edit(self, uri: str, path: str, text: str):
        """A document's new text, to be analysed later (update)."""
        self.open[uri] = (path, text)

    def close(self, uri: str) -> list:
        path, _ = self.open.pop(uri)
        self.analyses.pop(uri, None)
        self.indexes.pop(uri, None)
        return self.refresh(None, path)

    def refresh(self, uri, path) -> list:
        buffers = self.buffers()
        changed = [uri] if uri is not None else []
        changed += [other for other, analysis in self.analyses.items() if other != uri and analysis.reads(path)]
        for each in changed:
            analysis = analyse(self.open[each][0], buffers)
            self.analyses[each] = analysis
            if analysis.index is not None:
                self.indexes[each] = analysis.index
        return changed

    def index(self, uri: str) -> Optional[Index]:
        return self.indexes.get(uri)

    def source(self, file: str) -> Optional[str]:
        """The text of a file as analysed (an open buffer, or a base file as it was read)."""
        buffered = self.buffers().get(real(file))
        if buffered is not None:
            return buffered
        for analysis in self.analyses.values():
            for read, text in analysis.sources.items():
                if real(read) == real(file):
                    return text
        return None

    def references(self, uri: str, line: int, column: int, with_declarations=True) -> list:
        """references(), and the same name's occurrences in the open documents that read this
        one (the files that extend it), each place once."""
        index = self.index(uri)
        occurrence = index.occurrence_at(self.open[uri][0], line, column) if index else None
        if occurrence is None:
            return []
        found = {}
        for other in [index, *(self.indexes[u] for u in self.indexes if u != uri)]:
            if other is not index and real(self.open[uri][0]) not in other.tokens:
                continue
            for o in other.uses(occurrence.key):
                if with_declarations or not o.declares:
                    found.setdefault(place(o.span), o.span)
        return list(found.values())


# ---- the server (pygls) ------------------------------------------------------------------

PAUSE_SECONDS = 0.15      # how long typing pauses before a changed document is analysed again


class MissingServerLibrary(Exception):
    """pygls (the `lsp` extra) is not installed."""


SYMBOL_KINDS = {"game": "Module", "option": "Boolean", "param": "Constant", "enum": "Enum",
                "component": "Class", "zone": "Array", "var": "Variable", "board": "Struct",
                "fn": "Function", "proc": "Function", "action": "Method", "trigger": "Event",
                "invariant": "Boolean", "setup": "Namespace", "flow": "Namespace",
                "enum member": "EnumMember", "attribute": "Field"}
ITEM_KINDS = {"fn": "Function", "proc": "Function", "action": "Method", "var": "Variable", "zone": "Variable",
              "param": "Constant", "option": "Constant", "enum": "Enum", "component": "Class", "board": "Struct",
              "trigger": "Event", "invariant": "Event", "enum member": "EnumMember", "attribute": "Field",
              "local": "Variable", "parameter": "Variable", "player": "Variable", "built-in": "Constant",
              "built-in function": "Function", "built-in type": "TypeParameter", "keyword": "Keyword"}


def make_server(version: str = "unknown"):
    """The pygls server (of that version, as it tells the editor); MissingServerLibrary
    without pygls."""
    try:
        from lsprotocol import types as lsp
        from pygls import uris
        from pygls.exceptions import JsonRpcInvalidParams
        from pygls.server import LanguageServer
    except ImportError as error:
        raise MissingServerLibrary(str(error)) from None

    server = LanguageServer("referee", version)
    documents = Documents()

    def lines_of(file):
        return source_lines(documents.source(file) or "") or [""]

    def codec():
        return server.workspace.position_codec

    def position(file, line, column):
        """A parser position (1-based) as the editor's (0-based, its units)."""
        return codec().position_to_client_units(lines_of(file), lsp.Position(max(line - 1, 0), max(column - 1, 0)))

    def to_range(span):
        return lsp.Range(position(span.file, span.line, span.column), position(span.file, span.end_line, span.end_column))

    def uri_of(file):
        opened = [uri for uri, (path, _) in documents.open.items() if real(path) == real(file)]
        return opened[0] if opened else uris.from_fs_path(real(file))

    def location(span):
        return lsp.Location(uri_of(span.file), to_range(span))

    def asked(params):
        """(uri, file, line, column) of a request about a position in a document."""
        uri = params.text_document.uri
        if uri not in documents.open:
            return uri, None, 0, 0
        file = documents.open[uri][0]
        at = codec().position_from_client_units(lines_of(file), params.position)
        return uri, file, at.line + 1, at.character + 1

    def publish(uris_):
        for uri in uris_:
            analysis = documents.analyses[uri]
            server.publish_diagnostics(uri, [
                lsp.Diagnostic(
                    range=to_range(d.span), message=d.message, code=d.code, source="referee",
                    severity=lsp.DiagnosticSeverity.Warning if d.severity == "warning" else lsp.DiagnosticSeverity.Error,
                    related_information=[lsp.DiagnosticRelatedInformation(location(d.elsewhere), "here")]
                    if d.elsewhere is not None and d.elsewhere.line else None)
                for d in editor_diagnostics(analysis)])

    def path_of(uri):
        return uris.to_fs_path(uri) or uri.rsplit("/", 1)[-1]

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params):
        publish(documents.update(params.text_document.uri, path_of(params.text_document.uri), params.text_document.text))

    pending = {}           # uri -> the analysis waiting for the typing to pause

    def analyse_later(uri):
        async def wait_then_analyse():
            await asyncio.sleep(PAUSE_SECONDS)
            pending.pop(uri, None)
            if uri in documents.open:
                publish(documents.update(uri, *documents.open[uri]))
        if uri in pending:
            pending.pop(uri).cancel()
        pending[uri] = asyncio.ensure_future(wait_then_analyse())

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params):
        # pygls has applied the change to its copy of the text; a keystroke does not wait for
        # the analysis of the one before: it runs once the typing pauses
        uri = params.text_document.uri
        documents.edit(uri, path_of(uri), server.workspace.get_text_document(uri).source)
        analyse_later(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params):
        uri = params.text_document.uri
        if uri in pending:
            pending.pop(uri).cancel()
        publish(documents.update(uri, path_of(uri), server.workspace.get_text_document(uri).source))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params):
        uri = params.text_document.uri
        if uri in pending:
            pending.pop(uri).cancel()
        if uri in documents.open:
            publish(documents.close(uri))
        server.publish_diagnostics(uri, [])

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls, params):
        uri, file, line, column = asked(params)
        index = documents.index(uri)
        text = hover_text(index, file, line, column) if index and file else None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text)) if text else None

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params):
        uri, file, line, column = asked(params)
        index = documents.index(uri)
        return [location(s) for s in definitions(index, file, line, column)] if index and file else None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def find_references(ls, params):
        uri, file, line, column = asked(params)
        if file is None:
            return None
        return [location(s) for s in documents.references(uri, line, column, params.context.include_declaration)]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def complete(ls, params):
        uri, file, line, column = asked(params)
        if file is None:
            return None
        index, text = documents.index(uri), documents.open[uri][1]
        tokens = Tokens(file, text)
        written = text[tokens.offset(line, 1):tokens.offset(line, column)]
        dot = re.search(r"\.\s*[A-Za-z_0-9]*$", written)
        if dot:
            # the text without the '.' and the word begun after it often parses, the text with it not
            start = tokens.offset(line, 1) + dot.start()
            index = index_of(file, {**documents.buffers(), real(file): text[:start] + text[tokens.offset(line, column):]})[0] \
                or index
        if index is None:
            return None
        return lsp.CompletionList(is_incomplete=False, items=[
            lsp.CompletionItem(c.label, kind=getattr(lsp.CompletionItemKind, ITEM_KINDS.get(c.kind, "Text")),
                               detail=c.detail or None)
            for c in completions(index, file, line, column, written)])

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls, params):
        uri = params.text_document.uri
        index = documents.index(uri)
        if index is None or uri not in documents.open:
            return None

        def convert(symbol):
            return lsp.DocumentSymbol(
                name=symbol.name, kind=getattr(lsp.SymbolKind, SYMBOL_KINDS.get(symbol.kind, "Variable")),
                range=to_range(symbol.span), selection_range=to_range(symbol.name_span),
                detail=symbol.detail or None, children=[convert(c) for c in symbol.children] or None)
        return [convert(s) for s in document_symbols(index, documents.open[uri][0])]

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls, params):
        uri, file, line, column = asked(params)
        index = documents.index(uri)
        occurrence = index.occurrence_at(file, line, column) if index and file else None
        if occurrence is None or occurrence.key[0] == "builtin" or \
                not any(o.declares for o in index.uses(occurrence.key)):
            return None
        return to_range(occurrence.span)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def rename(ls, params):
        uri, file, line, column = asked(params)
        index = documents.index(uri)
        if index is None or file is None:
            return None
        spans, problem = rename_edits(index, file, line, column, params.new_name)
        if problem is not None:
            raise JsonRpcInvalidParams(problem)        # the editor shows it
        spans = documents.references(uri, line, column)
        changes = {}
        for span in spans:
            changes.setdefault(uri_of(span.file), []).append(
                lsp.TextEdit(to_range(span), params.new_name))
        return lsp.WorkspaceEdit(changes=changes)

    return server


class OneLineLog(logging.Formatter):
    """The server's log on stderr (the editor's log of it): one line per event, an exception
    as its type and message, without a traceback."""

    def format(self, record):
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        return f"referee lsp: {text}"


def serve(server) -> int:
    """Run a server of make_server() on stdin and stdout until the editor says exit (or closes
    stdin). Returns the exit code: 0 after a shutdown request, 1 without (as the protocol says).
    pygls logs what goes wrong (a request refused, a message that is not JSON) in one line
    each; with REFEREE_DEBUG=1, with the traceback."""
    if not os.environ.get("REFEREE_DEBUG"):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(OneLineLog())
        log = logging.getLogger("pygls")
        log.addHandler(handler)
        log.propagate = False
    server.start_io()
    return 0 if getattr(server.lsp, "_shutdown", True) else 1
