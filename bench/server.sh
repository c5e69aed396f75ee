#!/usr/bin/env bash
# Requests per second and p99 latency of the API on loopback, measured with wrk, beside the floor
# of the same framework and database: the bare Hummingbird + GRDB app in bench/bare.
#
#   bench/server.sh [SECONDS]
#
# Builds both in release (Tally statically linked, as installed; the bare app too, so that both
# start alike), starts each on a fresh database, and runs wrk (2 threads, 64 connections,
# SECONDS each, default 10), one after the other, in this one run:
#   bare  GET  /health      a constant answer
#   bare  GET  /today       the token looked up, one per-day row read
#   bare  POST /intakes     the token looked up, a drink and its day total written in one transaction
#   Tally GET  /health
#   Tally GET  /api/v1/today    for a user with a typical day (8 drinks), with a valid token
#   Tally POST /api/v1/intakes  250 ml of water each, with a valid token, into another user's tally
#   Tally POST /api/v1/ledgers/{id}/expenses  12.50 split equally, into one two-person ledger
#   Tally GET  /             the reader's page of today, in German (Accept-Language), signed in
#   Tally GET  /spending/{id}  the reader's ledger's page (8 expenses), the same
# and prints Tally's /health, today and drinks as ratios of the bare app's same request. Then it
# judges them against their targets (issue 38: 0.7, 0.8 and 0.9; the bare app writes with
# synchronous=FULL, as Tally does) by measuring each pair in turns, TALLY_BENCH_ROUNDS times
# (default 7), the median ratio the verdict. Ratios, not req/s, are what compare across machines
# and busy moments. wrk shares the machine's cores with the server.
#
# TALLY_BENCH_POSTGRES=1 then measures Tally again on a throw-away PostgreSQL 15 (started as the
# tests start theirs), and two instances on that one database, wrk against each at once, their
# req/s summed.
#
# TALLY_BIN=path/to/tally measures that build of Tally instead of building this tree's;
# TALLY_BEFORE=path/to/tally also measures that one after it, in the same run (before and after a
# change: build the earlier commit in a worktree with its own scratch path, and leave the binary
# there: it loads its resources from its build folder). The builds are measured one after the
# other, and the one measured first has come out slower on every request, changed or not: for a
# change of a few per cent, bench/ab.sh measures the two in turns. LOG_LEVEL is Tally's (default info,
# as installed: the request log is part of what is measured).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

. bench/lib.sh

bare_port=$(free_port)
BARE_SYNCHRONOUS=FULL "$bare" "$work/bare.sqlite" "$bare_port" >"$work/bare.log" 2>&1 &
pids+=($!)
bare_base="http://127.0.0.1:$bare_port"
wait_for "$bare_base/health"

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"volumeMl": 250}'
wrk.headers["Content-Type"] = "application/json"
LUA
cat >"$work/expense.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"amount": "12.50", "description": "Groceries"}'
wrk.headers["Content-Type"] = "application/json"
LUA

# The CPU time (user and system, in clock ticks) of the server measured now: the last one started.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/${pids[-1]}/stat"; }

run() { # name, reference req/s ("" for none), target ratio, token ("" for none), url, extra wrk args...
    local name=$1 reference=$2 target=$3 token=$4 url=$5
    shift 5
    local auth=()
    [ -n "$token" ] && auth=(-H "Authorization: Bearer $token")
    local cpu_before
    cpu_before=$(cpu_ticks)
    wrk -t2 -c64 -d"${seconds}s" --latency "${auth[@]}" "$@" "$url" >"$work/wrk.txt"
    local errors ratio="" requests
    requests=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
    # The server's own CPU per request: steadier than req/s on a machine others share.
    cpu=$(awk -v a="$cpu_before" -v b="$(cpu_ticks)" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", (b - a) / hz * 1e6 / n }')
    rps=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
    errors=$(awk '/Non-2xx/ { print $5 }' "$work/wrk.txt")
    if [ -n "$reference" ]; then
        ratio=$(awk -v r="$rps" -v f="$reference" 'BEGIN { printf "%.2f of bare (this run)", r / f }')
    fi
    printf '%-38s %10s req/s   p99 %8s   %4s µs CPU/req   non-2xx %-5s %s\n' "$name" "$rps" "$p99" "$cpu" "${errors:-0}" "$ratio"
}

measure_tally() { # label
    run "$1 GET /health" "$bare_health" 0.7 "" "$origin/health"
    run "$1 GET /api/v1/today" "$bare_today" 0.8 "$reader" "$base/today"
    run "$1 POST /api/v1/intakes" "$bare_intakes" 0.9 "$writer" "$base/intakes" -s "$work/post.lua"
    run "$1 POST …/ledgers/{id}/expenses" "" "" "$writer" "$base/ledgers/$ledger/expenses" -s "$work/expense.lua"
    # Pages, written in the reader's locale (Written: Foundation's formatters) with a session cookie.
    run "$1 GET / (today's page)" "" "" "" "$origin/" -H "Cookie: $cookie" -H "Accept-Language: de-DE"
    run "$1 GET /spending/{id} (a ledger page)" "" "" "" "$origin/spending/$reader_ledger" -H "Cookie: $cookie" -H "Accept-Language: de-DE"
}

echo "wrk -t2 -c64 -d${seconds}s on 127.0.0.1, $(nproc) cores shared with the servers; each ratio is of the bare app's same request"
echo "Tally logs at LOG_LEVEL=${LOG_LEVEL:-info} (as installed), one line per request, to a file; both write with synchronous=FULL"
run "bare GET /health" "" "" "" "$bare_base/health"
bare_health=$rps
run "bare GET /today" "" "" secret "$bare_base/today"
bare_today=$rps
run "bare POST /intakes" "" "" secret "$bare_base/intakes" -s "$work/post.lua"
bare_intakes=$rps
start_tally "$tally" tally
measure_tally Tally

# The targets, judged by turns: the bare app's request and Tally's, one right after the other,
# ROUNDS times (TALLY_BENCH_ROUNDS, default 7), each round's ratio from its own pair, the median
# of them the verdict. One run of each, minutes apart, moved the ratio by a fifth with whatever
# else the machine ran; a pair shares its moment.
rps_of() { wrk -t2 -c64 -d"${seconds}s" "$@" | awk '/Requests\/sec/ { print $2 }'; }
paired() { # name, target, bare url, bare wrk args (one word or ""), Tally url, Tally's token ("" for none), extra wrk args...
    local name=$1 target=$2 bare_url=$3 bare_auth=$4 tally_url=$5 token=$6
    shift 6
    local ratios=() bare_args=() tally_args=()
    [ -n "$bare_auth" ] && bare_args=(-H "Authorization: Bearer $bare_auth")
    [ -n "$token" ] && tally_args=(-H "Authorization: Bearer $token")
    for _ in $(seq "${TALLY_BENCH_ROUNDS:-7}"); do
        local b t
        b=$(rps_of "${bare_args[@]}" "$@" "$bare_url")
        t=$(rps_of "${tally_args[@]}" "$@" "$tally_url")
        ratios+=("$(awk -v t="$t" -v b="$b" 'BEGIN { printf "%.2f", t / b }')")
    done
    printf '%s\n' "${ratios[@]}" | sort -n | awk -v name="$name" -v target="$target" -v all="${ratios[*]}" '
        { r[NR] = $1 }
        END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
              printf "%-26s rounds %s   median %.2f of bare (target ≥ %.2f%s)\n", name, all, m, target, (m >= target) ? "" : ", missed" }'
}
echo "The targets, bare and Tally in turns, ${TALLY_BENCH_ROUNDS:-7} rounds of ${seconds}s each:"
paired "GET /health" 0.7 "$bare_base/health" "" "$origin/health" ""
paired "GET /api/v1/today" 0.8 "$bare_base/today" secret "$base/today" "$reader"
paired "POST /api/v1/intakes" 0.9 "$bare_base/intakes" secret "$base/intakes" "$writer" -s "$work/post.lua"

if [ -n "${TALLY_BEFORE:-}" ]; then
    kill -TERM "${pids[-1]}"
    start_tally "$TALLY_BEFORE" before
    measure_tally before
fi

if [ -n "${TALLY_BENCH_POSTGRES:-}" ]; then
    kill -TERM "${pids[-1]}"
    . scripts/test-postgres.sh >/dev/null
    trap 'cleanup; tally_stop_postgres' EXIT
    psql "$TALLY_TEST_POSTGRES_URL" -q -c "CREATE DATABASE bench"
    postgres="${TALLY_TEST_POSTGRES_URL/\/postgres\?//bench?}"
    start_tally "$tally" postgres "$postgres"
    measure_tally "PostgreSQL"
    # A second instance on the same database, and wrk against both at once.
    second_port=$(free_port)
    LOG_LEVEL=${LOG_LEVEL:-info} "$tally" serve --host 127.0.0.1 --port "$second_port" >"$work/second.log" 2>&1 &
    pids+=($!)
    wait_for "http://127.0.0.1:$second_port/health"
    pair() { # name, token, path, extra wrk args...
        local name=$1 token=$2 path=$3
        shift 3
        wrk -t1 -c32 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "$@" "$base$path" >"$work/one.txt" &
        local first=$!
        wrk -t1 -c32 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "$@" "http://127.0.0.1:$second_port/api/v1$path" >"$work/two.txt"
        wait "$first"
        awk -v name="$name" '/Requests\/sec/ { sum += $2; each = each sprintf(" %s", $2) }
            END { printf "%-38s %10.2f req/s   (each:%s)\n", name, sum, each }' "$work/one.txt" "$work/two.txt"
    }
    pair "2 instances GET /api/v1/today" "$reader" /today
    pair "2 instances POST /api/v1/intakes" "$writer" /intakes -s "$work/post.lua"
fi
