"""The balance report of `referee analyze`: what N games between chosen bots say of a game.

The games are played by `simulate`'s machinery (play/simulate.py: simulate_game, with details:
the number of legal moves at each move and the moves played per seat and action); this module turns
their records into figures (`Tally.figures`), compares two files' figures (`compare`), and
writes them as text tables (`text_lines`) or a self-contained HTML page with plots
(`html_report`, with matplotlib). The statistics are small pure functions, first.
"""
from __future__ import annotations

import base64
import html
import io
import math
from collections import Counter

from . import coverage
from .report import Table, plain_lines

Z95 = 1.959963984540054          # the normal quantile of a two-sided 95 % interval


# ---- statistics ----------------------------------------------------------------------------

def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion: (low, high), (0, 1) without trials. Unlike
    p +- z*se it stays inside [0, 1] and keeps its coverage near 0 and 1."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    # at 0 or all successes the bound is exactly 0 or 1 (the formula's rounding misses it)
    return (0.0 if successes == 0 else centre - half, 1.0 if successes == trials else centre + half)


def binomial_log_pmf(k: int, n: int, p: float) -> float:
    if p == 0.0:
        return 0.0 if k == 0 else -math.inf
    if p == 1.0:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_test(successes: int, trials: int, p: float = 0.5) -> float:
    """The exact two-sided p-value of `successes` in `trials` if each succeeds with chance p:
    the chance of an outcome no more likely than the one seen (as scipy's binomtest)."""
    if trials == 0:
        return 1.0
    seen = binomial_log_pmf(successes, trials, p)
    # outcomes as likely as the one seen count too, whatever the rounding of their logs
    limit = seen + math.log1p(1e-7)
    total = sum(math.exp(value) for value in (binomial_log_pmf(k, trials, p) for k in range(trials + 1))
                if value <= limit)
    return min(1.0, total)


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a): a series below a + 1, a continued fraction above
    (Numerical Recipes' gammq), to about 1e-14."""
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        denominator = a
        for _ in range(10_000):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


def chi_square_p_value(statistic: float, df: int) -> float:
    """The chance that a chi-square variable of df degrees of freedom is at least `statistic`."""
    return regularized_upper_gamma(df / 2, statistic / 2)


def chi_square_uniform(counts) -> tuple:
    """Pearson's test that `counts` come from equal chances: (statistic, df, p-value)."""
    total, cells = sum(counts), len(counts)
    if total == 0 or cells < 2:
        return (0.0, max(0, cells - 1), 1.0)
    expected = total / cells
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return (statistic, cells - 1, chi_square_p_value(statistic, cells - 1))


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z_test(x1: int, n1: int, x2: int, n2: int) -> tuple:
    """Whether x1/n1 and x2/n2 differ: (z, two-sided p-value), pooled standard error."""
    if n1 == 0 or n2 == 0:
        return (0.0, 1.0)
    pooled = (x1 + x2) / (n1 + n2)
    error = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if error == 0:
        return (0.0, 1.0)
    z = (x1 / n1 - x2 / n2) / error
    return (z, normal_two_sided_p(z))


def mean_difference_test(a, b) -> tuple:
    """Whether two samples' means differ: (z, two-sided p-value), Welch's standard error with
    the normal distribution (the samples here are hundreds of games); (0, 1) when it cannot say."""
    if len(a) < 2 or len(b) < 2:
        return (0.0, 1.0)
    error = math.sqrt(variance(a) / len(a) + variance(b) / len(b))
    if error == 0:
        return (0.0, 1.0) if mean(a) == mean(b) else (math.copysign(math.inf, mean(a) - mean(b)), 0.0)
    z = (mean(a) - mean(b)) / error
    return (z, normal_two_sided_p(z))


def mean(values) -> float:
    return sum(values) / len(values)


def variance(values) -> float:
    """The sample variance (n - 1)."""
    centre = mean(values)
    return sum((v - centre) ** 2 for v in values) / (len(values) - 1)


def median(values) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def distribution(values):
    """min, median, mean, max and standard deviation of numbers, or None without any."""
    if not values:
        return None
    return {"min": min(values), "median": median(values), "mean": round(mean(values), 3),
            "max": max(values), "stdev": round(math.sqrt(variance(values)), 3) if len(values) > 1 else 0.0}


def nice_width(span: float, most: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... that cuts `span` into at most `most` parts."""
    width = 1
    while span / width > most:
        for factor in (2, 2.5, 2):
            width = int(width * factor)
            if span / width <= most:
                break
    return width


def histogram(values, most_bins: int = 20) -> list:
    """Whole numbers counted in bins of a round width: [{"from", "to" (inclusive), "count"}]."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = nice_width(high - low + 1, most_bins)
    start = low - low % width
    counts = Counter((v - start) // width for v in values)
    return [{"from": start + k * width, "to": start + (k + 1) * width - 1, "count": counts.get(k, 0)}
            for k in range((high - start) // width + 1)]


# ---- the figures of a set of games ------------------------------------------------------------

class Tally:
    """The records of simulate.simulate_game (with details) of one file, in seed order, added up."""

    def __init__(self, players: int, max_moves: int):
        self.players = players
        self.max_moves = max_moves
        self.games = 0
        self.finished = 0
        self.endless = []                       # seeds of the games stopped at max_moves
        self.errors = []                        # {"seed", "kind", "message", "moves"}
        self.wins = [0] * players               # a shared win counts for each winner
        self.sole_wins = [0] * players
        self.draws = 0
        self.lost = 0                           # games lost by every player (`finish lost`): not draws
        self.shared = 0                         # several winners, not one whole team
        self.team_wins = Counter()              # team label -> games its members won together
        self.lengths = []                       # of the finished games
        self.scores = [[] for _ in range(players)]
        self.returns = [[] for _ in range(players)]
        self.branching = []                     # per move number (from 1): legal-move counts
        self.actions = [Counter() for _ in range(players)]
        self.coverage = None

    def add(self, record):
        self.games += 1
        self.coverage = coverage.add(self.coverage, record["coverage"])
        for number, count in enumerate(record["branching"]):
            if number == len(self.branching):
                self.branching.append([])
            self.branching[number].append(count)
        for seat, played in record["actions"].items():
            self.actions[seat - 1].update(played)
        if record["error"] is not None:
            self.errors.append({"seed": record["seed"], "kind": record["error_kind"], "message": record["error"],
                                "moves": record["moves"]})
            return
        if not record["finished"]:
            self.endless.append(record["seed"])
            return
        self.finished += 1
        self.lengths.append(record["length"])
        winners = record["winners"]
        if record["outcome"] == "lost":
            self.lost += 1
        elif not winners:
            self.draws += 1
        elif record["outcome"] == "team":
            self.team_wins[record["team"]] += 1
        elif len(winners) > 1:
            self.shared += 1
        else:
            self.sole_wins[winners[0] - 1] += 1
        for p in winners:
            self.wins[p - 1] += 1
        for p, value in enumerate(record["scores"]):
            self.scores[p].append(value)
        for p, value in enumerate(record["returns"]):
            self.returns[p].append(value)

    def rate(self, count: int) -> dict:
        """A count of finished games, its share and its 95 % Wilson interval."""
        low, high = wilson_interval(count, self.finished)
        share = count / self.finished if self.finished else None
        return {"count": count, "rate": rounded(share), "interval": [round(low, 4), round(high, 4)]}

    def seat_balance(self) -> dict:
        """Seat 1's share of the games one seat won alone, tested against 1/N (exact binomial),
        and all seats' sole wins against equal chances (chi-square)."""
        decisive = sum(self.sole_wins)
        first = self.sole_wins[0]
        low, high = wilson_interval(first, decisive)
        statistic, df, p_value = chi_square_uniform(self.sole_wins)
        return {
            "decisive_games": decisive, "first_seat_wins": first, "expected_share": round(1 / self.players, 4),
            "first_seat_share": rounded(first / decisive if decisive else None),
            "interval": [round(low, 4), round(high, 4)],
            "p_value": p_value_of(binomial_test(first, decisive, 1 / self.players)),
            "test": "exact two-sided binomial test of seat 1's sole wins against 1/N",
            "all_seats": {"chi_square": round(statistic, 4), "df": df, "p_value": p_value_of(p_value),
                          "test": "Pearson's chi-square of every seat's sole wins against equal chances"},
        }

    def branching_figures(self) -> dict:
        decisions = [count for counts in self.branching for count in counts]
        width = nice_width(len(self.branching), 12) if self.branching else 1
        buckets = []
        for start in range(0, len(self.branching), width):
            counts = [c for number in range(start, min(start + width, len(self.branching))) for c in self.branching[number]]
            buckets.append({"from": start + 1, "to": min(start + width, len(self.branching)), "decisions": len(counts),
                            "mean": round(mean(counts), 3), "min": min(counts), "max": max(counts)})
        return {"mean": round(mean(decisions), 3) if decisions else None, "max": max(decisions, default=None),
                "by_move_number": buckets,
                "note": "legal moves at each decision, over the games that reached that move number"}

    def figures(self) -> dict:
        by_kind = Counter(error["kind"] for error in self.errors)
        total_actions = Counter()
        for played in self.actions:
            total_actions.update(played)
        return {
            "games": self.games, "finished": self.finished,
            "endless": {"count": len(self.endless), "max_moves": self.max_moves, "seeds": self.endless[:20]},
            "errors": {"count": len(self.errors), "dead_ends": by_kind.get("dead-end", 0), "by_kind": dict(by_kind),
                       "first": self.errors[0] if self.errors else None},
            "seats": {str(p): {"wins": self.wins[p - 1], "sole_wins": self.sole_wins[p - 1],
                               **without_count(self.rate(self.wins[p - 1]))} for p in range(1, self.players + 1)},
            "seat_balance": self.seat_balance(),
            "draws": self.rate(self.draws),
            "shared_wins": self.rate(self.shared),
            **({"lost": self.rate(self.lost)} if self.lost else {}),
            **({"team_wins": {team: self.rate(count) for team, count in sorted(self.team_wins.items())}}
               if self.team_wins else {}),
            "length": {**(distribution(self.lengths) or {}), "histogram": histogram(self.lengths)}
            if self.lengths else None,
            "branching": self.branching_figures(),
            "actions": {"total": dict(total_actions.most_common()),
                        "by_seat": {str(p): dict(self.actions[p - 1].most_common())
                                    for p in range(1, self.players + 1)}},
            "scores": {str(p): distribution(self.scores[p - 1]) for p in range(1, self.players + 1)}
            if self.finished else None,
            "returns": {str(p): distribution(self.returns[p - 1]) for p in range(1, self.players + 1)}
            if self.finished else None,
        }


def rounded(value, digits=4):
    return None if value is None else round(value, digits)


def without_count(rate: dict) -> dict:
    return {key: value for key, value in rate.items() if key != "count"}


def p_value_of(p: float) -> float:
    """Rounded for reading, but a tiny p-value stays above 0 (it is never exactly 0)."""
    return float(f"{p:.4g}")


def compare(variant: Tally, base: Tally) -> dict:
    """What changed from `base` to `variant`: each seat's win rate, draws, shared wins and
    endless games (two-proportion z-tests) and the mean length (Welch), with p-values."""
    def proportion(x1, n1, x2, n2):
        z, p = two_proportion_z_test(x1, n1, x2, n2)
        return {"variant": rounded(x1 / n1 if n1 else None), "base": rounded(x2 / n2 if n2 else None),
                "change": rounded(x1 / n1 - x2 / n2 if n1 and n2 else None), "z": round(z, 3), "p_value": p_value_of(p)}
    seats = min(variant.players, base.players)
    z, p = mean_difference_test(variant.lengths, base.lengths)
    return {
        "win_rates": {str(s): proportion(variant.wins[s - 1], variant.finished, base.wins[s - 1], base.finished)
                      for s in range(1, seats + 1)},
        "draws": proportion(variant.draws, variant.finished, base.draws, base.finished),
        "shared_wins": proportion(variant.shared, variant.finished, base.shared, base.finished),
        "endless": proportion(len(variant.endless), variant.games, len(base.endless), base.games),
        "mean_length": {"variant": rounded(mean(variant.lengths) if variant.lengths else None, 3),
                        "base": rounded(mean(base.lengths) if base.lengths else None, 3),
                        "change": rounded(mean(variant.lengths) - mean(base.lengths), 3)
                        if variant.lengths and base.lengths else None,
                        "z": round(z, 3) if math.isfinite(z) else None, "p_value": p_value_of(p)},
        "tests": "two-proportion z-tests (pooled); the mean length by Welch's z; two-sided p-values",
    }


# ---- text ----------------------------------------------------------------------------------

def percent(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def interval_text(interval) -> str:
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def p_text(p) -> str:
    return f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"


def text_lines(figures: dict) -> list:
    """The terminal summary of one file's figures (analyze's JSON "figures"): lines and
    console.Tables."""
    f = figures
    lines = [f"games {f['games']} · finished {f['finished']} · endless {f['endless']['count']} "
             f"(stopped at --max-moves {f['endless']['max_moves']}) · runtime errors {f['errors']['count']} "
             f"(dead ends {f['errors']['dead_ends']})", ""]
    rows = [[f"P{p}", s["wins"], s["sole_wins"], percent(s["rate"]), interval_text(s["interval"])]
            for p, s in f["seats"].items()]
    for name in ("draws", "shared_wins", "lost"):
        if name in f:
            rows.append([name.replace("_", " "), f[name]["count"], "", percent(f[name]["rate"]),
                         interval_text(f[name]["interval"])])
    for team, rate in f.get("team_wins", {}).items():
        rows.append([f"team {team}", rate["count"], "", percent(rate["rate"]), interval_text(rate["interval"])])
    lines.append(Table(["seat", "wins", "alone", "win rate", "95% interval"], rows))
    balance = f["seat_balance"]
    lines += ["", f"first seat: {balance['first_seat_wins']} of the {balance['decisive_games']} games won by one "
                  f"seat alone = {percent(balance['first_seat_share'])} {interval_text(balance['interval'])}",
              f"  against {percent(balance['expected_share'])} if the seats were equal: p = "
              f"{p_text(balance['p_value'])} (exact binomial)"]
    every = balance["all_seats"]
    if len(f["seats"]) > 2:
        lines.append(f"all seats: chi-square {every['chi_square']:.2f}, df {every['df']}, p = {p_text(every['p_value'])}")
    if f["length"]:
        length = f["length"]
        lines += ["", f"length in moves: min {length['min']} · median {length['median']:g} · mean {length['mean']:g} · "
                      f"max {length['max']} · stdev {length['stdev']:g}"]
        most = max(b["count"] for b in length["histogram"])
        for b in length["histogram"]:
            lines.append((f"  {span_text(b):>11}  {b['count']:>6}  " + "#" * round(40 * b["count"] / most)).rstrip())
    branching = f["branching"]
    if branching["by_move_number"]:
        lines += ["", f"legal moves per decision (mean {branching['mean']:g}, max {branching['max']}), by move number:"]
        lines.append(Table(["moves", "decisions", "mean", "min", "max"],
                           [[span_text(b), b["decisions"], f"{b['mean']:.1f}", b["min"], b["max"]]
                            for b in branching["by_move_number"]], indent="  "))
    actions = f["actions"]
    if actions["total"]:
        seats = list(actions["by_seat"])
        lines += ["", "moves played by action:"]
        lines.append(Table(["action", *[f"P{p}" for p in seats], "all"],
                           [[name, *[actions["by_seat"][p].get(name, 0) for p in seats], total]
                            for name, total in actions["total"].items()], indent="  "))
    if f["scores"]:
        lines += ["", "scores at the end:"]
        lines.append(Table(["seat", "min", "median", "mean", "max"],
                           [[f"P{p}", f"{d['min']:g}", f"{d['median']:g}", f"{d['mean']:g}", f"{d['max']:g}"]
                            for p, d in f["scores"].items() if d], indent="  "))
    error = f["errors"]["first"]
    if error:
        lines += ["", f"first runtime error ({error['kind']}): seed {error['seed']}, at move {len(error['moves'])}:"]
        lines += ["  " + line for line in error["message"].splitlines()]
    return lines


def span_text(bucket) -> str:
    return f"{bucket['from']}" if bucket["from"] == bucket["to"] else f"{bucket['from']}-{bucket['to']}"


def comparison_lines(change: dict) -> list:
    rows = [[f"P{p} win rate", percent(c["base"]), percent(c["variant"]), change_text(c["change"]), p_text(c["p_value"])]
            for p, c in change["win_rates"].items()]
    for name in ("draws", "shared_wins", "endless"):
        c = change[name]
        rows.append([name.replace("_", " "), percent(c["base"]), percent(c["variant"]), change_text(c["change"]),
                     p_text(c["p_value"])])
    c = change["mean_length"]
    rows.append(["mean length", f"{c['base']:g}" if c["base"] is not None else "n/a",
                 f"{c['variant']:g}" if c["variant"] is not None else "n/a",
                 f"{c['change']:+g}" if c["change"] is not None else "n/a", p_text(c["p_value"])])
    return [Table(["", "base", "variant", "change", "p-value"], rows), f"({change['tests']})"]


def change_text(value) -> str:
    return "n/a" if value is None else f"{100 * value:+.1f} pts"


# ---- HTML ------------------------------------------------------------------------------------

class NoMatplotlib(Exception):
    """--html needs matplotlib, which is not installed."""


def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise NoMatplotlib("--html draws its plots with matplotlib, which is not installed: "
                           "pip install 'referee[report]' (or pip install matplotlib)") from None
    matplotlib.use("Agg")               # no display: files only
    import matplotlib.pyplot as plt
    return plt


def png(plt, figure) -> str:
    """A figure as an <img> of its PNG, embedded (base64): the page needs no other file."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=72, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="" src="data:image/png;base64,{data}">'


def plots(plt, f: dict, label: str) -> list:
    """(title, <img>) of each plot of one file's figures (label: what follows each title)."""
    shown = []
    seats = list(f["seats"])
    figure, axes = plt.subplots(figsize=(6, 3))
    rates = [100 * (f["seats"][p]["rate"] or 0) for p in seats]
    errors = [[r - 100 * f["seats"][p]["interval"][0] for p, r in zip(seats, rates)],
              [100 * f["seats"][p]["interval"][1] - r for p, r in zip(seats, rates)]]
    axes.bar([f"P{p}" for p in seats], rates, yerr=errors, capsize=4, color="#4c72b0")
    axes.set_ylabel("win rate (%)")
    if "team_wins" not in f:                    # a seat's even share of the games won alone
        axes.axhline(100 * (1 - (f["draws"]["rate"] or 0) - (f["shared_wins"]["rate"] or 0)) / len(seats),
                     color="grey", linestyle="--", linewidth=1, label="equal seats")
        axes.legend(loc="upper right", fontsize="small")
    shown.append((f"Win rate per seat, 95 % intervals{label}", png(plt, figure)))
    if f["length"]:
        figure, axes = plt.subplots(figsize=(6, 3))
        bins = f["length"]["histogram"]
        axes.bar([b["from"] for b in bins], [b["count"] for b in bins], width=bins[0]["to"] - bins[0]["from"] + 1,
                 align="edge", color="#55a868", edgecolor="white")
        axes.set_xlabel("moves")
        axes.set_ylabel("games")
        shown.append((f"Game length{label}", png(plt, figure)))
    buckets = f["branching"]["by_move_number"]
    if buckets:
        figure, axes = plt.subplots(figsize=(6, 3))
        middle = [(b["from"] + b["to"]) / 2 for b in buckets]
        axes.fill_between(middle, [b["min"] for b in buckets], [b["max"] for b in buckets], color="#c44e52", alpha=0.2,
                          label="min-max")
        axes.plot(middle, [b["mean"] for b in buckets], color="#c44e52", marker="o", label="mean")
        axes.set_xlabel("move number")
        axes.set_ylabel("legal moves")
        axes.legend(loc="upper right", fontsize="small")
        shown.append((f"Branching factor over the game{label}", png(plt, figure)))
    actions = f["actions"]
    if actions["total"]:
        names = list(actions["total"])[:15]
        figure, axes = plt.subplots(figsize=(6, 0.8 + 0.35 * len(names) * 1.5))
        height = 0.8 / len(seats)
        for k, p in enumerate(seats):
            axes.barh([i + k * height for i in range(len(names))], [actions["by_seat"][p].get(n, 0) for n in names],
                      height=height, label=f"P{p}")
        axes.set_yticks([i + 0.4 - height / 2 for i in range(len(names))], names)
        axes.invert_yaxis()
        axes.set_xlabel("moves played")
        axes.legend(loc="lower right", fontsize="small")
        shown.append((f"Moves played by action and seat{label}", png(plt, figure)))
    return shown


def text_block(lines) -> str:
    """Lines and tables of the terminal summary as a <pre> block."""
    return "<pre>" + html.escape("\n".join(plain_lines(lines))) + "</pre>"


def comparison_plot(plt, report) -> str:
    """Each seat's win rate (and the draws) in the base and in this file, side by side."""
    figure, axes = plt.subplots(figsize=(6, 3))
    for shift, (label, f) in ((-0.2, ("base", report["against"]["figures"])), (0.2, ("this file", report["figures"]))):
        rows = [*f["seats"].values(), f["draws"]]
        rates = [100 * (row["rate"] or 0) for row in rows]
        low = [r - 100 * row["interval"][0] for r, row in zip(rates, rows)]
        high = [100 * row["interval"][1] - r for r, row in zip(rates, rows)]
        axes.bar([k + shift for k in range(len(rows))], rates, width=0.4, yerr=[low, high], capsize=3, label=label)
    axes.set_xticks(range(len(rows)), [*(f"P{p}" for p in report["figures"]["seats"]), "draws"])
    axes.set_ylabel("share of finished games (%)")
    axes.legend(loc="upper right", fontsize="small")
    return png(plt, figure)


def score_plot(plt, samples, label: str):
    """A box per seat of the scores at the end of the finished games."""
    figure, axes = plt.subplots(figsize=(6, 3))
    axes.boxplot(samples)
    axes.set_xticks(range(1, len(samples) + 1), [f"P{p}" for p in range(1, len(samples) + 1)])
    axes.set_ylabel("score at the end")
    return (f"Score distribution per seat{label}", png(plt, figure))


def html_report(report: dict, scores=None) -> str:
    """The whole page: the description, the summary tables, the plots (and the comparison).
    scores: {"this file" / "base": each seat's scores at the end}, for their box plots."""
    plt = pyplot()
    parts = [f"<h1>{html.escape(report['title'])}: balance report</h1>",
             f"<p>{html.escape(report['description'])}</p>"]
    runs = [("this file", report["figures"])]
    if report.get("against"):
        runs.append(("base", report["against"]["figures"]))
    for label, figures in runs:
        if len(runs) > 1:
            parts.append(f"<h2>{html.escape(label)}</h2>")
        parts.append(text_block(text_lines(figures)))
        which = f" ({label})" if len(runs) > 1 else ""
        shown = plots(plt, figures, which)
        samples = (scores or {}).get(label)
        if samples and all(samples) and any(min(s) != max(s) for s in samples):
            shown.append(score_plot(plt, samples, which))
        for title, image in shown:
            parts.append(f"<h3>{html.escape(title)}</h3>{image}")
    if report.get("against"):
        parts.append("<h2>What changed from the base</h2>")
        parts.append(text_block(comparison_lines(report["against"]["changes"])))
        parts.append(f"<h3>Win rates, base and this file</h3>{comparison_plot(plt, report)}")
    if report.get("coverage"):
        parts.append("<h2>Rule coverage</h2>" + text_block(coverage.render(report["coverage"])))
    style = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em}"
             "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}img{max-width:100%}")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(report['title'])}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")
