# What the server benchmarks share: sourced by bench/server.sh, bench/ledger-scale.sh, bench/instances.sh
# and bench/streams.sh.
#
# Gives a temporary folder $work, the servers started into $pids stopped on exit, release builds
# of the bare app ($bare) and of Tally ($tally, or TALLY_BIN's), a free loopback port and a wait
# for an address to answer, and start_tally: a server on a fresh database with people and data to ask for.

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Builds never run two at once on a shared machine: take the lock while building, not after.
locked() { if command -v flock >/dev/null; then flock /tmp/tally-build.lock "$@"; else "$@"; fi; }
build() { # log name, swift build arguments...
    local log=$1
    shift
    locked swift build -c release --static-swift-stdlib "$@" >"$work/$log" 2>&1 || { cat "$work/$log"; exit 1; }
}

# The reference app, unless the benchmark has none (BENCH_WITHOUT_BARE).
if [ -z "${BENCH_WITHOUT_BARE:-}" ]; then
    build bare-build.log --package-path bench/bare --scratch-path .build-bare --product bare
    bare=$(swift build -c release --static-swift-stdlib --package-path bench/bare --scratch-path .build-bare --show-bin-path)/bare
fi
if [ -n "${TALLY_BIN:-}" ]; then
    tally=$TALLY_BIN
else
    # `tally serve` becomes `tally-server serve`, built beside it.
    build build.log --scratch-path .build-static --product tally
    build build.log --scratch-path .build-static --product tally-server
    tally=$(swift build -c release --scratch-path .build-static --static-swift-stdlib --show-bin-path)/tally
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 100); do curl -sf "$1" >/dev/null && return; sleep 0.1; done; echo "$1 does not answer" >&2; exit 1; }

start_tally() { # binary, name[, database]: a fresh database with a reader (8 drinks today), a writer and a ledger
    local bin=$1 name=$2
    export TALLY_DATABASE="${3:-$work/$name.sqlite}"
    echo "correct horse" | "$bin" user create reader --time-zone UTC >/dev/null
    echo "correct horse" | "$bin" user create writer --time-zone UTC >/dev/null
    reader=$("$bin" token create --user reader --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
    writer=$("$bin" token create --user writer --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
    local port
    port=$(free_port)
    LOG_LEVEL=${LOG_LEVEL:-info} "$bin" serve --host 127.0.0.1 --port "$port" >"$work/$name.log" 2>&1 &
    pids+=($!)
    origin="http://127.0.0.1:$port"
    base="$origin/api/v1"
    wait_for "$origin/health"
    for ml in 250 330 200 500 250 150 300 250; do
        curl -sf -X POST "$base/intakes" -H "Authorization: Bearer $reader" -d "{\"volumeMl\": $ml}" >/dev/null
    done
    ledger=$(curl -sf -X POST "$base/ledgers" -H "Authorization: Bearer $writer" -d '{"name": "Home", "currency": "EUR"}' \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    # The reader's own ledger with a typical few expenses, for its page (the writer's ledger
    # grows by thousands during the run).
    reader_ledger=$(curl -sf -X POST "$base/ledgers" -H "Authorization: Bearer $reader" -d '{"name": "Flat", "currency": "EUR"}' \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    for amount in 12.50 1234.56 8.99 42.00 310.20 5.75 99.99 18.40; do
        curl -sf -X POST "$base/ledgers/$reader_ledger/expenses" -H "Authorization: Bearer $reader" \
            -d "{\"amount\": \"$amount\", \"description\": \"Groceries\"}" >/dev/null
    done
    # The reader's browser session, for the pages: the sign-in form as a browser sends it.
    local jar="$work/$name.cookies"
    curl -sf -c "$jar" "$origin/signin" >/dev/null
    local csrf
    csrf=$(awk '$6 == "tally_csrf" { print $7 }' "$jar")
    curl -sf -b "$jar" -c "$jar" -X POST "$origin/signin" --data-urlencode name=reader \
        --data-urlencode "password=correct horse" --data-urlencode "csrf=$csrf" >/dev/null
    cookie="tally_session=$(awk '$6 == "tally_session" { print $7 }' "$jar"); tally_csrf=$csrf"
}
