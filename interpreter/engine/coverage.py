"""Where a game compiled with coverage counts: the places the rule tags `@X-n` stand on, and
the list of ints its generated code increments (`COV[k] += 1`). The report over the counts of
many games is interpreter/tools/coverage.py."""
from __future__ import annotations

from typing import Optional

import attrs

from referee.dsl import ast, rulebook

# kind of place -> its counters; the first one says whether the place was reached
SLOTS = {
    "action": ("played", "legal"), "trigger": ("fired", "checked"), "proc": ("called",),
    "invariant": ("checked", "held"), "require": ("evaluated", "refused"),
    "while": ("ran", "rounds"), "for": ("ran", "rounds"), "repeat": ("ran", "rounds"),
    "turns": ("ran", "turns"), "play": ("asked",), "fn": ("called",),
}

KINDS = {
    ast.Action: "action", ast.Trigger: "trigger", ast.Procedure: "proc", ast.Function: "fn",
    ast.Invariant: "invariant", ast.Setup: "setup", ast.If: "if", ast.Require: "require",
    ast.While: "while", ast.For: "for", ast.Repeat: "repeat", ast.Turns: "turns", ast.Turn: "turn",
    ast.Play: "play", ast.Simultaneous: "simultaneous", ast.CallStatement: "call", ast.MoveAll: "move all",
    ast.PlayBy: "play by", ast.Respond: "respond",
}


@attrs.define
class Site:
    rule: str                  # "C-8"
    text: Optional[str]        # the rule's sentence on this tag
    kind: str                  # action, if, require, ... or "static"
    span: ast.Span             # of the tag
    line: int                  # the line of the tagged code
    code: str                  # that line
    slots: tuple               # the names of its counters
    first: int                 # where they start in the counts


class Coverage:
    """The places of one compiled game and their counters (`counts`, which the generated code
    increments as `COV[k] += 1`)."""

    def __init__(self, program, sources):
        self.sources = sources
        self.sites = []
        self.counts = []
        self.by_node = {}          # id(tagged node) -> its first site
        self.tag_of = {}           # id(tagged node) -> its tags (one or more rules it encodes)
        for declared in program.declarations.values():
            self.add_tags(declared.tag)
        if program.setup is not None:
            self.add_tags(program.section_tags.get("setup"))
        roots = [d.node for d in program.declarations.values()] + [program.setup, program.flow]
        for tag in ast.walk(tuple(r for r in roots if r is not None)):
            if isinstance(tag, ast.Tagged):
                self.add_tags(tag)
        self.program = program

    def add_tags(self, tag):
        """The tags of a chain (@A-1 @B-2 node) on the node they stand on, each once (through an
        override: on the declaration it puts in force)."""
        chain = []
        while isinstance(tag, ast.Tagged):
            chain.append(tag)
            tag = tag.node
            if isinstance(tag, ast.Override):
                tag = tag.declaration
        for one in chain:
            tags = self.tag_of.setdefault(id(tag), [])
            if all(t is not one for t in tags):
                tags.append(one)

    def counter(self, node, slots=None) -> Optional[int]:
        """The index of the first counter of a tagged node (registered the first time), or None
        when no tag stands on it."""
        site = self.by_node.get(id(node))
        if site is not None:
            return site.first
        tags = self.tag_of.get(id(node))
        if not tags:
            return None
        kind = KINDS.get(type(node), type(node).__name__.lower())
        if kind == "if":
            slots = ("evaluated",) + tuple(f"branch {k}" for k in range(1, 2 + len(node.elifs)))
        slots = slots or SLOTS.get(kind, ("ran",))
        first = len(self.counts)
        self.counts.extend([0] * len(slots))
        for tag in tags:        # several rules on one node: one site each, the same counters
            line, code = rulebook.tagged_line(self.sources, tag.span)
            site = Site(tag.rule_id[1:], tag.text, kind, tag.span, line, code, tuple(slots), first)
            self.sites.append(site)
            self.by_node.setdefault(id(node), site)
        return first

    def static_sites(self) -> list:
        """The tags on which nothing counts (declarations in force in every game)."""
        counted = {site.span for site in self.sites}
        out = []
        for rule_id, text, span in self.program.tags():
            if span not in counted:
                line, code = rulebook.tagged_line(self.sources, span)
                out.append(Site(rule_id, text, "static", span, line, code, (), -1))
        return out

    def reset(self):
        self.counts[:] = [0] * len(self.counts)

    def take(self) -> list:
        """The counts so far, and zero again."""
        taken = list(self.counts)
        self.reset()
        return taken

    def signature(self) -> list:
        """What the places are: the same for two compilations whose counts may be added."""
        return [(s.rule, s.kind, s.line, s.slots) for s in self.sites]
