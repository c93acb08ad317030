"""A rulebook made from a rules file's rule tags: each rule id, the sentences that go with it,
and every place of the file that encodes it, so that a reader can trace the rules both ways."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

RULE_ID = re.compile(r"\b([A-Z][A-Za-z]*)-(\d+)([a-z]?)\b")


def rule_order(rule_id: str):
    match = RULE_ID.fullmatch(rule_id)
    if not match:
        return (rule_id, 0, "")
    prefix, number, letter = match.groups()
    return (prefix, int(number), letter)


def spec_ids(spec_text: str, prefix: str) -> list:
    """The rule ids a numbered rules text defines (lines or table rows that start with one)."""
    found = []
    for line in spec_text.splitlines():
        match = re.match(r"^\s*(?:[-*]|\|)\s*(" + re.escape(prefix) + r"-\d+[a-z]?)\b", line)
        if match and match.group(1) not in found:
            found.append(match.group(1))
    return found


def tagged_line(sources, span) -> tuple:
    """(line, its text) of the code a tag stands on: the first line after the tag and its sentence
    that is code (comments and blank lines between a tag and its code are skipped)."""
    lines = sources.get(span.file, "").splitlines()
    line = span.line
    while line <= len(lines) and not_code(lines[line - 1]):
        line += 1
    code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return line, code


def not_code(text: str) -> bool:
    stripped = text.lstrip()
    return not stripped or stripped.startswith(("@", "#"))


def build(program, sources) -> dict:
    """rule id -> {"texts": [...], "places": [(file, line, source line)]}, in rule order."""
    rules = defaultdict(lambda: {"texts": [], "places": []})
    for rule_id, text, span in program.tags():
        entry = rules[rule_id]
        if text and text not in entry["texts"]:
            entry["texts"].append(text)
        entry["places"].append((span.file, *tagged_line(sources, span)))
    for entry in rules.values():
        entry["places"].sort(key=lambda place: (place[0], place[1]))
    return dict(sorted(rules.items(), key=lambda item: rule_order(item[0])))


def render_markdown(title: str, rules: dict, missing=()) -> str:
    out = [f"# {title}: the rules and where the file encodes them", ""]
    for rule_id, entry in rules.items():
        out.append(f"## {rule_id}")
        for text in entry["texts"]:
            out.append(f"> {text}")
        out.append("")
        for file, line, code in entry["places"]:
            out.append(f"- `{Path(file).name}:{line}` `{code}`")
        out.append("")
    if missing:
        out.append("## Not encoded")
        out.append("")
        out.append("Rule ids of the rules text that no tag of the file names: " + ", ".join(missing))
        out.append("")
    return "\n".join(out)
