#!/usr/bin/env bash
# How fast `tally import apple-health` reads a big export, and how much memory it takes: it
# must stream, so memory follows the water and sleep records, not the file's size.
#
#   bench/apple-health.sh [MILLION_RECORDS]   (default 3: an export.xml of about 1 GB)
#
# The export is generated: heart rate and step records as most of a real export is, with a
# glass of water every few hours and a night of sleep stages each day, behind iOS 16's DTD.
set -euo pipefail
cd "$(dirname "$0")/.."
millions="${1:-3}"
work="bench/out/apple-health"
mkdir -p "$work"
swift build -c release --product tally >/dev/null 2>&1 || swift build -c release --product tally
tally="$(swift build -c release --show-bin-path)/tally"

python3 - "$millions" "$work/export.xml" <<'PY'
import datetime, sys
count, path = int(float(sys.argv[1]) * 1_000_000), sys.argv[2]
start = datetime.datetime(2020, 1, 1, 7, 0)
def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S +0100")
with open(path, "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ATTLIST VisionPrescription\n'
              '  type CDATA #REQUIRED\n\n<!ELEMENT RightEye EMPTY>\n]>\n<HealthData locale="en_DE">\n')
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
size=$(stat -c %s "$work/export.xml")
echo "export.xml: $((size / 1000000)) MB"
rm -f "$work/tally.sqlite"
for run in first again; do
    /usr/bin/time -f "%e %M" -o "$work/time" \
        "$tally" import apple-health "$work/export.xml" --database "$work/tally.sqlite" >"$work/report" 2>&1
    read -r seconds kilobytes <"$work/time"
    echo "$run import: ${seconds} s, $(python3 -c "print(round($size / 1e6 / max($seconds, 0.01)))") MB/s, peak memory $((kilobytes / 1024)) MB"
    sed 's/^/  /' "$work/report"
done
