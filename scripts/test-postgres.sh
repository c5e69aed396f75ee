# Sourced by scripts/test: starts a throw-away PostgreSQL 15 server for the tests, on a loopback
# port, in a temporary folder that is removed when the shell exits, and exports its address as
# TALLY_TEST_POSTGRES_URL. Without PostgreSQL, it says what to install and the PostgreSQL tests
# fail with the same words (they never pass silently).

tally_postgres_bin=""
for candidate in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then tally_postgres_bin="$candidate"; break; fi
done

if [ -z "$tally_postgres_bin" ]; then
    echo "PostgreSQL is not installed: the PostgreSQL tests will fail. Install it with: apt-get install postgresql-15" >&2
    unset TALLY_TEST_POSTGRES_URL
else
    tally_postgres_dir="$(mktemp -d /tmp/tally-postgres.XXXXXX)"
    tally_postgres_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # initdb refuses to run as root: the server then belongs to the postgres user.
    tally_as_owner() {
        if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
    }
    if [ "$(id -u)" = 0 ]; then chown postgres "$tally_postgres_dir"; fi
    tally_as_owner "$tally_postgres_bin/initdb" -D "$tally_postgres_dir/data" -U tally --auth=trust -E UTF8 --no-locale >/dev/null
    # Durability is not what these tests check: without fsync the server starts and writes faster.
    tally_as_owner "$tally_postgres_bin/pg_ctl" -D "$tally_postgres_dir/data" -l "$tally_postgres_dir/log" -w start -o \
        "-c listen_addresses=127.0.0.1 -p $tally_postgres_port -k $tally_postgres_dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null
    tally_stop_postgres() {
        tally_as_owner "$tally_postgres_bin/pg_ctl" -D "$tally_postgres_dir/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$tally_postgres_dir"
    }
    trap tally_stop_postgres EXIT
    export TALLY_TEST_POSTGRES_URL="postgres://tally@127.0.0.1:$tally_postgres_port/postgres?sslmode=disable"
    echo "PostgreSQL $("$tally_postgres_bin/postgres" --version | awk '{print $3}') for the tests at $TALLY_TEST_POSTGRES_URL"
fi
