"""Names every game can use without declaring them, with their types (for the checker).

Types are strings: 'int', 'bool', 'text', 'none', 'Player', an enum, component or board name,
'list[T]', 'zone[T]', and 'any' where the checker does not look further.
"""

BUILTIN_VALUES = {
    "players": "list[Player]",       # the seats 1..N, in turn order
    "num_players": "int",
    "current": "Player",             # the player to move (in a turn: whose turn it is)
    "Player": "list[Player]",
    # the built-in enum Direction: its list of members, and each member (see BUILTIN_ENUMS)
    "Direction": "list[Direction]",
    **{d: "Direction" for d in ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west")},
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

# name -> (parameter types, result type); 'T' stands for the element type of the first argument.
STDLIB_SIGNATURES = {
    "size": (("list",), "int"),                   # number of items in a zone or list (characters of a text)
    "top": (("zone",), "T?"),                   # the last item of a zone (the top of a pile/stack)
    "bottom": (("zone",), "T?"),                # the first item of a zone
    "next": (("Player",), "Player"),            # the next seat clockwise
    "previous": (("Player",), "Player"),
    "reversed": (("list",), "list[T]"),
    "pick": (("list",), "T?"),                  # an item at random (the game's seeded source)
    "label": (("any",), "text"),                # the text a player sees for a value
    "abs": (("int",), "int"),
    # texts (a position in a notation, read in setup); positions count from 1, as in lists
    "char_at": (("text", "int"), "text?"),      # the character at a position, or none outside
    "split_text": (("text", "text"), "list[text]"),  # the parts between the separators
    "join": (("list[text]", "text"), "text"),   # the texts, the separator between two
    "to_int": (("text",), "int?"),              # the whole number a text writes, or none
    "text_of": (("int",), "text"),              # a whole number written as a text
    # enums and lists of lists
    "index": (("enum",), "int"),                # an enum member's position in its enum, from 1
    "subsets": (("list", "int"), "list[list[T]]"),  # the sublists (of k items, if given), in order
    "flatten": (("list",), "list[T]"),          # the items of a list of lists (T: of the inner lists)
    # geometry and graphs on boards
    "neighbors": (("cell",), "list[T]"),        # cells adjacent to a cell
    "adjacent": (("cell", "cell"), "bool"),
    "has_line": (("list", "int"), "bool"),      # n cells of the list in a row along a board line
    "groups": (("list",), "list[list[T]]"),     # connected components of a set of cells
    "largest_group": (("list",), "list[T]"),    # the largest one (first found on a tie)
    "reachable": (("list", "list"), "list[T]"),  # cells of arg 2 connected to arg 1 through arg 2
    "squares": (("list",), "list[list[T]]"),    # 2x2 blocks of a grid fully inside the list
    "bordering": (("list",), "list[T]"),        # the cells next to the list's cells, not among them
    # directions on boards (T: the board of the first cell)
    "surrounding": (("cell",), "list[T]"),      # the cells around: 8 on a grid, the 6 neighbours on a hex map
    "directions": (("cell",), "list[Direction]"),  # the directions of the cell's board
    "toward": (("cell", "Direction"), "T?"),   # the next cell in a direction, or none
    "ray": (("cell", "Direction"), "list[T]"),  # the cells from a cell in a direction to the edge, nearest first
    "between": (("cell", "cell"), "list[T]"),   # the cells strictly between two cells on a line
    "distance": (("cell", "cell"), "int"),      # steps from cell to cell: king moves on a grid, hex steps on a map (on places: routes, or none)
    # maps of values (K: the key type, V: the value type of the map)
    "keys": (("map",), "list[K]"),              # the keys, in the language's order of values
    "values": (("map",), "list[V]"),            # the values, in the order of their keys
    "get": (("map", "key", "value"), "V"),      # the value of a key, or the default (arg 3) when there is none
    # maps of places and routes
    "connected": (("cell", "cell", "list"), "bool"),  # whether a chain of the routes (arg 3) joins the places
}

# the functions whose last arguments may be left out: name -> how many it takes at least
FEWEST_ARGUMENTS = {"subsets": 1}
