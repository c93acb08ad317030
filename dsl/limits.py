"""Every size limit of the language in one place (documented in docs/language.md, "Limits").

A rules file that goes beyond one is refused with a located diagnostic; a game that goes
beyond one while it is played stops with a located runtime error. None of them is near what a
board or card game needs: they are there so that no input makes the tools hang or run out of
memory.
"""

MAX_FILE_BYTES = 500_000        # a rules file (and each file it extends)
MAX_TOKENS = 50_000             # words and symbols of a rules file (parsing costs by the word)
MAX_EXTENDS = 16                # files in a chain of 'extends' (the file itself included)
MAX_NESTING = 100               # blocks, brackets, operators and terms nested in one another
MAX_INT_DIGITS = 18             # digits of a number written in a rules file
MAX_PLAYERS = 100               # players of a game
MAX_BOARD_CELLS = 10_000        # cells of one board (rows x columns for a grid)
MAX_RANGE = 1_000_000           # numbers in a range a..b that is visited (binders, aggregates, for)
MAX_COMPONENTS = 100_000        # components a game creates in all
MAX_LIST = 1_000_000            # items of a list joined with '+' (doubled round after round, it would fill the memory)
MAX_LOG_LINE = 100_000          # characters of a line the rules log (the rest is cut; the line's length is work)
MAX_LOG_BYTES = 50_000_000      # a game log read by 'referee replay'
MAX_STEP_ROUNDS = 1_000_000     # loop rounds (while, repeat, for) in one step: a move, the setup
MAX_STEP_WORK = 100_000_000    # units of work in one step: items aggregates go through, calls that may multiply
MAX_DECISION_DEPTH = 16         # decisions nested in one step (a move played in the effect of a move played in ...)
MAX_LEGAL_MOVES = 100_000       # legal moves of one action at one decision
MAX_NUMBER = 10 ** 18           # size of a number stored in a variable (either sign)
MAX_TEXT = 100_000              # characters of a text param's value, and of a text 'join' makes
MAX_PROMPT_LINE = 10_000        # characters of a line read at the 'referee play' prompt (the rest is skipped)
