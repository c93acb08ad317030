"""Connect four by hand in Numba, the "best we could write by hand" anchor of issue 24: the
rules of games/connect-four.rules over bitboards (each column 7 bits, 6 rows and a sentinel;
four in a row found by shifts), the whole random playout loop in one compiled call that plays a
batch of games. Moves are drawn with the engine's random stream (splitmix64,
interpreter/native/random_stream.py).

A move is a column 0..6 here; the Python reference (connect_four.py) numbers them 1..7.
"""
import numpy as np
from numba import njit

from referee.interpreter.native.random_stream import below

ROWS, COLUMNS, HEIGHT = 6, 7, 7
ONE = np.uint64(1)
# the shifts that step along a line: up a column, across a row, and the two diagonals
STEPS = (np.uint64(1), np.uint64(HEIGHT), np.uint64(HEIGHT - 1), np.uint64(HEIGHT + 1))


@njit(cache=True, inline="always")
def four_in_a_row(board):
    for step in STEPS:
        pairs = board & (board >> step)
        if pairs & (pairs >> (step + step)):
            return True
    return False


@njit(cache=True)
def play(state, moves, free):
    """One random game from the random state `state`: the columns played go into `moves`.
    Returns (the winner, 0 for a draw; the moves played; the next random state)."""
    boards = np.zeros(3, dtype=np.uint64)
    heights = np.empty(COLUMNS, dtype=np.int64)      # the next free bit of each column
    for column in range(COLUMNS):
        heights[column] = column * HEIGHT
    player = 1
    for ply in range(ROWS * COLUMNS):
        n = 0
        for column in range(COLUMNS):
            if heights[column] < column * HEIGHT + ROWS:
                free[n] = column
                n += 1
        k, state = below(state, n)
        column = free[k]
        moves[ply] = column
        board = boards[player] | (ONE << np.uint64(heights[column]))
        heights[column] += 1
        boards[player] = board
        if four_in_a_row(board):
            return player, ply + 1, state
        player = 3 - player
    return 0, ROWS * COLUMNS, state


@njit(cache=True)
def playouts(count, state):
    """`count` random games from the random state `state` (a uint64): (games won by nobody, by
    P1, by P2), the moves played in all, the next random state."""
    results = np.zeros(3, dtype=np.int64)
    moves = np.empty(ROWS * COLUMNS, dtype=np.int64)
    free = np.empty(COLUMNS, dtype=np.int64)
    played = 0
    for _ in range(count):
        winner, plies, state = play(state, moves, free)
        results[winner] += 1
        played += plies
    return results, played, state


def recorded(state):
    """One game's moves, as the Python reference numbers them (columns 1..7), and its winner."""
    moves = np.empty(ROWS * COLUMNS, dtype=np.int64)
    winner, plies, _ = play(np.uint64(state), moves, np.empty(COLUMNS, dtype=np.int64))
    return [int(m) + 1 for m in moves[:plies]], int(winner)
