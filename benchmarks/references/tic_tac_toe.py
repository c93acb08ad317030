"""Tic-tac-toe by hand, the rules of games/tic-tac-toe.rules: two players mark the cells of a
3 x 3 grid, player 1 first; three in a row (across, down or diagonally) wins; a full board
is a draw.

A move is a cell index 0..8 in reading order of the rules grid: a1, b1, c1, a2, ... c3.
"""

SIZE = 3
CELLS = SIZE * SIZE
LINES = (
    [[row * SIZE + col for col in range(SIZE)] for row in range(SIZE)]
    + [[row * SIZE + col for row in range(SIZE)] for col in range(SIZE)]
    + [[i * SIZE + i for i in range(SIZE)], [i * SIZE + SIZE - 1 - i for i in range(SIZE)]]
)
LINES_THROUGH = [[line for line in LINES if cell in line] for cell in range(CELLS)]


def move_name(move):
    return "abc"[move % SIZE] + str(move // SIZE + 1)


class Game:
    num_players = 2

    def new_initial_state(self, seed=0):
        return State()


class State:
    def __init__(self):
        self.board = [0] * CELLS       # 0: empty, else the player who marked it
        self.player = 1
        self.winner = None
        self.finished = False
        self.moves_played = 0

    def current_player(self):
        return self.player

    def is_terminal(self):
        return self.finished

    def legal_moves(self):
        if self.finished:
            return []
        return [cell for cell in range(CELLS) if self.board[cell] == 0]

    def apply(self, move):
        board = self.board
        board[move] = self.player
        self.moves_played += 1
        for line in LINES_THROUGH[move]:
            if all(board[cell] == self.player for cell in line):
                self.winner = self.player
                self.finished = True
                return
        if self.moves_played == CELLS:
            self.finished = True
            return
        self.player = 3 - self.player

    def returns(self):
        return [1.0 if player == self.winner else 0.0 for player in (1, 2)]
