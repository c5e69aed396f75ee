#!/usr/bin/env bash
# Times a wrong password for names that exist and for names that do not, against a running
# `tally serve` (release build, bcrypt at its production cost of 12): the two must cost the
# same, or the sign-in page tells which accounts exist (A1).
#
#   bench/signin.sh [TRIES]
#
# Creates TRIES accounts, then alternates one wrong password for a known name and one for an
# unknown name (each name tried once, each from its own forwarded address, so that the throttle
# never answers first), and prints the median and spread of each and their ratio. Goal: the
# ratio within 0.8–1.25.
set -euo pipefail
cd "$(dirname "$0")/.."
tries=${1:-15}

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for product in tally tally-server; do
    swift build -c release --product "$product" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
done
tally=$(swift build -c release --show-bin-path)/tally
db="$work/tally.sqlite"
for i in $(seq 1 "$tries"); do echo "correct horse $i" | "$tally" user create "known$i" --database "$db" >/dev/null; done
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$tally" serve --port "$port" --database "$db" --trusted-proxy 127.0.0.1 >"$work/serve.log" 2>&1 &
server=$!

python3 - "$port" "$tries" <<'PY'
import re, statistics, sys, time, urllib.error, urllib.parse, urllib.request
port, tries = int(sys.argv[1]), int(sys.argv[2])
base = f"http://127.0.0.1:{port}"
for _ in range(100):
    try:
        urllib.request.urlopen(base + "/health", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
page = urllib.request.urlopen(base + "/signin")
cookie = page.headers["Set-Cookie"].split(";")[0]
csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.read().decode()).group(1)

def attempt(name, index):
    body = urllib.parse.urlencode({"csrf": csrf, "name": name, "password": "wrong password"}).encode()
    request = urllib.request.Request(base + "/signin", data=body, headers={
        "Cookie": cookie, "X-Forwarded-For": f"198.51.100.{index}"})
    start = time.perf_counter()
    try:
        urllib.request.urlopen(request)
    except urllib.error.HTTPError as error:
        assert error.code == 401, f"{name}: {error.code}"
    return (time.perf_counter() - start) * 1000

known, unknown = [], []
for i in range(1, tries + 1):
    known.append(attempt(f"known{i}", 2 * i))
    unknown.append(attempt(f"unknown{i}", 2 * i + 1))
for label, times in (("known name", known), ("unknown name", unknown)):
    print(f"{label:13} median {statistics.median(times):6.1f} ms  min {min(times):6.1f}  max {max(times):6.1f}")
print(f"unknown / known: {statistics.median(unknown) / statistics.median(known):.2f} (goal 0.8–1.25)")
PY
