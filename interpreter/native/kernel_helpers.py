"""What a rendered kernel (rules_source.py) calls: the board functions over the tables of
board_tables.py and membership in a list, with the engine's answers for none and the edges."""
import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

INT_NONE = np.iinfo(np.int64).min


@njit(cache=True)
def contains(items, x):
    for item in items:
        if item == x:
            return True
    return False


@njit(cache=True)
def board_at(at, row, col):
    """The cell at (row, col), -1 (none) off the board or for a none coordinate."""
    if row < 0 or col < 0 or row >= at.shape[0] or col >= at.shape[1]:
        return -1
    return at[row, col]


@njit(cache=True)
def toward(step, cell, direction):
    if cell < 0 or direction < 0:
        return -1
    return step[cell, direction]


@njit(cache=True)
def directions_of(directions, cell):
    if cell < 0:
        return directions[:0]
    return directions


@njit(cache=True)
def ray(step, cell, direction):
    """The cells from `cell` along `direction` to the edge, nearest first (stdlib.ray)."""
    out = np.empty(step.shape[0], dtype=np.int64)
    n = 0
    if cell >= 0 and direction >= 0:
        at = step[cell, direction]
        while at >= 0:
            out[n] = at
            n += 1
            at = step[at, direction]
    return out[:n]


@njit(cache=True)
def between(rows, cols, units, step, a, b):
    """The cells strictly between a and b on a line of the grid, else none (stdlib.between)."""
    if a < 0 or b < 0:
        return np.empty(0, dtype=np.int64)
    dr, dc = rows[b] - rows[a], cols[b] - cols[a]
    if (dr == 0 and dc == 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return np.empty(0, dtype=np.int64)
    n = max(abs(dr), abs(dc))
    direction = units[dr // n + 1, dc // n + 1]
    if direction < 0:
        return np.empty(0, dtype=np.int64)
    cells = ray(step, a, direction)
    if len(cells) < n:
        return np.empty(0, dtype=np.int64)
    return cells[:n - 1].copy()


@njit(cache=True)
def has_line(lines, bits, shifts, cells, length):
    """Whether `length` of the cells stand in a row along a line direction (stdlib.has_line):
    by shifts of the set as one word where the board fits one (bits, shifts: board_tables),
    else by walking each line from each cell."""
    if length <= 0:
        return True
    if len(cells) == 0 or length > len(cells):
        return False
    if shifts[0] >= 0:
        chosen = np.uint64(0)
        for cell in cells:
            chosen |= bits[cell]
        return line_in_word(shifts, chosen, length)
    marked = np.zeros(lines.shape[0], dtype=np.bool_)
    for cell in cells:
        marked[cell] = True
    for cell in cells:
        for j in range(lines.shape[1]):
            at, run = cell, 1
            while run < length:
                at = lines[at, j]
                if at < 0 or not marked[at]:
                    break
                run += 1
            if run >= length:
                return True
    return False


@njit(cache=True)
def has_line_word(shifts, chosen_count, length):
    """has_line of cells given as (their word, their number): words_source.py."""
    chosen, count = chosen_count
    if length <= 0:
        return True
    if count == 0 or length > count:
        return False
    return line_in_word(shifts, chosen, length)


@njit(cache=True)
def line_in_word(shifts, chosen, length):
    """Whether `length` of the word's cells stand in a row along one of the shifts."""
    for shift in shifts:
        starts = chosen
        for k in range(1, length):
            starts &= chosen >> np.uint64(k * shift)
            if not starts:
                break
        if starts:
            return True
    return False


@njit(cache=True)
def seat_bit(p, players):
    """A winner's bit in the WINNERS mask, -1 (flagged) for a value that is no seat."""
    return 1 << p if 1 <= p <= players else -1


@intrinsic
def address_as_pointer(typingctx, address):
    """An address (an int) as a pointer to int64s, for carray."""
    signature = types.CPointer(types.int64)(address)

    def codegen(context, builder, signature, arguments):
        return builder.inttoptr(arguments[0], context.get_value_type(signature.return_type))
    return signature, codegen


@njit(cache=True)
def unowned(array):
    """The same int64 cells, as an array that Numba does not reference-count: a kernel passes
    its state and move buffer to small functions millions of times, and each pass of an owned
    array costs two atomic updates of its count (a third of a card game's playout time). The
    caller keeps `array` alive while the view is used (`kept` after the last use)."""
    return carray(address_as_pointer(array.ctypes.data), array.shape[0])


@njit(cache=True)
def kept(*arrays):
    """Nothing: a use of the arrays whose unowned views were used until here, so that they are
    not freed before."""
    return len(arrays)
