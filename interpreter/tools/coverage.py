"""Rule coverage: how often the rules tagged `@X-n` ran over the games played.

A game compiled with coverage (`load_game(..., coverage=True)`) counts, in a list of ints its
generated code increments, every *place* a rule tag stands on: a statement (how often it ran;
an `if`, how often each branch was taken; a `require`, how often it was evaluated and refused;
a loop, how often it ran and how many rounds), an action (how often it was legal at a decision
and how often it was played), a trigger (checked, fired), a proc or fn (called; a bool fn, how
often true), an invariant (checked, held), a flow statement (a `play`: how often it asked).
A tag on a declaration that does nothing at run time (a param, a component, a zone, a var, an
option) is *static*: in force in every game, counted nowhere. Without coverage nothing of this
is generated: the game runs the same code as ever.

The counts of a game are taken (and zeroed) by whoever plays it, so that the counts of the
games of several worker processes add up to those of one process playing them all.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from referee.dsl import rulebook

from ..engine.coverage import Coverage
from .report import Table



def add(total, counts):
    """Counts added up (total None: none yet)."""
    if counts is None:
        return total
    if total is None:
        return list(counts)
    return [a + b for a, b in zip(total, counts)]


# ---- the report ---------------------------------------------------------------------------

def site_counts(site, counts) -> dict:
    """The counters of a place by name, with what follows from them (true, false, else)."""
    values = dict(zip(site.slots, counts[site.first:site.first + len(site.slots)]))
    if site.kind == "require":
        values = {"evaluated": values["evaluated"], "true": values["evaluated"] - values["refused"],
                  "refused": values["refused"]}
    elif site.kind == "if":
        branches = [values[name] for name in site.slots[1:]]
        values = {"evaluated": values["evaluated"], "true": branches[0], "false": values["evaluated"] - branches[0]}
        if len(branches) > 1:
            values["branches"] = branches + [values["evaluated"] - sum(branches)]
    elif site.slots in (("evaluated", "true"), ("called", "true"), ("checked", "held")):
        first, second = site.slots
        values["false"] = values[first] - values[second]
    return values


def one_sided(site, values) -> Optional[str]:
    """Of a condition that was evaluated: the way it never went, if any. (An invariant that
    always held is what it should be: not reported.)"""
    if not values[site.slots[0]] or site.kind == "invariant":
        return None
    if site.kind == "require":
        return "never refused" if not values["refused"] else ("never true" if not values["true"] else None)
    if "branches" in values:
        names = ["if"] + [f"elif {k}" for k in range(1, len(values["branches"]) - 1)] + ["else"]
        never = [name for name, n in zip(names, values["branches"]) if n == 0]
        return ("never taken: " + ", ".join(never)) if never else None
    if "false" in values:
        return "never true" if not values["true"] else ("never false" if not values["false"] else None)
    if len(site.slots) == 2 and site.slots[1] in ("rounds", "turns") and not values[site.slots[1]]:
        return f"no {site.slots[1][:-1]} ever"      # a loop whose body never ran
    return None


def report(coverage: Coverage, counts, games: int, invariants=True) -> dict:
    """The coverage of `games` games: every rule id with its places and their counts, the
    rules never reached, and the places reached only in part. Without `invariants` (games
    played without checking them: simulate), an invariant counts as static."""
    counts = counts if counts is not None else [0] * len(coverage.counts)
    places = [(s, site_counts(s, counts)) for s in coverage.sites] + [(s, {}) for s in coverage.static_sites()]
    places.sort(key=lambda p: (rulebook.rule_order(p[0].rule), p[0].span.file, p[0].line))
    rules = {}
    for site, values in places:
        entry = rules.setdefault(site.rule, {"rule": site.rule, "texts": [], "places": []})
        if site.text and site.text not in entry["texts"]:
            entry["texts"].append(site.text)
        if site.kind == "invariant" and not invariants:
            values = {}
        reached = None if not values else values[site.slots[0]] > 0
        entry["places"].append({"kind": site.kind, "file": site.span.file, "line": site.line, "code": site.code,
                                "counts": values, "reached": reached,
                                "one_sided": one_sided(site, values) if reached else None})
    never, partly, static = [], [], []
    for rule_id, entry in rules.items():
        dynamic = [p for p in entry["places"] if p["reached"] is not None]
        if not dynamic:
            entry["status"] = "static"
            static.append(rule_id)
        elif not any(p["reached"] for p in dynamic):
            entry["status"] = "never reached"
            never.append(rule_id)
        elif any(not p["reached"] or p["one_sided"] for p in dynamic):
            entry["status"] = "in part"
            partly.append(rule_id)
        else:
            entry["status"] = "reached"
    return {"file": coverage.program.path, "games": games, "invariants_checked": invariants, "rules": list(rules.values()),
            "never_reached": never, "reached_in_part": partly, "static": static}


def counts_text(values) -> str:
    parts = []
    for name, value in values.items():
        if name == "branches":
            parts.append("branches " + "/".join(str(v) for v in value))
        else:
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def where(result, place) -> str:
    """A place's line, with its file's name when it is not the rules file itself (extends)."""
    if place["file"] == result["file"]:
        return str(place["line"])
    return f"{Path(place['file']).name}:{place['line']}"


def render(result) -> list:
    """The report as lines and a console.Table of the counted places, then what was never reached."""
    rows = []
    for entry in result["rules"]:
        for place in entry["places"]:
            if place["reached"] is None:
                continue
            mark = "" if place["reached"] else "  <- never"
            if place["one_sided"]:
                mark = f"  <- {place['one_sided']}"
            rows.append((entry["rule"], where(result, place), place["kind"], counts_text(place["counts"]) + mark,
                         place["code"]))
    reached = len(result["rules"]) - len(result["never_reached"]) - len(result["static"])
    lines = [f"rule coverage over {result['games']} games: {len(result['rules'])} rules tagged, "
             f"{reached} reached ({len(result['reached_in_part'])} in part), "
             f"{len(result['never_reached'])} never reached, {len(result['static'])} static"]
    numbers = all(r[1].isdigit() for r in rows)
    lines.append(Table(("rule", "line", "kind", "counts", "code"),
                       [(*row[:4], row[4] if len(row[4]) <= 60 else row[4][:57] + "...") for row in rows],
                       align=("left", "right" if numbers else "left", "left", "left", "left")))
    by_rule = {e["rule"]: e for e in result["rules"]}
    if result["never_reached"]:
        lines.append("never reached (no place of the rule ran in these games):")
        for rule_id in result["never_reached"]:
            entry = by_rule[rule_id]
            places = ", ".join(f"line {where(result, p)}" for p in entry["places"] if p["reached"] is not None)
            text = f": {entry['texts'][0]}" if entry["texts"] else ""
            lines.append(f"  {rule_id} ({places}){text}")
    if result["static"]:
        what = "declarations, in force in every game" + ("" if result["invariants_checked"] else
                                                         ", or invariants, which only verify checks")
        lines.append(f"static (tags on {what}): " + ", ".join(result["static"]))
    return lines
