# What the server benchmarks share: sourced by bench/server.sh and bench/ledger-scale.sh.
#
# Gives a temporary folder $work, the servers started into $pids stopped on exit, release builds
# of the bare app ($bare) and of Tally ($tally, or TALLY_BIN's), a free loopback port and a wait
# for an address to answer.

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
    build build.log --scratch-path .build-static --product tally
    tally=$(swift build -c release --scratch-path .build-static --static-swift-stdlib --show-bin-path)/tally
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 100); do curl -sf "$1" >/dev/null && return; sleep 0.1; done; echo "$1 does not answer" >&2; exit 1; }
