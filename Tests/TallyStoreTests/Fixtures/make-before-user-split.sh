#!/bin/sh
# Makes before-user-split.sqlite with the tally binary of commit c4fa72e (schema version 13).
set -eu
T=${TALLY:-tally}
DB=${1:-before-user-split.sqlite}
PORT=${PORT:-18917}
export TALLY_DATABASE="$DB" TALLY_NOW=2025-06-15T10:00:00Z
rm -f "$DB" "$DB-wal" "$DB-shm"
# ada: the server's admin, with every setting changed from its default.
printf 'correct horse battery\n' | $T user create ada --time-zone Europe/Berlin
printf 'battery staple horse\n' | $T user create bob --time-zone America/New_York
$T user disable bob
$T --user ada settings set unit oz
$T --user ada settings set timezone Asia/Tokyo
$T --user ada presets set 4oz 8oz 12oz 16oz
$T --user ada profile set --age 41 --weight 72.5 --activity active
$T --user ada bottle capacity 24oz
$T --user ada bottle sip-size 2oz
$T --user ada bottle set 20oz
$T --user ada bottle sip
# Drinks on two days, a removal and a custom kind.
$T --user ada kinds add broth --factor 0.9
TALLY_NOW=2025-06-14T03:00:00Z $T --user ada drink 10oz --kind coffee --note "first cup"
$T --user ada drink 12oz
$T --user ada drink 300ml --kind broth
$T --user ada remove 2oz
$T --user ada goal set 90oz
# bob: a few drinks of his own.
$T --user bob drink 500ml
# local: the CLI's user, who has no password and no settings of their own.
$T drink 250ml
# A ledger with an expense and a payment.
$T --user ada ledger create Flat --currency EUR --member Ada --member Sam
$T --user ada spend 42.50 groceries --ledger Flat --date 2025-06-14
$T --user ada pay Sam Ada 10 --ledger Flat --date 2025-06-15
# Reminders and the calendar feed exist only in the API: set them through a running server.
TOKEN=$($T token create --user ada --name fixture --json | sed -n 's/.*"secret" *: *"\([^"]*\)".*/\1/p')
$T serve --port "$PORT" & SERVER=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/api/v1/reminders" -H "Authorization: Bearer $TOKEN" >/dev/null && break; sleep 0.2; done
curl -fsS -X PUT "http://127.0.0.1:$PORT/api/v1/reminders" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"enabled":true,"window":{"wake":"06:30","sleep":"22:15"},"frequency":6,"smartThresholdHours":3,"useSleepRecords":true}'
echo
curl -fsS -X POST "http://127.0.0.1:$PORT/api/v1/reminders/calendar" -H "Authorization: Bearer $TOKEN"
echo
kill "$SERVER"; wait "$SERVER" || true
# One self-contained file: the WAL folded in, rollback journal, no free pages.
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; VACUUM;' >/dev/null
