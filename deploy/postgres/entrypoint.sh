#!/bin/sh
# PostgreSQL 15 from Debian's packages, started the way the official postgres image starts: the
# data in $PGDATA (a volume), made on the first start with POSTGRES_USER (the superuser, with
# POSTGRES_PASSWORD), POSTGRES_DB, and password logins from the network; then the server, as
# the postgres user, stopping cleanly on the image's SIGINT.
set -eu
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
bin=/usr/lib/postgresql/15/bin
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 0700 "$PGDATA"
    # setpriv runs the script again as postgres in this process (no parent left to take SIGTERM).
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    user="${POSTGRES_USER:-postgres}"
    secret="$(mktemp)"
    printf '%s' "$POSTGRES_PASSWORD" > "$secret"
    "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$secret" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$secret"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    database="${POSTGRES_DB:-$user}"
    if [ "$database" != postgres ]; then
        echo "CREATE DATABASE \"$database\" OWNER \"$user\";" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
    fi
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
