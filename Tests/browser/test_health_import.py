"""The Apple Health import (A2) in a real browser, at a desktop and a phone viewport, with and
without JavaScript (the upload is a plain multipart form either way).

A new person in Europe/Berlin uploads an export.xml written here with dates relative to now: three
glasses of water (two yesterday, one earlier today), one impossible 6000 ml record, and seven
nights of sleep records (in bed 22:30–07:30; asleep 23:00–03:00 and 03:15–06:45, awake between).
The settings page says what came in, the days show the water, and importing the same file again
adds nothing. With "Use my sleep records" ticked, the reminders follow the records' waking hours,
06:45 to 23:00, and say so. A file that is not an export is refused with its message and changes
nothing. Each settings page visited goes through test_web's accessibility and sideways-overflow
check, with a screenshot of the Apple Health section into Tests/browser/screenshots/
({desktop,phone}[-nojs]-health-*.png: look at them). The last test is about where the result of
an import is shown.
"""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_spending import button, load, on_screen, without_javascript
from test_web import check_page, click, entries, fill, sign_up, text, wait

ZONE_NAME = "Europe/Berlin"
ZONE = ZoneInfo(ZONE_NAME)
NIGHTS = 7
SKIPPED = "1 record could not be used: unreadable, over 5000 ml, or in the future."
FIRST = f"Imported 3 drinks and {2 * NIGHTS} sleep records from Apple Health. " + SKIPPED
AGAIN = "Imported 0 drinks and 0 sleep records from Apple Health. 3 drinks were already there from an earlier import. " + SKIPPED
NOT_AN_EXPORT = "This is not an Apple Health export: it has no <HealthData>. Use export.zip or its export.xml."
NO_RECORDS = "No sleep records from Apple Health for the last 7 days: until you import some (Settings, Apple Health), the times above apply."
FROM_RECORDS = "Your sleep records from Apple Health, last 7 days: awake from 6:45 AM to 11:00 PM."


# ---------------------------------------------------------------------------------------------
# The export


# As the Health app writes it, with iOS 16's bug: VisionPrescription's ATTLIST has no closing ">".
HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any MetadataEntry in a Record with a key of HKMetadataKeySyncVersion is also in the Record's attributes -->
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  expirationDate   CDATA #IMPLIED
  brand            CDATA #IMPLIED

<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere           CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  axis             CDATA #IMPLIED
>
]>
"""


def health_date(moment):
    """As Apple Health writes dates: "2026-11-20 08:30:00 +0100", in the zone's offset of then."""
    return moment.strftime("%Y-%m-%d %H:%M:%S %z")


def at(day, hour, minute=0):
    return datetime.combine(day, time(hour, minute), tzinfo=ZONE)


def record(kind, start, end, value, source, unit=None):
    unit_attribute = f' unit="{unit}"' if unit else ""
    return (f' <Record type="{kind}" sourceName="{source}" sourceVersion="17.5"{unit_attribute} '
            f'creationDate="{health_date(end)}" startDate="{health_date(start)}" endDate="{health_date(end)}" value="{value}"/>\n')


def water(start, ml):
    return record("HKQuantityTypeIdentifierDietaryWater", start, start, ml, "Waterllama", unit="mL")


def sleep(start, end, stage):
    return record("HKCategoryTypeIdentifierSleepAnalysis", start, end, f"HKCategoryValueSleepAnalysis{stage}", "Apple Watch")


def write_export(folder, now):
    """export.xml with nothing after `now` (the server skips what is in the future): 250 ml twice
    yesterday and once earlier today, 6000 ml yesterday (over 5000 ml: skipped), and the nights
    that ended on the mornings of the 7 days before today."""
    today, yesterday = now.date(), now.date() - timedelta(days=1)
    midnight = at(today, 0)
    # Earlier today, however early it is now (half way from midnight, at most 08:00).
    this_morning = min(at(today, 8), midnight + (now - midnight) / 2).replace(microsecond=0)
    body = [water(at(yesterday, 8, 30), 250), water(at(yesterday, 12), 6000), water(at(yesterday, 15), 250),
            water(this_morning, 250)]
    for back in range(1, NIGHTS + 1):
        morning = today - timedelta(days=back)
        evening = morning - timedelta(days=1)
        body += [sleep(at(evening, 22, 30), at(morning, 7, 30), "InBed"),
                 sleep(at(evening, 23), at(morning, 3), "AsleepCore"),
                 sleep(at(morning, 3), at(morning, 3, 15), "Awake"),
                 sleep(at(morning, 3, 15), at(morning, 6, 45), "AsleepDeep")]
    path = folder / "export.xml"
    path.write_text(
        HEADER + '<HealthData locale="en_US">\n'
        + f' <ExportDate value="{health_date(now.replace(microsecond=0))}"/>\n'
        + ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"'
          ' HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"'
          ' HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n'
        + "".join(body) + "</HealthData>\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# Helpers


def set_time_zone(driver, server, zone):
    load(driver, server + "/settings/unit-zone")
    fill(driver, "#time-zone", zone)
    click(driver, button(driver, "Save", within="//section[@aria-labelledby='general-title']"))
    wait(driver, lambda d: "saved" in d.current_url, message="the time zone was not saved")
    assert driver.find_element(By.ID, "time-zone").get_attribute("value") == zone


def upload(driver, server, path):
    """Chooses `path` in the Apple Health form and sends it; returns once the answer is loaded."""
    load(driver, server + "/settings/apple-health")
    # A refusal is answered at the form's own address, the page's: a mark tells the pages apart.
    driver.execute_script("window.__before = true")
    driver.find_element(By.ID, "health-export").send_keys(str(path.resolve()))
    click(driver, button(driver, "Import", within="//section[@id='apple-health']"))
    wait(driver, lambda d: d.execute_script("return window.__before") is None and d.execute_script("return document.readyState") == "complete",
         timeout=20, message=f"uploading {path.name} led nowhere")


def message(driver, kind):
    found = driver.find_elements(By.CSS_SELECTOR, f"main .message.{kind}")
    return " ".join(found[0].text.split()) if found else None


def day_total(driver, server, day):
    load(driver, f"{server}/day/{day.isoformat()}")
    return text(driver, "#total"), sorted(entries(driver))


def reminder_times(wake, sleep_at, frequency):
    """ReminderSchedule.times: wake + k × window ÷ (N + 1), k = 1…N, rounded half away from zero."""
    interval = ((sleep_at - wake) % 1440 or 1440) / (frequency + 1)
    return [(wake + int(k * interval + 0.5)) % 1440 for k in range(1, frequency + 1)]


def upcoming(now, wake, sleep_at, frequency):
    """The 'Next: …' sentence the settings page should show at `now` (None when none are left today)."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    left = [m for m in reminder_times(wake, sleep_at, frequency) if midnight + timedelta(minutes=m) > now]
    return "Next: " + ", ".join(clock(m) for m in left) + "." if left else None


def clock(minutes):
    """A time of day as the browser's language (US English) writes it: "6:45 AM"."""
    hour, minute = divmod(minutes, 60)
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def next_sentence(driver):
    found = [p.text.strip() for p in driver.find_elements(By.XPATH, "//section[@aria-labelledby='reminders-title']/p")
             if p.text.strip().startswith("Next:")]
    return found[0] if found else None


def section_shot(driver, name, css="#main"):
    """A section (the Apple Health one unless told) at the top of the viewport, through test_web's
    checks; with css=None the viewport as the page was opened."""
    if css:
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", css)
    check_page(driver, name, full=False)


# ---------------------------------------------------------------------------------------------
# The import


@pytest.mark.parametrize("viewport,javascript", [("desktop", True), ("phone", True), ("desktop", False), ("phone", False)],
                         ids=["desktop", "phone", "desktop-nojs", "phone-nojs"])
def test_apple_health_import(server, browser, unique_name, tmp_path, viewport, javascript):
    prefix = viewport + ("" if javascript else "-nojs")
    shot = lambda page: f"{prefix}-health-{page}"
    driver = browser(viewport) if javascript else without_javascript(browser, viewport)
    sign_up(driver, server, unique_name)
    set_time_zone(driver, server, ZONE_NAME)

    # Before any import: the section and its form, and no sleep records.
    load(driver, server + "/settings/apple-health")
    section = driver.find_element(By.ID, "apple-health")
    assert section.find_element(By.TAG_NAME, "h1").text == "Apple Health"
    form = section.find_element(By.TAG_NAME, "form")
    assert (form.get_dom_attribute("method"), form.get_dom_attribute("action"), form.get_dom_attribute("enctype")) == \
        ("post", "/settings/apple-health", "multipart/form-data")
    field = driver.find_element(By.ID, "health-export")
    assert (field.get_dom_attribute("type"), field.get_dom_attribute("name")) == ("file", "export")
    section_shot(driver, shot("empty"))
    # The reminders' page says there are no sleep records yet.
    load(driver, server + "/settings/reminders")
    assert text(driver, "#sleep-records-window") == NO_RECORDS
    assert not driver.find_element(By.ID, "sleep-records").is_selected()

    # The export, written now: nothing in it is after now.
    now = datetime.now(ZONE)
    today, yesterday = now.date(), now.date() - timedelta(days=1)
    export = write_export(tmp_path, now)

    # The first import: 3 drinks, 2 asleep records a night, the 6000 ml one skipped.
    upload(driver, server, export)
    assert driver.current_url == f"{server}/settings/apple-health?imported=3&already=0&sleep={2 * NIGHTS}&skipped=1", \
        driver.current_url
    assert message(driver, "error") is None, message(driver, "error")
    assert message(driver, "notice") == FIRST
    section_shot(driver, shot("imported"), css=None)  # the page with the notice at the top
    load(driver, server + "/settings/reminders")
    assert text(driver, "#sleep-records-window") == FROM_RECORDS

    # The days show the water: 500 ml yesterday, 250 ml today, as drinks of water.
    glass = ("Water · 250 ml", "+250 ml")
    assert day_total(driver, server, yesterday) == ("500 ml", [glass, glass])
    assert day_total(driver, server, today) == ("250 ml", [glass])
    load(driver, server + "/")  # Today is Berlin's today
    assert driver.find_element(By.CSS_SELECTOR, "section.today").get_attribute("data-day") == today.isoformat()
    assert text(driver, "#total") == "250 ml"

    # The same file again adds nothing.
    upload(driver, server, export)
    assert driver.current_url == f"{server}/settings/apple-health?imported=0&already=3&sleep=0&skipped=1", \
        driver.current_url
    assert message(driver, "notice") == AGAIN
    assert day_total(driver, server, yesterday) == ("500 ml", [glass, glass])
    assert day_total(driver, server, today) == ("250 ml", [glass])

    # The reminders follow the sleep records: on, with the records ticked.
    load(driver, server + "/settings/reminders")
    frequency = int(driver.find_element(By.ID, "frequency").get_attribute("value"))
    manual = [driver.find_element(By.ID, name).get_attribute("value") for name in ("wake", "sleep")]
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for='reminders-on']"))
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for='sleep-records']"))
    assert driver.find_element(By.ID, "reminders-on").is_selected()
    assert driver.find_element(By.ID, "sleep-records").is_selected()
    before = datetime.now(ZONE)
    click(driver, button(driver, "Save reminders"))
    wait(driver, lambda d: "saved" in d.current_url, message="the reminders were not saved")
    after = datetime.now(ZONE)
    assert message(driver, "notice") == "Saved."
    # Imported today: today keeps the waking hours it started with, and the page says so.
    wake, sleep_at = (int(t[:2]) * 60 + int(t[3:5]) for t in manual)
    assert text(driver, "#sleep-records-window") == \
        f"{FROM_RECORDS} Today keeps the hours it started with ({clock(wake)} to {clock(sleep_at)}); these count from tomorrow."
    assert driver.find_element(By.ID, "reminders-on").is_selected()
    assert driver.find_element(By.ID, "sleep-records").is_selected()
    # The manual times stay as they were: the fallback while there are no records.
    assert [driver.find_element(By.ID, name).get_attribute("value") for name in ("wake", "sleep")] == manual
    # "Next: …" counts from today's manual times; the records' 06:45–23:00 start tomorrow.
    shown = next_sentence(driver)
    assert shown in {upcoming(before, wake, sleep_at, frequency), upcoming(after, wake, sleep_at, frequency)}, \
        f"{shown!r}: not the reminders of {manual[0]}–{manual[1]} ({frequency} a day) after {after:%H:%M}"
    section_shot(driver, shot("reminders"), css="section[aria-labelledby='reminders-title']")

    # After a reload, still ticked.
    load(driver, server + "/settings/reminders")
    assert driver.find_element(By.ID, "sleep-records").is_selected(), "the sleep records box is not ticked after a reload"
    assert driver.find_element(By.ID, "reminders-on").is_selected()
    assert text(driver, "#sleep-records-window").startswith(FROM_RECORDS)

    # A file that is not an export: refused with its message; nothing changes.
    notes = tmp_path / "notes.txt"
    notes.write_text("Drink more water.\nBuy a bottle.\n", encoding="utf-8")
    upload(driver, server, notes)
    assert message(driver, "error") == NOT_AN_EXPORT
    assert driver.find_element(By.CSS_SELECTOR, "main .message.error").is_displayed()
    assert message(driver, "notice") is None
    section_shot(driver, shot("refused"), css=None)  # the top of the page, with the message
    assert day_total(driver, server, yesterday) == ("500 ml", [glass, glass])
    assert day_total(driver, server, today) == ("250 ml", [glass])
    load(driver, server + "/settings/reminders")
    assert driver.find_element(By.ID, "sleep-records").is_selected()
    assert text(driver, "#sleep-records-window").startswith(FROM_RECORDS)


# ---------------------------------------------------------------------------------------------
# Where the result shows


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_import_result_is_on_screen(server, browser, unique_name, tmp_path, viewport):
    # The answer to an import opens the page at #apple-health: what the import did must be seen
    # there without scrolling back up to the top of the page.
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    set_time_zone(driver, server, ZONE_NAME)
    upload(driver, server, write_export(tmp_path, datetime.now(ZONE)))
    wait(driver, lambda d: message(d, "notice") == FIRST)
    notice = driver.find_element(By.CSS_SELECTOR, "main .message.notice")
    screenshot(driver, f"{viewport}-health-result-viewport", full=False)
    assert on_screen(driver, notice), \
        f"the notice of the import is off screen (top {notice.rect['y']:.0f} px, scrolled to {driver.execute_script('return scrollY')} px)"
