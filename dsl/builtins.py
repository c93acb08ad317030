"""Names every game can use without declaring them, with their types (for the checker).

Types are `Type` values (dsl/types.py), built once here; a standard function's signature gives
each parameter a type or a kind of argument ('list', 'zone', 'cell', 'enum', 'any', 'map', 'key', 'value'), and its
result a type in which T stands for the element type of the first argument.
"""
from .types import BOOL, INT, PLAYER, TEXT, ListOf, Named, OptionalOf

DIRECTION = Named("Direction")
ELEMENT = Named("T")        # (a marker of the signatures only: replaced, never compared with a game's type)
KEY, VALUE = Named("K"), Named("V")     # (the same, for a map's key and value types)

BUILTIN_VALUES = {
    "players": ListOf(PLAYER),       # the seats 1..N, in turn order
    "num_players": INT,
    "current": PLAYER,               # the player to move (in a turn: whose turn it is)
    "Player": ListOf(PLAYER),
    # the built-in enum Direction: its list of members, and each member (see BUILTIN_ENUMS)
    "Direction": ListOf(DIRECTION),
    **{d: DIRECTION for d in ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west")},
}

# the two names of the list of seats (`for p in players`, `for p in Player`)
SEAT_LISTS = ("players", "Player")

# The names of the types the language has, and words of its types that the parser reads as
# names in places: a declaration of one would hide it (E211).
BUILTIN_TYPES = ("int", "real", "bool", "text")
TYPE_WORDS = ("any", "none", "list", "zone")

# Enums every game has, name -> members in order. Direction, clockwise from north: a grid has
# all eight, a hex map the six but north and south (interpreter/boards.py gives their steps).
BUILTIN_ENUMS = {
    "Direction": ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west"),
}

# the kinds of argument that are no one type
LIST, ZONE, CELL, ENUM, ANY_VALUE = "list", "zone", "cell", "enum", "any"
MAP, MAP_KEY, MAP_VALUE = "map", "key", "value"     # (a map, and a key or a value of that map)
T, T_OR_NONE, LIST_OF_T, LIST_OF_LISTS_OF_T = ELEMENT, OptionalOf(ELEMENT), ListOf(ELEMENT), ListOf(ListOf(ELEMENT))

# name -> (parameter types or kinds, result type)
STDLIB_SIGNATURES = {
    "size": ((LIST,), INT),                     # number of items in a zone or list (characters of a text)
    "top": ((ZONE,), T_OR_NONE),                # the last item of a zone (the top of a pile/stack)
    "bottom": ((ZONE,), T_OR_NONE),             # the first item of a zone
    "next": ((PLAYER,), PLAYER),                # the next seat clockwise
    "previous": ((PLAYER,), PLAYER),
    "reversed": ((LIST,), LIST_OF_T),
    "pick": ((LIST,), T_OR_NONE),               # an item at random (the game's seeded source)
    "label": ((ANY_VALUE,), TEXT),              # the text a player sees for a value
    "abs": ((INT,), INT),
    # texts (a position in a notation, read in setup); positions count from 1, as in lists
    "char_at": ((TEXT, INT), OptionalOf(TEXT)),     # the character at a position, or none outside
    "split_text": ((TEXT, TEXT), ListOf(TEXT)),     # the parts between the separators
    "join": ((ListOf(TEXT), TEXT), TEXT),       # the texts, the separator between two
    "to_int": ((TEXT,), OptionalOf(INT)),       # the whole number a text writes, or none
    "text_of": ((INT,), TEXT),                  # a whole number written as a text
    # enums and lists of lists
    "index": ((ENUM,), INT),                    # an enum member's position in its enum, from 1
    "subsets": ((LIST, INT), LIST_OF_LISTS_OF_T),   # the sublists (of k items, if given), in order
    "flatten": ((LIST,), LIST_OF_T),            # the items of a list of lists (T: of the inner lists)
    # geometry and graphs on boards
    "neighbors": ((CELL,), LIST_OF_T),          # cells adjacent to a cell
    "adjacent": ((CELL, CELL), BOOL),
    "has_line": ((LIST, INT), BOOL),            # n cells of the list in a row along a board line
    "groups": ((LIST,), LIST_OF_LISTS_OF_T),    # connected components of a set of cells
    "largest_group": ((LIST,), LIST_OF_T),      # the largest one (first found on a tie)
    "reachable": ((LIST, LIST), LIST_OF_T),     # cells of arg 2 connected to arg 1 through arg 2
    "squares": ((LIST,), LIST_OF_LISTS_OF_T),   # 2x2 blocks of a grid fully inside the list
    "bordering": ((LIST,), LIST_OF_T),          # the cells next to the list's cells, not among them
    # directions on boards (T: the board of the first cell)
    "surrounding": ((CELL,), LIST_OF_T),        # the cells around: 8 on a grid, the 6 neighbours on a hex map
    "directions": ((CELL,), ListOf(DIRECTION)),     # the directions of the cell's board
    "toward": ((CELL, DIRECTION), T_OR_NONE),   # the next cell in a direction, or none
    "ray": ((CELL, DIRECTION), LIST_OF_T),      # the cells from a cell in a direction to the edge, nearest first
    "between": ((CELL, CELL), LIST_OF_T),       # the cells strictly between two cells on a line
    "distance": ((CELL, CELL), INT),            # steps from cell to cell: king moves on a grid, hex steps on a map (on places: routes, or none)
    # maps of values (K: the key type, V: the value type of the map; map_typing.py types them)
    "keys": ((MAP,), ListOf(KEY)),              # the keys, in the language's order of values
    "values": ((MAP,), ListOf(VALUE)),          # the values, in the order of their keys
    "get": ((MAP, MAP_KEY, MAP_VALUE), VALUE),      # the value of a key, or the default (arg 3) when there is none
    # maps of places and routes
    "connected": ((CELL, CELL, LIST), BOOL),    # whether a chain of the routes (arg 3) joins the places
}

# the functions whose last arguments may be left out: name -> how many it takes at least
FEWEST_ARGUMENTS = {"subsets": 1}
