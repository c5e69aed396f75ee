#!/usr/bin/env bash
# How long the exact settle-up plan takes for 20 non-zero balances (target: under 100 ms), in a
# release build.
#
#   bench/spending.sh [RUNS]
#
# How many expenses per second the API records for one ledger is measured by bench/server.sh,
# beside the hydration figures.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product tally-bench-settle >/dev/null 2>&1 || swift build -c release --product tally-bench-settle
"$(swift build -c release --show-bin-path)/tally-bench-settle" "${1:-20}"
