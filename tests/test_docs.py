"""The examples of the documentation are tested: every ```rules block of docs/*.md and
docs/games/*.md is loaded, and played when it is a game.

How a block is tested depends on what it is:

- A whole program (its first declaration is `game` or `extends`) must load clean with
  `load_game` for the smallest and the largest player count it allows, and, as it has a flow,
  play to the end with random moves. A relative `extends` path is read from the folder of the
  markdown file, as a reader of the docs would read it.
- A block preceded by the marker `<!-- rules-file: PATH -->` (PATH relative to the project
  root) is the content of that file: it must equal the file, comments and blank lines aside,
  and the file is loaded and played as a whole program.
- Any other block is a fragment. It is checked inside the page's host game: a whole program
  placed after the marker `<!-- rules-host -->`, or a file named by
  `<!-- rules-host: PATH -->`. The fragment is pasted into a file that `extends` the host:
    * a fragment made of declarations is added as it is, and each declaration whose name the
      host already has becomes an `override` of it;
    * otherwise it is a list of statements, tried in turn as the body of an `action`, of a
      `proc`, of the `flow` (override flow { ... }) and of the `setup`, and, as an
      expression, as the body of a `fn` (`fn doc_example(): any = ...`).
  The fragment passes if one of these loads clean and random moves in the resulting game
  run (up to a bound) without a runtime error. As the body of an action, the statements are
  also run once at the start of a game (when the action's requirements allow it).
- A fragment preceded by `<!-- rules-excerpt: PATH -->` is also an excerpt of that file: its
  lines (comments, blank lines and indentation aside) stand one after the other in the file.
"""
from __future__ import annotations

import functools
import os
import random
import re
from pathlib import Path

import attrs
import pytest

from referee.dsl import ast
from referee.dsl.diagnostics import RulesError
from referee.dsl.parser import parse
from referee.dsl.program import DECLARATION_KINDS, declaration_name
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import Finished, NeedChoice, RulesRuntimeError

from .conftest import ROOT

DOCS = ROOT / "docs"
DOC_FILES = sorted(DOCS.glob("*.md")) + sorted((DOCS / "games").glob("*.md"))
FENCE = re.compile(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"<!--\s*(rules-file|rules-host|rules-excerpt)(?::\s*(\S+))?\s*-->\s*$")
MOVE_BOUND = 5_000
FRAGMENT_MOVES = 300


@attrs.frozen
class Block:
    doc: Path
    line: int                 # line of the opening fence, 1-based
    text: str
    marker: tuple = ()        # (kind, path or None) of a marker just above the block

    @property
    def id(self) -> str:
        inside = self.doc.resolve().is_relative_to(ROOT)
        return f"{self.doc.resolve().relative_to(ROOT) if inside else self.doc}:{self.line}"


def blocks_of(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    out = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = [l for l in text[:match.start()].splitlines() if l.strip()]
        marker = ()
        if before:
            found = MARKER.search(before[-1].strip())
            if found:
                marker = (found.group(1), found.group(2))
        out.append(Block(doc, line, match.group(1), marker))
    return out


ALL_BLOCKS = [block for doc in DOC_FILES for block in blocks_of(doc)]


def strip_comment(line: str) -> str:
    """The line without its comment (a '#' outside a string starts one)."""
    quoted = False
    for i, char in enumerate(line):
        if char == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and not quoted:
            return line[:i]
    return line


def code_lines(text: str) -> list[str]:
    """The lines that are not comments or blank, without the comments at their end."""
    out = []
    for line in text.splitlines():
        line = strip_comment(line).rstrip()
        if line.strip():
            out.append(line)
    return out


def is_excerpt(part: list[str], whole: list[str]) -> bool:
    """Whether the lines of `part` stand, one after the other, in `whole` (indentation aside)."""
    part, whole = [l.strip() for l in part], [l.strip() for l in whole]
    return any(whole[i:i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def first_declaration(text: str):
    module, errors = parse(text, "<doc>")
    if errors or not module.items:
        return None
    return ast.untag(module.items[0])[0]


def is_whole_program(block: Block) -> bool:
    return isinstance(first_declaration(block.text), (ast.Game, ast.Extends))


def loaded(path, options=(), players=None):
    game, diagnostics, sources = load_game(str(path), options=options, players=players)
    return game, (RulesError(diagnostics, sources).render() if diagnostics else "")


def play_random(game, seed: int, bound: int, must_end: bool):
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(bound):
        if state.is_terminal():
            return state
        legal = state.legal_moves()
        assert legal, f"P{state.current_player()} has no legal move in a running game"
        state.apply(rng.choice(legal))
    assert not must_end or state.is_terminal(), f"no end after {bound} random moves"
    return state


def check_whole_program(path: Path, where: str):
    game, errors = loaded(path)
    assert game is not None, f"{where} does not load:\n{errors}"
    low, high = game.player_range
    for players in sorted({low, high}):
        game, errors = loaded(path, players=players)
        assert game is not None, f"{where} does not load for {players} players:\n{errors}"
        assert game.program.flow is not None
        state = play_random(game, seed=players, bound=MOVE_BOUND, must_end=True)
        assert state.is_terminal()
        assert set(state.winners) <= set(range(1, players + 1))
    return game


def mirror(tmp_path: Path, doc: Path) -> Path:
    """A folder in tmp_path that stands where `doc`'s folder stands in the project, so that
    relative paths in the doc's examples reach the project's files."""
    link = tmp_path / "games"
    if not link.exists():
        link.symlink_to(ROOT / "games", target_is_directory=True)
    inside = doc.parent.resolve().is_relative_to(ROOT)
    folder = tmp_path / (doc.parent.resolve().relative_to(ROOT) if inside else "docs")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def host_of(block: Block):
    """The host of a fragment: the last `rules-host` marker above it, as (path, None) for
    `<!-- rules-host: PATH -->` or (None, block) for `<!-- rules-host -->` before a block."""
    lines = block.doc.read_text(encoding="utf-8").splitlines()
    blocks = blocks_of(block.doc)
    host = None
    for number, line in enumerate(lines[:block.line - 1], start=1):
        found = MARKER.search(line.strip())
        if not found or found.group(1) != "rules-host":
            continue
        if found.group(2):
            host = (ROOT / found.group(2), None)
        else:
            following = [b for b in blocks if b.line > number]
            host = (None, following[0]) if following and following[0].line < block.line else host
    return host


def with_overrides(fragment: str, host_names: set) -> str:
    """The fragment, with 'override ' before each declaration the host already has."""
    module, errors = parse(fragment, "<fragment>")
    assert not errors
    lines = fragment.splitlines(keepends=True)
    inserts = []
    for item in module.items:
        inner, _ = ast.untag(item)
        if isinstance(inner, ast.Override) or type(inner) not in DECLARATION_KINDS:
            continue
        if declaration_name(inner) in host_names:
            inserts.append((inner.span.line, inner.span.column))
    for line, column in sorted(inserts, reverse=True):
        text = lines[line - 1]
        lines[line - 1] = text[:column - 1] + "override " + text[column - 1:]
    return "".join(lines)


def host_names(host_path: Path) -> set:
    if host_path.resolve().is_relative_to(ROOT):        # a file of the project: the same in every test
        return set(project_host_names(str(host_path)))
    return loaded_host_names(host_path)


@functools.cache        # (the fragments of a page share its host: loaded once)
def project_host_names(host_path: str) -> frozenset:
    return frozenset(loaded_host_names(Path(host_path)))


def loaded_host_names(host_path: Path) -> set:
    game, errors = loaded(host_path)
    assert game is not None, f"the host {host_path} does not load:\n{errors}"
    return set(game.program.declarations) | {"game", "setup", "flow"}


def indent(text: str) -> str:
    return "".join("  " + line if line.strip() else line for line in text.splitlines(keepends=True))


def fragment_candidates(fragment: str, names: set) -> list[tuple[str, str]]:
    """(context, program text after the `extends` line) to try for a fragment."""
    module, errors = parse(fragment, "<fragment>")
    if not errors and module.items:
        return [("declarations", with_overrides(fragment, names))]
    body = indent(fragment)
    return [
        ("action body", f'action doc_example "doc example" {{\n{body}\n}}\n'),
        ("proc body", f"proc doc_example() {{\n{body}\n}}\n"),
        ("flow", f"override flow {{\n{body}\n}}\n"),
        ("setup", f"override setup {{\n{body}\n}}\n"),
        ("expression", f"fn doc_example(): any =\n{body}\n"),
    ]


def run_example_action(game, seed: int):
    """Run the statements of a fragment once, as the body of an action played by the player
    to move at the start of a game (if its requirements allow it)."""
    state = game.new_initial_state(seed=seed)
    action = next(a for a in game.actions if a.name == "doc_example")
    if state.is_terminal() or action.guard(state, {}) is not None:
        return
    try:
        action.run(state)     # the guard again, then the body, as when the move is played
    except (NeedChoice, Finished):
        pass


def check_fragment(block: Block, tmp_path: Path):
    host = host_of(block)
    assert host is not None, (f"{block.id}: a fragment needs a host game: put <!-- rules-host --> "
                              "before a whole program above it, or <!-- rules-host: PATH -->")
    folder = mirror(tmp_path, block.doc)
    host_path, host_block = host
    if host_path is None:
        host_path = folder / "host.rules"
        host_path.write_text(host_block.text, encoding="utf-8")
    names = host_names(host_path)
    failures = []
    for context, text in fragment_candidates(block.text, names):
        path = folder / f"example-{block.line}.rules"
        base = os.path.relpath(host_path, folder)     # extends takes a relative path only
        path.write_text(f'extends "{base}"\n{text}', encoding="utf-8")
        game, errors = loaded(path)
        if game is None:
            failures.append(f"as {context}:\n{errors}")
            continue
        try:
            for seed in (0, 1):
                if context == "action body":
                    run_example_action(game, seed)
                play_random(game, seed=seed, bound=FRAGMENT_MOVES, must_end=False)
        except RulesRuntimeError as error:
            failures.append(f"as {context}: runtime error {error}")
            continue
        return context
    pytest.fail(f"{block.id}: the fragment fits no context:\n\n" + "\n\n".join(failures))


# ---- the tests ------------------------------------------------------------------------------

def test_there_are_documents_with_examples():
    names = {str(d.relative_to(ROOT)) for d in DOC_FILES}
    assert {"docs/language.md", "docs/tutorial.md", "docs/games/continents.md"} <= names
    by_doc = {}
    for block in ALL_BLOCKS:
        by_doc[block.doc.name] = by_doc.get(block.doc.name, 0) + 1
    assert by_doc.get("language.md", 0) >= 40
    assert by_doc.get("tutorial.md", 0) >= 5


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=lambda b: b.id)
@pytest.mark.slow
def test_rules_example(block, tmp_path):
    assert block.text.strip(), f"{block.id}: an empty rules block"
    if block.marker and block.marker[0] == "rules-file":
        path = ROOT / block.marker[1]
        assert path.exists(), f"{block.id}: {block.marker[1]} does not exist"
        assert code_lines(block.text) == code_lines(path.read_text(encoding="utf-8")), \
            f"{block.id}: the block differs from {block.marker[1]}"
        check_whole_program(path, block.id)
    elif is_whole_program(block):
        folder = mirror(tmp_path, block.doc)
        path = folder / f"example-{block.line}.rules"
        path.write_text(block.text, encoding="utf-8")
        check_whole_program(path, block.id)
    else:
        if block.marker and block.marker[0] == "rules-excerpt":
            source = (ROOT / block.marker[1]).read_text(encoding="utf-8")
            assert is_excerpt(code_lines(block.text), code_lines(source)), \
                f"{block.id}: the block is not an excerpt of {block.marker[1]}"
        assert check_fragment(block, tmp_path)


def test_every_page_with_fragments_has_a_host():
    for doc in DOC_FILES:
        blocks = blocks_of(doc)
        fragments = [b for b in blocks if b.marker[:1] != ("rules-file",) and not is_whole_program(b)]
        if fragments:
            assert host_of(fragments[0]) is not None, f"{doc}: fragments before any host"


def test_a_fragment_that_is_wrong_fails(tmp_path):
    """The harness itself: a broken fragment is reported, a good one passes."""
    doc = tmp_path / "docs" / "x.md"
    doc.parent.mkdir()
    doc.write_text("<!-- rules-host: games/tic-tac-toe.rules -->\n```rules\n"
                   "game \"T\" { players 2 }\nflow { }\n```\n", encoding="utf-8")
    host = blocks_of(doc)[0]
    assert host.marker == ("rules-host", "games/tic-tac-toe.rules")
    good = Block(doc, 99, "mark[Cell(1, 1)] = current\n")
    bad = Block(doc, 100, "mark[Cell(1, 1)] = nobody\n")
    assert check_fragment(good, tmp_path) == "action body"
    with pytest.raises(pytest.fail.Exception) as failed:
        check_fragment(bad, tmp_path)
    assert "unknown name 'nobody'" in str(failed.value)


def test_harness_helpers():
    """Comments, blank lines and indentation do not count when a block is compared with a file;
    a fragment's declarations that the host has become overrides."""
    text = 'game "A" {  # the header\n\n  players 2\n}\n# end\nparam x = "#1"\n'
    assert code_lines(text) == ['game "A" {', "  players 2", "}", 'param x = "#1"']
    assert is_excerpt(["players 2", "}"], code_lines(text))
    assert not is_excerpt(["}", "players 2"], code_lines(text))
    fragment = '@R-1 "a rule"\nparam hand_size = 4\nparam other = 1\n'
    assert with_overrides(fragment, {"hand_size"}) == \
        '@R-1 "a rule"\noverride param hand_size = 4\nparam other = 1\n'


# ---- the tutorial ----------------------------------------------------------------------------

def test_tutorial_ends_with_the_tic_tac_toe_file():
    """The tutorial's last rules block is games/tic-tac-toe.rules, comments and blank lines
    aside; its earlier whole programs are steps towards it (same title, fewer lines)."""
    blocks = blocks_of(DOCS / "tutorial.md")
    expected = code_lines((ROOT / "games" / "tic-tac-toe.rules").read_text(encoding="utf-8"))
    assert code_lines(blocks[-1].text) == expected
    steps = [b for b in blocks[:-1] if is_whole_program(b)]
    assert len(steps) >= 3
    for step in steps:
        assert code_lines(step.text)[0] == expected[0]          # game "Tic-tac-toe" {
        assert len(code_lines(step.text)) < len(expected)


def test_tutorial_shows_the_commands():
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    for command in ("referee check games/tic-tac-toe.rules", "referee play games/tic-tac-toe.rules",
                    "referee simulate games/tic-tac-toe.rules -n 100"):
        assert command in text


# ---- the reference ------------------------------------------------------------------------

def test_reference_lists_every_diagnostic_code():
    """Every code the front end and the loader can report is explained in docs/language.md,
    and the page lists no code that does not exist."""
    sources = "".join(p.read_text(encoding="utf-8") for p in
                      list((ROOT / "dsl").rglob("*.py")) + list((ROOT / "interpreter").rglob("*.py")))
    used = set(re.findall(r'"(E\d{3})"', sources))
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\|\s*`?(E\d{3})`?\s*\|", text, re.M))
    assert used, "no diagnostic codes found in the sources"
    assert used <= listed, f"codes missing from docs/language.md: {sorted(used - listed)}"
    assert listed <= used, f"codes documented but never reported: {sorted(listed - used)}"


def test_reference_documents_every_standard_function_and_keyword():
    from referee.dsl.builtins import STDLIB_SIGNATURES
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    for name in STDLIB_SIGNATURES:
        assert f"`{name}(" in text, f"standard function {name} is not documented"
    grammar = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z]+)"', grammar))
    section = text.split("## Reserved words", 1)[1].split("\n## ", 1)[0]
    assert keywords <= set(re.findall(r"`([a-z]+)`", section)), \
        f"reserved words not listed: {sorted(keywords - set(re.findall(r'`([a-z]+)`', section)))}"


def test_reference_column_example():
    """The span that docs/language.md gives for `top(deck)` is the one the parser makes."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    section = text.split("## Positions in messages", 1)[1]
    example = FENCE.search(section).group(1)
    assert "line 2, column 8 to end column 17" in section
    module, errors = parse(example, "<doc>")
    assert not errors
    calls = [n for n in ast.walk(module) if isinstance(n, ast.Call) and n.name == "top"]
    assert len(calls) == 1
    span = calls[0].span
    assert (span.line, span.column, span.end_line, span.end_column) == (2, 8, 2, 17)


# ---- the page of Continents -------------------------------------------------------------------

def test_continents_page_maps_every_rule_to_declarations_of_the_file():
    """The table of docs/games/continents.md has one row per rule C-1..C-25 of the numbered
    rules, and every declaration it names (`action build`, `param places = 8`...) exists in
    games/continents.rules with that kind."""
    from referee.dsl.program import DECLARATION_KINDS as KINDS, load_program

    page = (DOCS / "games" / "continents.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (C-\d+) \| (.*?) \| (.*?) \|$", page, re.M)
    ids = [row[0] for row in rows]
    assert ids == [f"C-{n}" for n in range(1, 26)]
    spec = ROOT.parent / "shared" / "games" / "continents.md"
    if spec.exists():
        assert set(ids) == set(re.findall(r"^- (C-\d+) ", spec.read_text(encoding="utf-8"), re.M))
    program, diagnostics, _ = load_program(str(ROOT / "games" / "continents.rules"))
    assert program is not None and not diagnostics
    declared = {(KINDS[type(d.node)], d.node.name) for d in program.declarations.values()}
    named = 0
    for rule, where, how in rows:
        assert how.strip(), f"{rule}: no explanation"
        for code in re.findall(r"`([^`]+)`", where):
            words = code.split()
            if words[0] in ("setup", "flow", "game"):
                assert getattr(program, words[0]) is not None
            elif words[0] in set(KINDS.values()) and len(words) > 1:
                name = re.match(r"\w+", words[1]).group()
                assert (words[0], name) in declared, f"{rule}: {code} is not in the file"
                named += 1
    assert named >= 30
