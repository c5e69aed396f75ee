#!/usr/bin/env bash
# What open pages' live updates cost: an idle server's CPU with STREAMS streams open, and how
# long a change takes to reach every stream that follows it.
#
#   bench/streams.sh [STREAMS...]     (default: 1000 10000)
#
# Builds Tally in release (as installed), makes 50 people who share one ledger, and starts
# `tally serve` on SQLite. Half the streams follow the ledger, half their person's day, spread
# over the 50, each read as a browser's EventSource reads it (opened again a second after the
# server ends it, every 60 s). Then: the server's CPU over 20 idle seconds (from /proc), as a
# share of one core; one expense, and the time until every ledger stream named its new revision;
# a drink for each of the 50, and the time until every day stream named its own.
#
# Target (issue 38): 1,000 streams idle at ≤ 5 % of a core, a change seen by all within 2 s.
# TALLY_BIN measures that build; TALLY_BEFORE also measures that one, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_WITHOUT_BARE=1 . bench/lib.sh
ulimit -n 65536 2>/dev/null || true
python3 bench/streams.py "$tally" "${TALLY_BEFORE:-}" "$@"
