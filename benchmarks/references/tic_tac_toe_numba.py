"""Tic-tac-toe by hand in Numba, the "best we could write by hand" anchor of issue 24: the
rules of games/tic-tac-toe.rules over bitboards (a player's marks are the bits of one int), the
whole random playout loop in one compiled call that plays a batch of games. Moves are drawn with
the engine's random stream (splitmix64, interpreter/native/random_stream.py).

A cell is 0..8 in reading order of the rules grid (a1, b1, c1, a2, ... c3), as in tic_tac_toe.py.
"""
import numpy as np
from numba import njit

from referee.interpreter.native.random_stream import below

CELLS = 9
# the rows, the columns and the diagonals, as bits of cells
LINES = np.array([0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100,
                  0b100010001, 0b001010100], dtype=np.int64)


@njit(cache=True)
def play(state, moves, free):
    """One random game from the random state `state`: the cells played go into `moves`.
    Returns (the winner, 0 for a draw; the moves played; the next random state)."""
    marks = np.zeros(3, dtype=np.int64)
    taken = 0
    player = 1
    for ply in range(CELLS):
        n = 0
        for cell in range(CELLS):
            if not (taken >> cell) & 1:
                free[n] = cell
                n += 1
        k, state = below(state, n)
        cell = free[k]
        moves[ply] = cell
        taken |= 1 << cell
        mine = marks[player] | (1 << cell)
        marks[player] = mine
        for line in LINES:
            if mine & line == line:
                return player, ply + 1, state
        player = 3 - player
    return 0, CELLS, state


@njit(cache=True)
def playouts(count, state):
    """`count` random games from the random state `state` (a uint64): (games won by nobody, by
    P1, by P2), the moves played in all, the next random state."""
    results = np.zeros(3, dtype=np.int64)
    moves = np.empty(CELLS, dtype=np.int64)
    free = np.empty(CELLS, dtype=np.int64)
    played = 0
    for _ in range(count):
        winner, plies, state = play(state, moves, free)
        results[winner] += 1
        played += plies
    return results, played, state


def recorded(state):
    """One game's moves (cells), as the Python reference numbers them, and its winner."""
    moves = np.empty(CELLS, dtype=np.int64)
    winner, plies, _ = play(np.uint64(state), moves, np.empty(CELLS, dtype=np.int64))
    return [int(m) for m in moves[:plies]], int(winner)
