"""resolve_input: what a line typed at `referee play`'s prompt means, as a value (a move to
play, a command or a refusal), without a game, a terminal or any output."""
from __future__ import annotations

from referee.interpreter.cli.session import Command, Play, Refusal, resolve_input

CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def test_a_name_is_found_whatever_its_case_and_spaces():
    assert resolve_input("B2", CELLS) == Play("b2")
    assert resolve_input("b 2", CELLS) == Play("b2")
    assert resolve_input("Move  King to C3", ["move king to c3", "pass"]) == Play("move king to c3")


def test_spaces_left_out_only_when_that_names_one_move():
    assert resolve_input("ab", ["a b", "a  b c"]) == Play("a b")
    # two names squeezed to the same word: neither is taken, the text goes to the game as typed
    assert resolve_input("ab", ["a b", "a  b"]) == Play("ab")
    # a name typed as it is comes before one with its spaces left out
    assert resolve_input("xy", ["x y", "xy"]) == Play("xy")


def test_commands_and_their_short_words():
    for typed, command in [("quit", "quit"), ("exit", "quit"), ("Q", "quit"), ("help", "help"), ("?", "help"),
                           ("h", "help"), ("moves", "moves"), ("m", "moves"), ("view", "view"), ("V", "view"),
                           ("undo", "undo"), ("u", "undo")]:
        assert resolve_input(typed, CELLS) == Command(command)


def test_a_move_named_like_a_command_is_the_move():
    assert resolve_input("m", ["m", "n"]) == Play("m")
    assert resolve_input("undo", ["undo", "pass"]) == Play("undo")


def test_a_few_words_of_one_name():
    names = ["place on F@6.5", "place on F@7.5", "pass"]
    assert resolve_input("F@6.5", names) == Play("place on F@6.5")
    refusal = resolve_input("place", names)
    assert refusal == Refusal("refused: 'place' is in 2 moves: 1. place on F@6.5; 2. place on F@7.5 "
                              "(type more of the name, or its number)")


def test_a_few_words_in_more_than_six_moves_are_listed_six_and_an_ellipsis():
    names = [f"take {n}" for n in range(1, 9)]
    refusal = resolve_input("take", names)
    assert isinstance(refusal, Refusal)
    assert "is in 8 moves: 1. take 1; " in refusal.text and "6. take 6 ... (type more" in refusal.text


def test_a_number_is_a_place_in_the_list():
    assert resolve_input("5", CELLS) == Play("b2")
    assert resolve_input("#9", CELLS) == Play("c3")
    assert resolve_input("007", CELLS) == Play("a3")
    assert resolve_input("10", CELLS) == Refusal("refused: there is no move number 10 (choose 1..9, or type 'moves')")
    assert resolve_input("0", CELLS) == Refusal("refused: there is no move number 0 (choose 1..9, or type 'moves')")
    huge = "9" * 5000
    refusal = resolve_input(huge, CELLS)
    assert isinstance(refusal, Refusal) and refusal.text.startswith("refused: there is no move number 99999999")


def test_where_moves_are_named_by_numbers_a_bare_number_is_a_name():
    columns = ["1", "2", "3", "4", "5", "6", "7"]
    assert resolve_input("3", columns) == Play("3")
    assert resolve_input("#3", columns) == Play("3")
    assert resolve_input("9", columns) == Refusal(
        "refused: no move is named 9 now (moves are named by numbers here: '#9' is the move at that place in the list)")


def test_other_text_goes_to_the_game_as_typed():
    # the game finds a move by it or refuses it with its reason (IllegalMove)
    assert resolve_input("d4", CELLS) == Play("d4")
    assert resolve_input("#x", CELLS) == Play("#x")
    assert resolve_input("anything", []) == Play("anything")
