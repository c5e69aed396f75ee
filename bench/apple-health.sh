#!/usr/bin/env bash
# How fast `tally import apple-health` reads a big export, as people upload it (the Health app's
# export.zip), next to the Python tool healthkit-to-sqlite on the same zip, in the same run.
#
#   bench/apple-health.sh [MILLION_RECORDS]   (default 3: an export.xml of about 1 GB, in a zip of
#                                              about 32 MB, since the generated records repeat)
#
# It measures, with /usr/bin/time, the wall-clock seconds and the peak resident memory of
#   1. `healthkit-to-sqlite export.zip out.db` (installed with pip if missing), and
#   2. `tally import apple-health export.zip` into a new, empty database,
# then prints both and Tally's time and memory divided by healthkit-to-sqlite's. Tally's goal:
# at most a tenth of the time, under 100 MB of memory.
#
# The export is generated: heart rate and step records as most of a real export is, with a
# glass of water every few hours and a night of sleep stages each day, behind a DTD like iOS's. It
# is zipped as the iPhone does: export.zip holding apple_health_export/export.xml, deflated.
set -euo pipefail
cd "$(dirname "$0")/.."
millions="${1:-3}"
work="bench/out/apple-health"
mkdir -p "$work"
# TALLY_BINARY: a tally already built (release), to time it without building here.
if [ -z "${TALLY_BINARY:-}" ]; then
    swift build -c release --product tally >/dev/null 2>&1 || swift build -c release --product tally
fi
tally="${TALLY_BINARY:-$(swift build -c release --show-bin-path)/tally}"
command -v healthkit-to-sqlite >/dev/null || python3 -m pip install --quiet healthkit-to-sqlite
hk="$(command -v healthkit-to-sqlite)"

python3 - "$millions" "$work/export.xml" <<'PY'
import datetime, sys
count, path = int(float(sys.argv[1]) * 1_000_000), sys.argv[2]
start = datetime.datetime(2020, 1, 1, 7, 0)
def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S +0100")
with open(path, "w") as out:
    # A well-formed DTD: healthkit-to-sqlite (expat) stops at iOS 16's broken one, which Tally's
    # tests cover.
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ATTLIST VisionPrescription\n'
              '  type CDATA #REQUIRED>\n\n<!ELEMENT RightEye EMPTY>\n]>\n<HealthData locale="en_DE">\n')
    water = sleep = 0
    for i in range(count):
        t = start + datetime.timedelta(minutes=i)  # one record a minute
        if i % 180 == 0 and 7 <= t.hour < 23:
            kind, unit, value, end = "HKQuantityTypeIdentifierDietaryWater", ' unit="mL"', "250", t
            water += 1
        elif t.hour == 23 and t.minute == 0:
            kind, unit, value, end = ("HKCategoryTypeIdentifierSleepAnalysis", "",
                                      "HKCategoryValueSleepAnalysisAsleepCore", t + datetime.timedelta(hours=7, minutes=30))
            sleep += 1
        elif i % 2:
            kind, unit, value, end = "HKQuantityTypeIdentifierHeartRate", ' unit="count/min"', str(60 + i % 40), t
        else:
            kind, unit, value, end = "HKQuantityTypeIdentifierStepCount", ' unit="count"', str(i % 120), t + datetime.timedelta(minutes=1)
        out.write(f' <Record type="{kind}" sourceName="Apple Watch" sourceVersion="10.1"{unit} '
                  f'creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" value="{value}">\n'
                  f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n')
    out.write("</HealthData>\n")
print(f"{count:,} records, {water:,} of water, {sleep:,} nights", file=sys.stderr)
PY
# As the Health app shares it: apple_health_export/export.xml inside export.zip, deflated.
python3 - "$work/export.xml" "$work/export.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as archive:
    archive.write(sys.argv[1], "apple_health_export/export.xml")
PY
rm -f "$work/export.xml"
size=$(stat -c %s "$work/export.zip")
unpacked=$(python3 -c "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).infolist()[0].file_size)" "$work/export.zip")
echo "export.zip: $((size / 1000000)) MB, its export.xml $((unpacked / 1000000)) MB"

# Runs a command under /usr/bin/time; sets seconds and megabytes (peak resident memory).
measure() {
    local name="$1"; shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/$name.out" 2>&1 || { cat "$work/$name.out"; exit 1; }
    read -r seconds kilobytes <"$work/time"
    megabytes=$((kilobytes / 1024))
    echo "$name: ${seconds} s, peak memory ${megabytes} MB"
    sed 's/^/  /' "$work/$name.out"
}

rm -f "$work/healthkit.db"
measure healthkit-to-sqlite "$hk" "$work/export.zip" "$work/healthkit.db"
hk_seconds=$seconds hk_megabytes=$megabytes
rm -f "$work/tally.sqlite"*
measure tally "$tally" import apple-health "$work/export.zip" --database "$work/tally.sqlite"
python3 - "$seconds" "$hk_seconds" "$megabytes" "$hk_megabytes" <<'PY'
import sys
tally, hk, tally_mb, hk_mb = map(float, sys.argv[1:])
print(f"tally ÷ healthkit-to-sqlite: time {tally / hk:.3f} ({hk / max(tally, 0.01):.1f} times as fast), memory {tally_mb / hk_mb:.2f}")
print(f"goal (time at most 0.1, memory under 100 MB): {'met' if tally <= 0.1 * hk and tally_mb < 100 else 'NOT met'}")
PY
