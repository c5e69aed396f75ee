#!/usr/bin/env bash
# Times `tally today` and `tally history` on a database with ten years of drinks.
#
#   bench/hydration.sh [RUNS] [BEFORE]
#
# Builds `tally` in release mode twice, linked as installed (--static-swift-stdlib) and with the
# Swift libraries linked dynamically (plain `swift build -c release`), fills a fresh database
# (about 8 drinks a day for 10 years), then runs each command RUNS times (default 30, after 3
# warm-up runs) as a new process, the way a person or a script runs it, alternating the two
# builds, and prints wall times in ms. Goal: under 50 ms each. `tally --version`, which opens
# no database, shows what starting a process costs. BEFORE, a `tally` built from an earlier
# commit (copy it aside first), joins the same runs, so that a change shows its before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
before=${2:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # scratch-path, extra flags...
    local scratch=$1
    shift
    swift build -c release --scratch-path "$scratch" "$@" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
}
build .build --product tally-bench-fill
build .build --product tally
build .build-static --product tally --static-swift-stdlib
dynamic=$(swift build -c release --scratch-path .build --show-bin-path)/tally
static=$(swift build -c release --scratch-path .build-static --static-swift-stdlib --show-bin-path)/tally

db="$work/tally.sqlite"
"$(dirname "$dynamic")/tally-bench-fill" "$db" 10 2026-11-20
ls -l "$db" | awk '{ printf "database: %.1f MB\n", $5 / 1048576 }'

# Late in the evening of the last filled day, so "today" has its drinks.
export TALLY_NOW=2026-11-20T21:00:00Z TALLY_DATABASE="$db"

python3 - "$runs" "static:$static" "dynamic:$dynamic" ${before:+"before:$before"} <<'PY'
import statistics, subprocess, sys, time
runs = int(sys.argv[1])
builds = dict(arg.split(":", 1) for arg in sys.argv[2:])
commands = {
    "tally --version": ["--version"],
    "tally today": ["today"],
    "tally today --json": ["today", "--json"],
    "tally history": ["history"],
    "tally history --json": ["history", "--json"],
    "tally history --days 30 --month 2020-02": ["history", "--days", "30", "--month", "2020-02"],
}

def run(binary, args):
    began = time.perf_counter()
    subprocess.run([binary, *args], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - began) * 1000

print(f"{'command':42} {'build':8} {'min':>6} {'median':>7} {'p95':>6} {'max':>6}   (ms, {runs} runs)")
for name, args in commands.items():
    times = {build: [] for build in builds}
    for binary in builds.values():
        for _ in range(3):
            run(binary, args)
    for _ in range(runs):
        for build, binary in builds.items():
            times[build].append(run(binary, args))
    for build, measured in times.items():
        measured.sort()
        p95 = measured[min(len(measured) - 1, round(0.95 * len(measured)) - 1)]
        print(f"{name:42} {build:8} {measured[0]:6.1f} {statistics.median(measured):7.1f} {p95:6.1f} {measured[-1]:6.1f}")
PY
