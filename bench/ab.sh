#!/usr/bin/env bash
# Before and after, taken in turns: the CPU per request and the requests per second of two builds
# of Tally on the same request, measured alternately, round after round.
#
#   bench/ab.sh AFTER BEFORE [PATH] [ROUNDS] [SECONDS]
#
# AFTER and BEFORE are two `tally` binaries (each with its `tally-server` beside it; build the
# earlier commit in a worktree with its own scratch path). Each serves a fresh database set up as
# bench/server.sh sets it up (lib.sh's start_tally); then, ROUNDS times (default 6), wrk runs
# SECONDS (default 5) on PATH against AFTER and then against BEFORE. PATH is an API path such as
# `today` (the default: the reader's day of 8 drinks), `intakes` (a POST of 250 ml as the writer),
# an absolute path such as `/health`, or one of the reader's pages, signed in and in German as
# bench/server.sh asks for them: `page` (today's) or `ledger` (a ledger of 8 expenses). bench/server.sh measures one build after the other; on a
# shared machine the one measured first came out slower on every request, changed or not, so a
# change of a few per cent shows only when the builds take turns.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,14p "$0" >&2; exit 1; }
after=$1 before=$2 path=${3:-today} rounds=${4:-6} seconds=${5:-5}
[ "$rounds" -ge 2 ] || { echo "ROUNDS must be 2 or more: the first only warms the servers up" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

BENCH_WITHOUT_BARE=1 TALLY_BIN=$after
export BENCH_WITHOUT_BARE TALLY_BIN
. bench/lib.sh

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"volumeMl": 250}'
wrk.headers["Content-Type"] = "application/json"
LUA
declare -A pid credential address
for name in after before; do
    if [ "$name" = after ]; then start_tally "$after" after; else start_tally "$before" before; fi
    pid[$name]=${pids[-1]}
    credential[$name]="Authorization: Bearer $reader"
    case $path in
        /*) address[$name]=$origin$path ;;
        page) address[$name]=$origin/ credential[$name]="Cookie: $cookie" ;;
        ledger) address[$name]=$origin/spending/$reader_ledger credential[$name]="Cookie: $cookie" ;;
        intakes) address[$name]=$base/$path credential[$name]="Authorization: Bearer $writer" ;;
        *) address[$name]=$base/$path ;;
    esac
done
script=(); [ "$path" = intakes ] && script=(-s "$work/post.lua")
language=(); case $path in page | ledger) language=(-H "Accept-Language: de") ;; esac
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
echo "wrk -t2 -c64 -d${seconds}s on $path, the builds in turns; CPU per request from the server's own ticks"
declare -A cpu
for round in $(seq "$rounds"); do
    for name in after before; do
        began=$(ticks "${pid[$name]}")
        out=$(wrk -t2 -c64 -d"${seconds}"s -H "${credential[$name]}" "${language[@]}" "${script[@]}" "${address[$name]}")
        ended=$(ticks "${pid[$name]}")
        requests=$(echo "$out" | awk '/requests in/ { print $1 }')
        perRequest=$(awk -v a="$began" -v b="$ended" -v n="$requests" -v hz="$hz" 'BEGIN { printf "%.0f", (b - a) / hz * 1e6 / n }')
        cpu[$name]="${cpu[$name]:-} $perRequest"
        printf "round %d  %-6s %5d µs CPU/req  %9s req/s\n" "$round" "$name" "$perRequest" "$(echo "$out" | awk '/Requests\/sec/ { print $2 }')"
    done
done
# The first round warms both up: the means leave it out.
for name in after before; do
    echo "${cpu[$name]}" | awk -v name="$name" '{ s = 0; for (i = 2; i <= NF; i++) s += $i; printf "%-6s mean of rounds 2-%d: %.0f µs CPU/req\n", name, NF, s / (NF - 1) }'
done
