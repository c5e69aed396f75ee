#!/usr/bin/env bash
# Does an import's time grow with its rows, and not with rows × people²? (issue 54.4, S6)
#
#   bench/imports.sh [ROWS]
#
# Imports generated exports through `tally ledger import` into fresh databases and prints the
# seconds each took (the CPU the command used, user + system):
#   - Splitwise: ROWS rows (default 1,000) among 2 people, then among 50;
#   - IHateMoney: ROWS × 0.4 bills, each owed by 2 people, then by 50.
# Target: with 50 people within 10× of the time with 2 (the file is 25× wider).
#
# TALLY_BIN=path/to/tally measures that build instead of this tree's release build;
# TALLY_BEFORE=path/to/tally also measures that one (an earlier commit) in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000}
BENCH_WITHOUT_BARE=1
. bench/lib.sh


splitwise() { # rows, people, path: each row paid by one person, shared by all
    python3 - "$@" <<'PY'
import random, sys
rows, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(2026)
names = ["Ana", "Bob"] + [f"Person {i}" for i in range(3, count + 1)]
with open(path, "w", newline="") as out:
    out.write("Date,Description,Category,Cost,Currency," + ",".join(names) + "\r\n")
    for row in range(rows):
        share = rng.randint(1, 100)
        cost = share * count
        payer = rng.randrange(count)
        cells = [f"{(cost - share):.2f}" if i == payer else f"{-share:.2f}" for i in range(count)]
        out.write(f"2024-{1 + row % 12:02d}-{1 + row % 28:02d},Dinner {row},Dining out,{cost:.2f},EUR," + ",".join(cells) + "\r\n")
PY
}

ihatemoney() { # bills, people, path: each bill paid by one person, owed by all
    python3 - "$@" <<'PY'
import json, random, sys
bills, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(2026)
names = ["Ana", "Bob"] + [f"Person {i}" for i in range(3, count + 1)]
json.dump([{"what": f"Dinner {bill}", "bill_type": "Expense", "amount": rng.randint(100, 10000) / 100, "currency": "EUR",
            "date": f"2024-{1 + bill % 12:02d}-{1 + bill % 28:02d}", "payer_name": rng.choice(names), "payer_weight": 1.0,
            "owers": names} for bill in range(bills)], open(path, "w"))
PY
}

seconds() { # binary, app, file: the CPU seconds of one import into a fresh database
    local database="$work/import-$RANDOM.sqlite"
    TALLY_DATABASE=$database "$1" user create ana --time-zone UTC <<<"correct horse" >/dev/null
    /usr/bin/time -f "%U %S" -o "$work/time" env TALLY_DATABASE="$database" TALLY_USER=ana "$1" import "$2" "$3" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

measure() { # label, binary
    local bills=$((rows * 2 / 5))
    splitwise "$rows" 2 "$work/sw2.csv"
    splitwise "$rows" 50 "$work/sw50.csv"
    ihatemoney "$bills" 2 "$work/ihm2.json"
    ihatemoney "$bills" 50 "$work/ihm50.json"
    local a b c d
    a=$(seconds "$2" splitwise "$work/sw2.csv")
    b=$(seconds "$2" splitwise "$work/sw50.csv")
    c=$(seconds "$2" ihatemoney "$work/ihm2.json")
    d=$(seconds "$2" ihatemoney "$work/ihm50.json")
    printf '%-8s Splitwise %5d rows:  2 people %6.2f s, 50 people %6.2f s (%5.1f×)\n' "$1" "$rows" "$a" "$b" "$(echo "$b / $a" | bc -l)"
    printf '%-8s IHateMoney %4d bills: 2 people %6.2f s, 50 people %6.2f s (%5.1f×)\n' "$1" "$bills" "$c" "$d" "$(echo "$d / $c" | bc -l)"
}

[ -n "${TALLY_BEFORE:-}" ] && measure before "$TALLY_BEFORE"
measure now "$tally"
