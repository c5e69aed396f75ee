#!/usr/bin/env bash
# Several instances, measured: throughput and p99 latency of a mixed load on one `tally serve` on
# SQLite, one on PostgreSQL, and two on that same PostgreSQL database, wrk against both at once.
#
#   bench/instances.sh [SECONDS]
#
# The load, per 10 requests (one person's phone and their household's): 5 GET /api/v1/today,
# 2 POST /api/v1/intakes (250 ml), 1 POST …/expenses (12.50, split equally), 2 GET of the
# ledger (its balances). wrk -t2 -c64 for one instance; for two, -t1 -c32 against each (the same
# 64 connections in all), their req/s summed and each one's p99 shown. PostgreSQL 15 runs on this
# machine too (a throw-away server, as the tests start it, with fsync on): every figure shares
# the same cores, so read them beside each other, not as what more machines would give.
#
# TALLY_BIN measures that build of Tally instead of building this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
BENCH_WITHOUT_BARE=1 . bench/lib.sh

cat >"$work/mixed.lua" <<'LUA'
local reader, writer, ledger = os.getenv("BENCH_READER"), os.getenv("BENCH_WRITER"), os.getenv("BENCH_LEDGER")
local turn = 0
request = function()
    turn = turn + 1
    local step = turn % 10
    if step < 5 then
        return wrk.format("GET", "/api/v1/today", { Authorization = "Bearer " .. reader })
    elseif step < 7 then
        return wrk.format("POST", "/api/v1/intakes", { Authorization = "Bearer " .. writer, ["Content-Type"] = "application/json" },
            '{"volumeMl": 250}')
    elseif step < 8 then
        return wrk.format("POST", "/api/v1/ledgers/" .. ledger .. "/expenses",
            { Authorization = "Bearer " .. writer, ["Content-Type"] = "application/json" }, '{"amount": "12.50"}')
    else
        return wrk.format("GET", "/api/v1/ledgers/" .. ledger, { Authorization = "Bearer " .. writer })
    end
end
LUA

mixed() { # name, then one origin per instance
    local name=$1
    shift
    local each=$((64 / $#)) index=0 files=() waits=()
    for origin in "$@"; do
        index=$((index + 1))
        BENCH_READER=$reader BENCH_WRITER=$writer BENCH_LEDGER=$ledger \
            wrk -t$((2 / $#)) -c$each -d"${seconds}s" --latency -s "$work/mixed.lua" "$origin" >"$work/mixed$index.txt" &
        waits+=($!)
        files+=("$work/mixed$index.txt")
    done
    wait "${waits[@]}"
    awk -v name="$name" '
        /Requests\/sec/ { sum += $2 }
        $1 == "99%" { p99 = p99 sprintf(" %s", $2) }
        /Non-2xx/ { errors += $5 }
        END { printf "%-34s %10.0f req/s   p99%s   non-2xx %d\n", name, sum, p99, errors }' "${files[@]}"
}

echo "wrk, mixed load (5 today, 2 drinks, 1 expense, 2 ledger reads per 10), ${seconds}s each, $(nproc) cores shared with the servers and PostgreSQL"
start_tally "$tally" sqlite
mixed "1 instance, SQLite" "$origin"
kill -TERM "${pids[-1]}"

. scripts/test-postgres.sh >/dev/null
trap 'cleanup; tally_stop_postgres' EXIT
# The tests' server runs without fsync; a benchmark of writes keeps it.
tally_as_owner "$tally_postgres_bin/pg_ctl" -D "$tally_postgres_dir/data" -l "$tally_postgres_dir/log" -w restart \
    -o "-c listen_addresses=127.0.0.1 -p $tally_postgres_port -k $tally_postgres_dir -c max_connections=400" >/dev/null
psql "$TALLY_TEST_POSTGRES_URL" -q -c "CREATE DATABASE bench"
start_tally "$tally" postgres "${TALLY_TEST_POSTGRES_URL/\/postgres\?//bench?}"
first=$origin
mixed "1 instance, PostgreSQL" "$first"
second_port=$(free_port)
LOG_LEVEL=${LOG_LEVEL:-info} "$tally" serve --host 127.0.0.1 --port "$second_port" >"$work/second.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$second_port/health"
mixed "2 instances, one PostgreSQL" "$first" "http://127.0.0.1:$second_port"
