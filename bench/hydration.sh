#!/usr/bin/env bash
# Times `tally today` and `tally history` on a database with ten years of drinks.
#
#   bench/hydration.sh [RUNS] [BEFORE]
#
# Builds `tally` and `tally-server` in release mode, linked as installed (--static-swift-stdlib),
# fills a fresh database (about 8 drinks a day for 10 years), then runs each command RUNS times
# (default 30, after 3 warm-up runs) as a new process, the way a person or a script runs it,
# alternating the builds, and prints wall times in ms. Goal: under 50 ms each. `tally --version`,
# which opens no database, shows what starting a process costs. `tally-server` runs the same
# commands with everything linked in (the server, NIO, PostgreSQL), as the one binary did before
# `tally` left those to it: the same runs show what linking less saves. DYNAMIC=1 also times
# `tally` with the Swift libraries linked dynamically (plain `swift build -c release`). The
# reference, in the same runs: the `sqlite3` shell counting the file's drinks; `today` and
# `history` are printed as ratios of it, with their targets (issue 38: at most 3× and 4×). Beside
# it, the floor of Tally's own stack: bench/bare's `bare-today`, Foundation and GRDB linked alike
# and printing the same day's drinks, which shows how much of the ratio any Swift program built on
# them pays before it does anything of Tally's.
# BEFORE, a `tally` built from an earlier commit (copy it aside first), joins the same runs, so
# that a change shows its before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
before=${2:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # scratch-path, extra flags...
    local scratch=$1
    shift
    flock /tmp/tally-build.lock swift build -c release --scratch-path "$scratch" "$@" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
}
for product in tally-bench-fill tally tally-server; do
    build .build-static --product "$product" --static-swift-stdlib
done
static=$(swift build -c release --scratch-path .build-static --static-swift-stdlib --show-bin-path)/tally
builds=("tally:$static" "server:$(dirname "$static")/tally-server")
# The floor of the stack: Foundation and GRDB, linked alike, printing the same day's drinks.
build .build-bare --package-path bench/bare --product bare-today --static-swift-stdlib
bare_today=$(swift build -c release --package-path bench/bare --scratch-path .build-bare --static-swift-stdlib --show-bin-path)/bare-today
if [ -n "${DYNAMIC:-}" ]; then
    build .build --product tally
    builds+=("dynamic:$(swift build -c release --scratch-path .build --show-bin-path)/tally")
fi

db="$work/tally.sqlite"
"$(dirname "$static")/tally-bench-fill" "$db" 10 2026-11-20
ls -l "$db" | awk '{ printf "database: %.1f MB\n", $5 / 1048576 }'

# Late in the evening of the last filled day, so "today" has its drinks.
export TALLY_NOW=2026-11-20T21:00:00Z TALLY_DATABASE="$db"

command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install sqlite3" >&2; exit 1; }
python3 - "$runs" "$db" "$bare_today" "${builds[@]}" ${before:+"before:$before"} <<'PY'
import statistics, subprocess, sys, time
runs, db, bare_today = int(sys.argv[1]), sys.argv[2], sys.argv[3]
builds = dict(arg.split(":", 1) for arg in sys.argv[4:])
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

medians = {}

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
        medians[(name, build)] = statistics.median(measured)
        print(f"{name:42} {build:8} {measured[0]:6.1f} {statistics.median(measured):7.1f} {p95:6.1f} {measured[-1]:6.1f}")

# The reference: the sqlite3 shell, a process that opens the file and counts its drinks; and the
# floor of Tally's own stack, bench/bare's bare-today: Foundation and GRDB printing today's drinks.
reference, stack = [], []
for _ in range(runs):
    reference.append(run("sqlite3", [db, "SELECT count(*) FROM intake"]))
    stack.append(run(bare_today, [db, "20261120"]))
floor = statistics.median(reference)
print(f"{'sqlite3 … SELECT count(*) FROM intake':42} {'':8} {min(reference):6.1f} {floor:7.1f}")
print(f"{'bare-today (Foundation + GRDB, the day)':42} {'':8} {min(stack):6.1f} {statistics.median(stack):7.1f}"
      f"   {statistics.median(stack) / floor:.1f}× sqlite3")
for name, target in [("tally today", 3), ("tally history", 4)]:
    for build in builds:
        ratio = medians[(name, build)] / floor
        print(f"{name + ' ÷ sqlite3':42} {build:8} {ratio:6.1f}×  (target ≤ {target}×{'' if ratio <= target else ', missed'})"
              f"   {medians[(name, build)] / statistics.median(stack):.1f}× bare-today")
PY
