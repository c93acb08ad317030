"""Games in the browser: `referee serve` (docs/web.md).

    table.py   a table without HTTP: its game, seats and tokens, bots, undo, log
    html.py    a seat's observation drawn as HTML and SVG, as the terminal draws it
    app.py     the Starlette application: pages, state.json, moves, event streams, the lobby
    serve.py   the command: its arguments, the tables, their addresses, uvicorn
    static/    the page's script and stylesheet (no build step)

Starlette and uvicorn (the `web` extra) are imported by app.py and serve.py only; table.py and
html.py need neither.
"""
