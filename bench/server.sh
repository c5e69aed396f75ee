#!/usr/bin/env bash
# Requests per second and p99 latency of the API on loopback, measured with wrk.
#
#   bench/server.sh [SECONDS]
#
# Builds the release server (statically linked, as installed), starts it on a fresh database
# with two users, and runs wrk (2 threads, 64 connections, SECONDS each, default 10) against:
#   GET  /api/v1/today    for a user with a typical day (8 drinks), with a valid token
#   POST /api/v1/intakes  250 ml of water each, with a valid token, into another user's tally
#   POST /api/v1/ledgers/{id}/expenses  12.50 split equally, into one two-person ledger
# wrk shares the machine's cores with the server, as the targets assume (15,000 drinks/s and
# 30,000 summaries/s on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill -TERM "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

swift build -c release --scratch-path .build-static --static-swift-stdlib --product tally >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; exit 1; }
tally=$(swift build -c release --scratch-path .build-static --static-swift-stdlib --show-bin-path)/tally
export TALLY_DATABASE="$work/tally.sqlite"

echo "correct horse" | "$tally" user create reader --time-zone UTC >/dev/null
echo "correct horse" | "$tally" user create writer --time-zone UTC >/dev/null
reader=$("$tally" token create --user reader --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
writer=$("$tally" token create --user writer --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

LOG_LEVEL=warning "$tally" serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port/api/v1"
for ml in 250 330 200 500 250 150 300 250; do
    curl -sf -X POST "$base/intakes" -H "Authorization: Bearer $reader" -d "{\"volumeMl\": $ml}" >/dev/null
done

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"volumeMl": 250}'
wrk.headers["Content-Type"] = "application/json"
LUA
ledger=$(curl -sf -X POST "$base/ledgers" -H "Authorization: Bearer $writer" -d '{"name": "Home", "currency": "EUR"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
cat >"$work/expense.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"amount": "12.50", "description": "Groceries"}'
wrk.headers["Content-Type"] = "application/json"
LUA

run() { # name, token, url, extra wrk args...
    local name=$1 token=$2 url=$3
    shift 3
    wrk -t2 -c64 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "$@" "$url" >"$work/wrk.txt"
    local rps p99 errors
    rps=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
    errors=$(awk '/Non-2xx/ { print $5 }' "$work/wrk.txt")
    printf '%-28s %12s req/s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p99" "${errors:-0}"
}

echo "wrk -t2 -c64 -d${seconds}s on 127.0.0.1, $(nproc) cores shared with the server"
run "GET /api/v1/today" "$reader" "$base/today"
run "POST /api/v1/intakes" "$writer" "$base/intakes" -s "$work/post.lua"
run "POST …/ledgers/{id}/expenses" "$writer" "$base/ledgers/$ledger/expenses" -s "$work/expense.lua"
