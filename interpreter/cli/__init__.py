"""The `referee` command line:

    main.py       the entry point (`run`, `main`): one command run, what stops it as an exit code
    arguments.py  the parser, from the table of commands (COMMANDS) and the argument groups they share
    errors.py     the exit codes, and CliError / UsageError that carry them to main
    common.py     what the commands share: output, loading a game, describing it and its result
    session.py    the interactive play session (resolve_input: what a human typed, as a value)
    seats.py      --bot: who plays which seat
    workers.py    where the games are played: here, in worker processes (--jobs) or on --cluster
    commands/     one module per command or small family, run when the command is
    console.py    plain text or colour (plain.py, colour.py), decided once per command
    progress.py, completion.py   the progress line on stderr; the shell's completion script
"""
