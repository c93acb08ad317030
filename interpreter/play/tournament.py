"""`referee tournament`: bots against each other, seats rotated, with win rates and ratings.

The schedule: every seating (an ordered choice of bots for the seats: each bot once at most
when there are as many bots as seats or more, else every bot at least once) is played once
per round, and round r deals the game of seed S+r to every seating, so that each bot sits in
each seat equally often, on the same deals. The games are played by `simulate`'s machinery
(simulate.simulate_game, in worker processes with --jobs), and this module turns their records
into figures: per bot its games, wins, draws and losses with the win rate's 95 % Wilson
interval, Bradley-Terry ratings fitted by maximum likelihood (on the Elo scale) with 95 %
bootstrap intervals, and a pairwise table.

Pairwise results, which the ratings are fitted to: in each game, each two seats held by
different bots are compared by their returns (the winner's 1 against 0 without declared
`returns`): the higher wins, equal returns are a draw (half a win each). A game stopped at
--max-moves is a draw between everybody; a game that hit a runtime error counts for nothing.
"""
from __future__ import annotations

import itertools
import math
import random

from ..tools.analyze import percent, interval_text, wilson_interval
from ..tools.report import Table

BOOTSTRAP_RESAMPLES = 200
ELO_SCALE = 400 / math.log(10)      # Elo points per unit of log-strength


# ---- the schedule ----------------------------------------------------------------------------

def labels_of(specs) -> list:
    """The names the report gives the bots: their specs, numbered where one is given twice."""
    counts = {spec: specs.count(spec) for spec in specs}
    seen = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(f"{spec} #{seen[spec]}" if counts[spec] > 1 else spec)
    return labels


MOST_SEATINGS = 10_000       # a round plays every seating: more would be a round of days


def seating_count(bots: int, players: int) -> int:
    """How many seatings `seatings` makes (counted without making them)."""
    if bots >= players:
        return math.perm(bots, players)
    # the ways to fill the seats using every bot (inclusion-exclusion over the bots left out)
    return sum((-1) ** k * math.comb(bots, k) * (bots - k) ** players for k in range(bots + 1))


def seatings(bots: int, players: int) -> list:
    """Every seating: a tuple of bot indexes, one per seat. The set is the same under any
    renaming of the bots and any reordering of the seats, so each bot has each seat equally
    often."""
    if bots >= players:
        return list(itertools.permutations(range(bots), players))
    return [seating for seating in itertools.product(range(bots), repeat=players) if len(set(seating)) == bots]


def schedule(games: int, seating_list: list, seed: int) -> list:
    """(seed, seating) of each game: whole rounds (at least `games` games in all), round r
    playing the seed S+r in every seating."""
    rounds = -(-games // len(seating_list))
    return [(seed + r, seating) for r in range(rounds) for seating in seating_list]


# ---- the figures -----------------------------------------------------------------------------

def comparisons(seating, record) -> list:
    """(bot a, bot b, a's score: 1, 0.5 or 0) for each two seats of different bots in one
    game (a before b in seat order)."""
    returns = record["returns"] if record["finished"] else [0.0] * len(seating)
    out = []
    for i, j in itertools.combinations(range(len(seating)), 2):
        a, b = seating[i], seating[j]
        if a != b:
            out.append((a, b, 1.0 if returns[i] > returns[j] else 0.0 if returns[i] < returns[j] else 0.5))
    return out


def game_result(bot, seating, record) -> str:
    """'win' (every winner is a seat of the bot), 'draw' (no winner, a win it shares with
    another bot, or a game stopped at --max-moves) or 'loss'."""
    seats = {p for p, b in enumerate(seating, start=1) if b == bot}
    winners = set(record["winners"]) if record["finished"] else set()
    if winners and winners <= seats:
        return "win"
    if not winners or winners & seats:
        return "draw"
    return "loss"


def mean_return(bot, seating, record) -> float:
    """The bot's return in one game (the mean of its seats' if it has several; 0 in a game
    stopped at --max-moves)."""
    returns = [record["returns"][p] if record["finished"] else 0.0 for p, b in enumerate(seating) if b == bot]
    return sum(returns) / len(returns)


def bradley_terry(bots: int, games: list) -> list:
    """Each bot's rating on the Elo scale (mean 0), by maximum likelihood of the Bradley-Terry
    model P(a beats b) = s_a / (s_a + s_b), fitted by Hunter's MM iterations (2004) to the
    pairwise results of `games` (lists of comparisons), draws as half a win each. A virtual
    draw between every two bots (a weak prior) keeps the rating of a bot that wins or loses
    every game finite, and the fit defined when two bots never met."""
    won = [0.5 * (bots - 1)] * bots
    met = [[0.0 if a == b else 1.0 for b in range(bots)] for a in range(bots)]
    for game in games:
        for a, b, score in game:
            won[a] += score
            won[b] += 1.0 - score
            met[a][b] += 1.0
            met[b][a] += 1.0
    strength = [1.0] * bots
    for _ in range(10_000):
        updated = [won[a] / sum(met[a][b] / (strength[a] + strength[b]) for b in range(bots) if b != a)
                   for a in range(bots)]
        centre = math.exp(sum(math.log(s) for s in updated) / bots)
        updated = [s / centre for s in updated]
        done = max(abs(math.log(u / s)) for u, s in zip(updated, strength)) < 1e-10
        strength = updated
        if done:
            break
    return [ELO_SCALE * math.log(s) for s in strength]


def bootstrap_intervals(bots: int, games: list, rng: random.Random, resamples: int = BOOTSTRAP_RESAMPLES) -> list:
    """(low, high) of each bot's rating: the 2.5 and 97.5 percentiles of the ratings fitted to
    `resamples` resamples of the games (with replacement)."""
    if not games:
        return [(0.0, 0.0)] * bots
    fitted = [bradley_terry(bots, [games[rng.randrange(len(games))] for _ in games]) for _ in range(resamples)]
    intervals = []
    for bot in range(bots):
        values = sorted(ratings[bot] for ratings in fitted)
        intervals.append((values[int(0.025 * (resamples - 1))], values[math.ceil(0.975 * (resamples - 1))]))
    return intervals


def figures(labels: list, played: list, seed: int) -> dict:
    """The report's figures from `played`: (seed, seating, record) of every game, in schedule
    order. The bootstrap draws from a generator seeded with `seed`: the same games give the
    same figures."""
    bots = len(labels)
    counted = [(seating, record) for _, seating, record in played if record["error"] is None]
    per_game = [comparisons(seating, record) for seating, record in counted]
    ratings = bradley_terry(bots, per_game)
    intervals = bootstrap_intervals(bots, per_game, random.Random(seed))
    players = len(played[0][1]) if played else 0
    rows = []
    for bot in range(bots):
        results = [game_result(bot, seating, record) for seating, record in counted if bot in seating]
        n, wins, draws = len(results), results.count("win"), results.count("draw")
        returns = [mean_return(bot, seating, record) for seating, record in counted if bot in seating]
        rows.append({"bot": labels[bot], "games": n, "wins": wins, "draws": draws, "losses": n - wins - draws,
                     "win_rate": round(wins / n, 4) if n else None,
                     "interval": [round(x, 4) for x in wilson_interval(wins, n)],
                     "score": round((wins + draws / 2) / n, 4) if n else None,
                     "mean_return": round(sum(returns) / n, 4) if n else None,
                     "elo": round(ratings[bot], 1), "elo_interval": [round(x, 1) for x in intervals[bot]],
                     "seats": {str(p): sum(1 for _, seating, _ in played if seating[p - 1] == bot)
                               for p in range(1, players + 1)}})
    pairwise = {a: {b: {"wins": 0, "draws": 0, "losses": 0} for b in labels if b != a} for a in labels}
    for game in per_game:
        for a, b, score in game:
            key_a, key_b = ("wins", "losses") if score == 1.0 else ("losses", "wins") if score == 0.0 else ("draws", "draws")
            pairwise[labels[a]][labels[b]][key_a] += 1
            pairwise[labels[b]][labels[a]][key_b] += 1
    for against in pairwise.values():
        for cell in against.values():
            total = cell["wins"] + cell["draws"] + cell["losses"]
            cell["score"] = round((cell["wins"] + cell["draws"] / 2) / total, 4) if total else None
    errors = [(s, seating, record) for s, seating, record in played if record["error"] is not None]
    return {"bots": rows, "pairwise": pairwise,
            "unfinished": sum(1 for _, _, record in played if record["error"] is None and not record["finished"]),
            "errors": {"count": len(errors),
                       "first": ({"seed": errors[0][0], "seats": [labels[b] for b in errors[0][1]],
                                  "message": errors[0][2]["error"], "moves": errors[0][2]["moves"]}
                                 if errors else None)},
            "ratings": f"Bradley-Terry by maximum likelihood, Elo scale, mean 0, one virtual draw per pair; "
                       f"95% intervals from {BOOTSTRAP_RESAMPLES} bootstrap resamples of the games"}


# ---- text ------------------------------------------------------------------------------------

def signed(value) -> str:
    return f"{value:+.0f}"


def text_lines(report: dict) -> list:
    f = report["figures"]
    lines = [report["description"], ""]
    lines.append(Table(["bot", "games", "wins", "draws", "losses", "win rate", "95% interval", "mean return", "Elo",
                        "95% interval"],
                       [[row["bot"], row["games"], row["wins"], row["draws"], row["losses"], percent(row["win_rate"]),
                         interval_text(row["interval"]),
                         "n/a" if row["mean_return"] is None else f"{row['mean_return']:+.3f}", signed(row["elo"]),
                         f"[{signed(row['elo_interval'][0])}, {signed(row['elo_interval'][1])}]"] for row in f["bots"]]))
    labels = [row["bot"] for row in f["bots"]]

    def cell(a, b):
        if a == b:
            return "-"
        c = f["pairwise"][a][b]
        return f"{c['wins']}-{c['draws']}-{c['losses']} {percent(c['score'])}"
    lines += ["", "pairwise (row against column: wins-draws-losses, score):"]
    lines.append(Table(["", *labels], [[a, *(cell(a, b) for b in labels)] for a in labels], indent="  "))
    lines += ["", f"ratings: {f['ratings']}"]
    if f["unfinished"]:
        lines.append(f"unfinished: {f['unfinished']} games stopped at --max-moves {report['max_moves']} (draws)")
    error = f["errors"]["first"]
    if error:
        lines += ["", f"runtime errors: {f['errors']['count']} games (not counted); the first: seed {error['seed']}, "
                      f"seats {' · '.join(error['seats'])}, at move {len(error['moves'] or [])}:"]
        lines += ["  " + line for line in error["message"].splitlines()]
    return lines
