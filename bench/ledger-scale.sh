#!/usr/bin/env bash
# Does a ledger's summary cost the same at 100, 1,000 and 10,000 expenses? (issue 12, S3)
#
#   bench/ledger-scale.sh [SECONDS]
#
# For each size, fills a fresh database through Tally's own IHateMoney import (a generated export
# of three people's bills: equal splits, splits among two, payments), starts the release server,
# and measures GET /api/v1/ledgers/{id}/summary:
#   - one request at a time over one kept-alive connection: the median and p95 of 300 requests;
#   - under load: wrk -t2 -c64 for SECONDS (default 5), in req/s, beside the bare Hummingbird +
#     GRDB app's GET /health (bench/bare) measured in the same run, as a ratio.
# Targets: at 10,000 expenses ≥ 0.25 × bare /health, and within 1.5× of the time at 100.
#
# TALLY_BIN=path/to/tally measures that build instead of this tree's; TALLY_BEFORE=path/to/tally
# also measures that one (an earlier commit) in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

. bench/lib.sh
rps() { wrk -t2 -c64 -d"${seconds}s" "$@" | awk '/Requests\/sec/ { print $2 }'; }

# The bills: seeded, so every run imports the same ledger.
export_bills() { # count, path
    python3 - "$1" "$2" <<'PY'
import datetime, json, random, sys
count, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(2026)
people = ["Alex", "Sam", "Kim"]
start = datetime.date(2016, 1, 1)
bills = []
for i in range(count):
    payer = rng.choice(people)
    day = start + datetime.timedelta(days=i * 3650 // max(count, 1))
    if i % 10 == 9:
        to = rng.choice([p for p in people if p != payer])
        bills.append({"what": "Settling up", "bill_type": "Reimbursement", "amount": round(rng.uniform(5, 80), 2),
                      "currency": "EUR", "date": day.isoformat(), "payer_name": payer, "payer_weight": 1.0, "owers": [to]})
    else:
        owers = people if i % 3 else rng.sample(people, 2)
        bills.append({"what": f"Bill {i}", "bill_type": "Expense", "amount": round(rng.uniform(1, 150), 2),
                      "currency": "EUR", "date": day.isoformat(), "payer_name": payer, "payer_weight": 1.0, "owers": owers})
json.dump(bills, open(path, "w"))
PY
}

# Median and p95 in ms of 300 summaries, one at a time on one connection.
one_at_a_time() { # port, path, token
    python3 - "$@" <<'PY'
import http.client, statistics, sys, time
port, path, token = sys.argv[1], sys.argv[2], sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", int(port))
headers = {"Authorization": f"Bearer {token}"}
times = []
for i in range(320):
    began = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
    if i >= 20:  # the first ones warm the caches up
        times.append((time.perf_counter() - began) * 1000)
times.sort()
print(f"{statistics.median(times):.2f} {times[int(len(times) * 0.95)]:.2f}")
PY
}

bare_port=$(free_port)
"$bare" "$work/bare.sqlite" "$bare_port" >"$work/bare.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$bare_port/health"
bare_health=$(rps "http://127.0.0.1:$bare_port/health")
echo "bare GET /health: $bare_health req/s (wrk -t2 -c64 -d${seconds}s, $(nproc) cores shared)"
echo

measure() { # label, tally binary
    local label=$1 binary=$2
    printf '%-8s %9s %12s %10s %12s %10s\n' "$label" "expenses" "median ms" "p95 ms" "req/s" "÷ bare"
    local first_median=""
    for count in 100 1000 10000; do
        local database="$work/$label-$count.sqlite"
        export_bills "$count" "$work/bills.json"
        export TALLY_DATABASE=$database
        echo "correct horse" | "$binary" user create alex --time-zone UTC >/dev/null
        "$binary" import ihatemoney "$work/bills.json" --name Home --currency EUR --user alex >/dev/null
        local token ledger port server
        token=$("$binary" token create --user alex --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
        port=$(free_port)
        LOG_LEVEL=warning "$binary" serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
        server=$!
        pids+=("$server")
        wait_for "http://127.0.0.1:$port/health"
        ledger=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/ledgers" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
        local path="/api/v1/ledgers/$ledger/summary"
        read -r median p95 < <(one_at_a_time "$port" "$path" "$token")
        local throughput
        throughput=$(rps -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path")
        printf '%-8s %9s %12s %10s %12s %10s\n' "" "$count" "$median" "$p95" "$throughput" \
            "$(python3 -c "print(f'{$throughput / $bare_health:.3f}')")"
        [ -z "$first_median" ] && first_median=$median
        [ "$count" = 10000 ] && echo "         10,000 ÷ 100 one at a time: $(python3 -c "print(f'{$median / $first_median:.2f}')") (target ≤ 1.5)"
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    done
}

[ -n "${TALLY_BEFORE:-}" ] && { measure before "$TALLY_BEFORE"; echo; }
measure now "$tally"
echo
echo "targets: req/s at 10,000 ≥ 0.25 × bare /health; 10,000 within 1.5× of 100"
