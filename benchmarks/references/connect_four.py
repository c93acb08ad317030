"""Connect four by hand, the rules of games/connect-four.rules: two players drop pieces into
the 7 columns of an upright 6 x 7 grid, player 1 first; a piece falls to the lowest empty
row of its column; four of one's own pieces in a row (across, up or diagonally) wins; a full
board is a draw.

A move is a column number 1..7 (left to right), as in the rules file.
"""

ROWS = 6
COLUMNS = 7
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))    # (row step, column step)


def move_name(move):
    return str(move)


class Game:
    num_players = 2

    def new_initial_state(self, seed=0):
        return State()


class State:
    def __init__(self):
        self.board = [[0] * COLUMNS for _ in range(ROWS)]   # board[row][column], row 0 at the bottom
        self.heights = [0] * COLUMNS                         # pieces in each column
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
        return [column + 1 for column in range(COLUMNS) if self.heights[column] < ROWS]

    def apply(self, move):
        column = move - 1
        row = self.heights[column]
        self.board[row][column] = self.player
        self.heights[column] += 1
        self.moves_played += 1
        if self.makes_four(row, column):
            self.winner = self.player
            self.finished = True
        elif self.moves_played == ROWS * COLUMNS:
            self.finished = True
        else:
            self.player = 3 - self.player

    def makes_four(self, row, column):
        """Whether the piece at (row, column) stands in a line of four of its owner's pieces."""
        for row_step, column_step in DIRECTIONS:
            in_line = 1
            for sign in (1, -1):
                r, c = row + sign * row_step, column + sign * column_step
                while 0 <= r < ROWS and 0 <= c < COLUMNS and self.board[r][c] == self.player:
                    in_line += 1
                    r, c = r + sign * row_step, c + sign * column_step
            if in_line >= 4:
                return True
        return False

    def returns(self):
        return [1.0 if player == self.winner else 0.0 for player in (1, 2)]
