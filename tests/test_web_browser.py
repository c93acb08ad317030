"""Whole games through the seats' pages in a real browser: Playwright driving Debian's Chromium
(Playwright's own browser download is not used), two seats in two browser contexts, moves by
clicks on the board and on the move buttons and by typing, each page kept up to date by its
event stream, with no reload. Skipped, saying so, where no Chromium binary is installed
(`apt-get install chromium`; .ci/run installs it)."""
from __future__ import annotations

import os
import shutil

import pytest

from .web_helpers import RunningServer, table

CHROMIUM = next((path for path in (os.environ.get("REFEREE_CHROMIUM"), shutil.which("chromium"),
                                   shutil.which("chromium-browser"), "/usr/bin/chromium", "/usr/lib/chromium/chromium")
                 if path and os.path.isfile(path) and os.access(path, os.X_OK)), None)
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium binary (apt-get install chromium, or set REFEREE_CHROMIUM)"),
              pytest.mark.slow]      # browsers: the quick subset (-m "not slow") leaves them out

STEP_TIMEOUT = 10_000        # ms: a page's update after a move, at most


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def version(page) -> int:
    return int(page.get_attribute("#table", "data-version"))


def wait_past(page, seen: int):
    page.wait_for_function("v => Number(document.getElementById('table').dataset.version) > v", arg=seen,
                           timeout=STEP_TIMEOUT)


def seat_pages(browser, running, t):
    """A page per seat, each in its own browser context (as on two devices), marked so that a
    reload would show (the mark would be gone)."""
    pages = {}
    for seat in t.game.seats:
        page = browser.new_context().new_page()
        errors = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(running.url(t, seat))
        page.evaluate("window.notReloaded = true")
        page.errors = errors
        pages[seat] = page
    return pages


def play_through_pages(pages, t, choose, most=200) -> int:
    """Play to the end, each move made on the page of the seat to move (choose(page, moves
    made) does it), then wait until every page shows it. Returns the number of moves."""
    moves = 0
    while not t.state.is_terminal():
        assert moves < most
        seat = t.state.current_player()
        page = pages[seat]
        assert page.get_attribute("#table", "data-to-move") == str(seat)
        seen = {s: version(p) for s, p in pages.items()}
        choose(page, moves)
        for s, p in pages.items():
            wait_past(p, seen[s])
        moves += 1
    return moves


def test_a_whole_game_of_tic_tac_toe_in_two_browsers(browser):
    t = table("tic-tac-toe", seed=11)
    with RunningServer([t]) as running:
        pages = seat_pages(browser, running, t)
        assert "Your turn" in pages[1].inner_text("#table") and "Waiting for P1" in pages[2].inner_text("#table")

        def choose(page, made):
            if made == 0:                  # typed, as at the terminal: a few words, a number, a name
                page.fill("#typed-move", "b2")
                page.press("#typed-move", "Enter")
            elif made == 1:
                page.fill("#typed-move", "#1")
                page.click("#typed button[type=submit]")
            else:                          # a click on an empty cell of the drawn board
                if made == 2:              # a refused move: the terminal's words, nothing played
                    page.fill("#typed-move", "B2")
                    page.press("#typed-move", "Enter")
                    page.wait_for_function("() => document.getElementById('refusal').textContent.includes("
                                           "\"refused: 'B2' is not possible now (by the rules, mark[b2] must be none)\")")
                page.locator("svg.board g.target").first.click()
        moves = play_through_pages(pages, t, choose)
        assert t.moves[:2] == ["b2", "a1"] and moves == len(t.moves) >= 5
        for seat, page in pages.items():
            text = page.inner_text("#table")
            assert "Game over" in text and t.result()["text"] in text
            assert page.evaluate("window.notReloaded === true") and page.errors == []
            assert page.locator("svg.board text.mark").count() == moves
        # a reload shows the same table
        before = pages[2].inner_text("#table")
        pages[2].reload()
        assert pages[2].inner_text("#table") == before


def test_whole_games_of_kuhn_poker_and_love_letter_in_two_browsers(browser):
    """Hidden information: each page shows its own hand under 'yours' and the other's as hidden
    (that nothing else shows it is tests/test_web_leaks.py's); moves by the move buttons."""
    for name, most in (("kuhn-poker", 10), ("love-letter", 400)):
        t = table(name, seed=5)
        with RunningServer([t]) as running:
            pages = seat_pages(browser, running, t)
            for seat, page in pages.items():
                other = 3 - seat
                own = page.inner_text(f".zones.yours [data-zone='hand[P{seat}]']")
                assert "hidden" not in own
                assert "hidden" in page.inner_text(f"[data-zone='hand[P{other}]']")
                assert page.locator(f".zones.yours [data-zone='hand[P{other}]']").count() == 0

            def choose(page, made):
                buttons = page.locator("button.move")
                buttons.nth(made % buttons.count()).click()
            moves = play_through_pages(pages, t, choose, most)
            assert moves == len(t.moves) and t.state.is_terminal()
            for page in pages.values():
                assert "Game over" in page.inner_text("#table") and page.errors == []
                assert page.evaluate("window.notReloaded === true")


def test_undo_and_the_lobby_in_the_browser(browser):
    """Against a bot: a move, the bot's reply, Undo takes both back (as at the terminal); the
    lobby's form starts a table and links its seat's page."""
    import argparse
    from referee.interpreter.web.serve import lobby_games
    from .conftest import ROOT
    t = table("tic-tac-toe", seed=3, kinds={2: "first"})
    games = lobby_games(argparse.Namespace(files=[str(ROOT / "games" / "kuhn-poker.rules")], option=None, param=None,
                                           log_dir=None))
    with RunningServer([t], lobby_games=games, lobby_token="L" * 32) as running:
        page = browser.new_context().new_page()
        page.goto(running.url(t, 1))
        assert page.is_disabled("#undo")
        page.locator("svg.board g[data-move='b2']").click()
        page.wait_for_function("() => document.getElementById('table').dataset.version === '2'", timeout=STEP_TIMEOUT)
        assert page.locator("svg.board text.mark").count() == 2 and page.is_enabled("#undo")
        page.click("#undo")
        page.wait_for_function("() => document.getElementById('table').dataset.version === '3'", timeout=STEP_TIMEOUT)
        assert page.locator("svg.board text.mark").count() == 0 and t.moves == []

        lobby = browser.new_context().new_page()
        lobby.goto(f"{running.root}/lobby/{'L' * 32}")
        lobby.fill("input[name=bots]", "2=random")
        lobby.click("#lobby button[type=submit]")
        link = lobby.locator("#seats a").first
        link.wait_for(timeout=STEP_TIMEOUT)
        assert lobby.locator("#seats a").count() == 1
        lobby.goto(link.get_attribute("href"))
        assert "You are P1" in lobby.inner_text("#table") and "Kuhn" in lobby.title()
