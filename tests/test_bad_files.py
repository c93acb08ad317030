"""Every file of tests/bad/ is a small broken game; its first lines say what must be reported.

    # expect: E202 6:16 unknown name 'hnad' | did you mean 'hand'?
    # options: fast          (optional: options passed to load_game)
    # players: 5             (optional: the player count passed to load_game)

An expect line gives the code, the line:column of the diagnostic, a fragment of its message and,
after ' | ', optionally a fragment of its hint. The diagnostics must be exactly the expected ones,
in the order given, and their rendering must show where they are and what to do.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.dsl.diagnostics import RulesError
from referee.interpreter.engine import load_game

BAD = Path(__file__).resolve().parent / "bad"
BAD_FILES = sorted(BAD.glob("*.rules"))
EXPECT = re.compile(r"^# expect: (E\d{3}) (\d+):(\d+) (.*?)(?: \| (.*))?$")


def expectations(text: str):
    out = []
    for line in text.splitlines():
        if line.startswith("# expect:"):
            match = EXPECT.match(line)
            assert match, f"malformed expect line: {line!r}"
            code, row, col, message, hint = match.groups()
            out.append((code, int(row), int(col), message.strip(), hint))
    return out


def directive(text: str, name: str):
    match = re.search(rf"^# {name}: (.*)$", text, re.M)
    return match.group(1).strip() if match else None


def load_bad(path: Path):
    text = path.read_text(encoding="utf-8")
    options = directive(text, "options")
    players = directive(text, "players")
    return load_game(str(path), options=options.split() if options else (),
                     players=int(players) if players else None)


def test_there_are_bad_files_for_every_stage():
    codes = {e[0] for path in BAD_FILES for e in expectations(path.read_text())}
    # syntax, names, types, structure, files, load options: every family is exercised
    for family in ("E10", "E20", "E30", "E40", "E50", "E60"):
        assert any(code.startswith(family) for code in codes), family
    for code in ("E100", "E101", "E102", "E103", "E104", "E201", "E202", "E203", "E204", "E205", "E208",
                 "E221", "E222", "E223", "E224", "E225", "E226", "E301",
                 "E302", "E303", "E308", "E309", "E401", "E402", "E404", "E405", "E407", "E415", "E416", "E417", "E501", "E504", "E601",
                 "E602", "E701"):
        assert code in codes, code


def test_one_file_reports_several_errors_at_once():
    counts = {path.name: len(expectations(path.read_text())) for path in BAD_FILES}
    assert counts["three_errors.rules"] == 3
    game, diagnostics, _ = load_bad(BAD / "three_errors.rules")
    assert game is None and len({d.code for d in diagnostics}) == 3


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.stem)
def test_bad_file_reports_exactly_what_it_expects(path):
    expected = expectations(path.read_text(encoding="utf-8"))
    assert expected, f"{path.name} has no '# expect:' line"
    game, diagnostics, sources = load_bad(path)
    assert game is None, "a broken file must not give a game"
    got = [(d.code, d.span.line, d.span.column) for d in diagnostics]
    assert got == [(code, row, col) for code, row, col, _, _ in expected], \
        RulesError(diagnostics, sources).render()
    for diagnostic, (code, _, _, message, hint) in zip(diagnostics, expected):
        assert Path(diagnostic.span.file).resolve() == path.resolve()
        assert message in diagnostic.message
        if hint is not None:
            assert diagnostic.hint is not None and hint in diagnostic.hint, diagnostic.hint


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.stem)
def test_bad_file_renders_location_source_caret_and_help(path):
    game, diagnostics, sources = load_bad(path)
    text = RulesError(diagnostics, sources).render()
    lines = text.splitlines()
    source_lines = path.read_text(encoding="utf-8").splitlines()
    for diagnostic in diagnostics:
        span = diagnostic.span
        head = f"{span.file}:{span.line}:{span.column}: error[{diagnostic.code}]: {diagnostic.message}"
        assert head in lines
        at = lines.index(head)
        source_line = source_lines[span.line - 1].replace("\t", " ")   # a column is a character
        # the source line, numbered, then a caret under the column
        assert lines[at + 2] == f"{span.line} | {source_line}"
        caret_line = lines[at + 3]
        bar = " " * len(str(span.line)) + " | "
        assert caret_line.startswith(bar)
        carets = caret_line[len(bar):]
        assert carets.lstrip(" ").startswith("^") and set(carets.strip()) == {"^"}
        assert len(carets) - len(carets.lstrip(" ")) == span.column - 1
        if diagnostic.hint:
            assert f"  help: {diagnostic.hint}" in lines[at + 4:at + 5]
        else:
            assert not any(line.startswith("  help:") for line in lines[at + 4:at + 5])


def test_rendering_points_the_caret_at_the_whole_token():
    game, diagnostics, sources = load_bad(BAD / "unknown_name.rules")
    text = RulesError(diagnostics, sources).render()
    source_line = next(line for line in text.splitlines() if "hnad" in line and "|" in line)
    caret_line = text.splitlines()[text.splitlines().index(source_line) + 1]
    start = source_line.index("hnad")
    assert caret_line[start:start + 4] == "^^^^" and caret_line[start + 4:].strip() == ""
