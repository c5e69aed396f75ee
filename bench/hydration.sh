#!/usr/bin/env bash
# Times `tally today` and `tally history` on a database with ten years of drinks.
#
#   bench/hydration.sh [RUNS]
#
# Builds in release mode, fills a fresh database (about 8 drinks a day for 10 years), then runs
# each command RUNS times (default 30, after 3 warm-up runs) as a new process, the way a person
# or a script runs it, and prints the wall time of each: min, median, p95 and max in ms.
# Goal: under 50 ms each.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for product in tally tally-bench-fill; do
    swift build -c release --product "$product" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
done
bin=$(swift build -c release --show-bin-path)
db="$work/tally.sqlite"
"$bin/tally-bench-fill" "$db" 10 2026-11-20
ls -l "$db" | awk '{ printf "database: %.1f MB\n", $5 / 1048576 }'

# Late in the evening of the last filled day, so "today" has its drinks.
export TALLY_NOW=2026-11-20T21:00:00Z TALLY_DATABASE="$db"

python3 - "$bin/tally" "$runs" <<'PY'
import statistics, subprocess, sys, time
tally, runs = sys.argv[1], int(sys.argv[2])
commands = {
    "tally today": ["today"],
    "tally today --json": ["today", "--json"],
    "tally history": ["history"],
    "tally history --json": ["history", "--json"],
    "tally history --days 30 --month 2020-02": ["history", "--days", "30", "--month", "2020-02"],
}
print(f"{'command':42} {'min':>7} {'median':>7} {'p95':>7} {'max':>7}   (ms, {runs} runs)")
for name, args in commands.items():
    for _ in range(3):
        subprocess.run([tally, *args], check=True, stdout=subprocess.DEVNULL)
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run([tally, *args], check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    print(f"{name:42} {times[0]:7.1f} {statistics.median(times):7.1f} {p95:7.1f} {times[-1]:7.1f}")
PY
