"""Hand-written Python versions of some games in games/, used only as speed references by
benchmarks/compare.py. The engine never uses them. Each module has a `Game` class with the
engine's little interface: `Game().new_initial_state(seed)`, and states with `legal_moves()`,
`apply(move)`, `is_terminal()`, `current_player()`, `returns()`; `move_name(move)` gives the
name the engine uses for the same move.

The `*_numba.py` modules are the native anchors of issue 24 (benchmarks/native.py, which needs
the `native` extra): the same games by hand in Numba, `playouts(count, state)` playing a batch of
random games in one compiled call.
"""

# rules file name (without .rules) -> module name in this package
BY_RULES = {
    "tic-tac-toe": "tic_tac_toe",
    "connect-four": "connect_four",
}
