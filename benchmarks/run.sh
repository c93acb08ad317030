#!/usr/bin/env bash
# The headline numbers: random playouts per second for every game (referee bench).
# Usage: bash benchmarks/run.sh [SECONDS]   (run from the repository root; prints a Markdown table)
set -euo pipefail
seconds=${1:-5}
echo "| game | players | playouts/s | moves/s | mean moves per game |"
echo "|---|---|---|---|---|"
for spec in "tic-tac-toe 2" "connect-four 2" "continents 2" "continents 6" "solstis 2" "titicaca 2" "titicaca 5"; do
  set -- $spec
  referee bench "games/$1.rules" --players "$2" --seconds "$seconds" --json | python -c '
import json, sys
d = json.load(sys.stdin)
name = d["rules"].split("/")[-1].removesuffix(".rules")
row = (name, d["players"], d["playouts_per_second"], d["moves_per_second"], d["mean_moves_per_game"])
print("| %s | %d | %.1f | %.0f | %.1f |" % row)'
done
