"""The settings page's "Your data" (A2) in a real browser, at a desktop and a phone viewport, with
and without JavaScript: every drink out as a CSV download, and drinks in from a CSV upload.

A new person in Europe/Berlin logs two drinks and a removal two days ago through the API, one
drink with a hostile note (a leading "=", a comma and quotes, combining marks, zero-width joiners,
a right-to-left mark). The download (read with fetch in the page) is a CSV attachment with
Tally's header; each row says what was logged, and the note comes back exactly, with the
apostrophe that keeps a spreadsheet from running it as a formula. A note with a bidi override
(U+202E) is refused with a sentence, as every free text is (UserText.freeText): it never gets
into a CSV.

A plain CSV (date,time,amount,unit: 330 ml and 8 oz yesterday) is uploaded with the file field:
the page says "Imported 2 drinks and 0 removals.", yesterday's page and the history show them,
and the same file again says they were there already; the download, uploaded back, adds nothing.
With JavaScript the upload goes by XMLHttpRequest and its <progress> shows and reaches its max.
A file with a good line and then an amount of `<img src=x onerror=alert(1)>` with a bidi
override is refused: the section names line 3 and the column, shows the hostile text as text (no
element, no alert, no CSP violation), and the good line was not imported either. The quoted
cell's bidi override is shown as its code (U+202E), so it cannot reorder the server's own words
after it (it once did: the refusal read '"exe.png" si ton na tnuoma: …'), and the refusal keeps
its lines.

The backup (test_your_data_backup): A, in Berlin, logs two drinks (one of a kind of their own)
and a removal, and has a ledger with two expenses, all through the API. The "Download a backup
(JSON)" link gives a JSON attachment (tally-backup-<today>.json) of format "tally-person-backup",
version 2, with all of it. B, a new account in a browser of their own, restores that file with
the section's form: the notice says what came in, and B's day page, time zone, drink kinds and
ledger (its balance and history) are A's. The same file again without "Merge into the data I
have" is refused in the section (role alert; nothing changes); merged, nothing is added twice and
B's own time zone stays. A JSON file of another format and a file that is not JSON are refused by
name. With JavaScript the restore goes by XMLHttpRequest, its <progress> reaching its max.

Each settings page visited goes through test_web's accessibility and sideways-overflow check,
with a screenshot of the section into Tests/browser/screenshots/
({desktop,phone}[-nojs]-your-data-*.png and -your-data-backup-*.png: look at them).
"""

import csv
import io
import json
import unicodedata
import uuid
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_health_import import message, set_time_zone
from test_spending import button, history, load, owes, without_javascript
from test_web import check_page, entries, sign_up, text, wait

ZONE_NAME = "Europe/Berlin"
ZONE = ZoneInfo(ZONE_NAME)
HEADER = ["time", "day", "type", "volume_ml", "kind", "factor", "effective_ml", "note", "source", "id"]

# Every kind of hostile text a note may hold: a formula ("=" first, with a comma and quotes, so the
# cell is quoted too), combining marks that compose with nothing (the note stays the same in NFC,
# where the server keeps text), zero-width joiners (an emoji sequence, Arabic letters), and a
# right-to-left mark.
NOTE = ('=HYPERLINK("http://x.example","q\u0301\u0302\u0303 z\u0335\u0336")'
        '\u200d\U0001F469\u200d\U0001F4BB \u0628\u200d\u0627\u200f!')
# The same with a right-to-left override, which free text may not hold.
OVERRIDE_NOTE = "=\u202egnp.exe " + NOTE
BIDI_REFUSAL = "A note cannot hold bidirectional override characters"

# The refused file's second row: an amount that is markup, with a bidi override after it.
HOSTILE_AMOUNT = "<img src=x onerror=alert(1)>\u202egnp.exe"


# ---------------------------------------------------------------------------------------------
# Helpers


def at(day, hour, minute=0):
    return datetime.combine(day, time(hour, minute), tzinfo=ZONE)


API_POST = """
const [path, body, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
fetch(path, { method: "POST", credentials: "same-origin",
  headers: { "Content-Type": "application/json", "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content },
  body: JSON.stringify(body) })
  .then((r) => r.text().then((t) => done([r.status, t])), (e) => done([0, String(e)]));
"""


def api_post(driver, path, body):
    """POSTs JSON to the API from the page (its session and CSRF token): (status, body text).
    WebDriver's scripts run even where the page's own do not (JavaScript off)."""
    driver.set_script_timeout(15)
    return driver.execute_async_script(API_POST, path, body)


DOWNLOAD = """
const done = arguments[arguments.length - 1];
fetch("/settings/drinks.csv", { credentials: "same-origin" })
  .then((r) => r.arrayBuffer().then((bytes) => done({
    status: r.status, url: r.url,
    type: r.headers.get("content-type"), disposition: r.headers.get("content-disposition"),
    cache: r.headers.get("cache-control"),
    // The bytes as they came, as text: fetch's text() would drop a byte order mark.
    text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes),
  })), (e) => done({ status: 0, text: String(e) }));
"""


def download(driver):
    """The download, read with fetch in the page: status, headers and text."""
    driver.set_script_timeout(20)
    answer = driver.execute_async_script(DOWNLOAD)
    assert answer["status"] == 200, f"the download failed: {answer}"
    return answer


def rows_of(answer):
    """The CSV's rows as dicts by header name, after checking the header and the line ends."""
    body = answer["text"]
    assert body.endswith("\r\n"), f"the CSV does not end with CRLF: {body[-40:]!r}"
    rows = list(csv.reader(io.StringIO(body, newline="")))
    assert rows[0] == HEADER, f"the header is {rows[0]}"
    assert all(len(row) == len(HEADER) for row in rows), rows
    return [dict(zip(HEADER, row)) for row in rows[1:]]


def choose_file(driver, path):
    driver.find_element(By.ID, "drinks-csv").send_keys(str(path.resolve()))


# Records what the upload's <progress> did, in sessionStorage: the page is replaced by the
# answer (a redirect it follows), and what the old one saw must outlive it.
WATCH_PROGRESS = """
const bar = document.querySelector("#your-data progress");
const seen = { shown: !bar.hidden, value: Number(bar.value), max: Number(bar.max), values: [] };
const keep = () => sessionStorage.setItem("tally-progress", JSON.stringify(seen));
keep();
new MutationObserver(() => {
  seen.shown = seen.shown || !bar.hidden;
  seen.value = Math.max(seen.value, Number(bar.value));
  seen.values.push(Number(bar.value));
  keep();
}).observe(bar, { attributes: true });
"""


def upload(driver, server, path, javascript):
    """Opens the settings page, chooses `path` in the Your data form and sends it. Returns once
    the answer is there: a new page (the redirect after an import, or without JavaScript the
    refusal) or, with JavaScript, <main> swapped for the refusal. With JavaScript, also what the
    progress bar did (else None)."""
    load(driver, server + "/settings/your-data")
    if javascript:
        driver.execute_script("sessionStorage.removeItem('tally-progress')")
        driver.execute_script(WATCH_PROGRESS)
    driver.execute_script("window.__tallyMarker = 'same page'")
    choose_file(driver, path)
    click_import(driver)
    return answered(driver, javascript, timeout=20, message=f"uploading {path.name} led nowhere")


def answered(driver, javascript, timeout, message):
    """Waits for a sent Your data form's answer: a new page, or, with JavaScript, <main> swapped
    for a message in the section. With JavaScript, returns what the progress bar did (else None)."""
    wait(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete' && (window.__tallyMarker !== 'same page'"
        " || !!document.querySelector('#main > .message.error, #main > .message.notice'))"),
        timeout=timeout, message=message)
    if javascript:
        return json.loads(driver.execute_script("return sessionStorage.getItem('tally-progress')") or "null")
    return None


def refused_in_place(driver, server, error, seen, javascript, action):
    """Where a refused upload leaves the page: with JavaScript it was sent in the background, so the
    same page with <main> swapped, the refusal focused and the progress bar full; without, the
    form's own address, at the section."""
    if javascript:
        assert driver.current_url == f"{server}/settings/your-data", driver.current_url
        assert driver.execute_script("return window.__tallyMarker") == "same page", "the page was loaded again"
        assert driver.switch_to.active_element == error, "the refusal is not focused"
        assert seen and seen["shown"] and seen["value"] == 100, f"the progress bar: {seen}"
    else:
        assert driver.current_url == f"{server}/settings/{action}", driver.current_url


def click_import(driver):
    target = button(driver, "Import drinks", within="//section[@id='your-data']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()


def section_message(driver, kind):
    """The text of the Your data page's message of `kind` (textContent: exactly what the page
    holds, whitespace runs made one space), or None."""
    found = driver.find_elements(By.CSS_SELECTOR, f"#main > .message.{kind}")
    return " ".join(found[0].get_property("textContent").split()) if found else None


def section_shot(driver, name, css="#main"):
    """test_web's checks of the page, and a screenshot of the viewport with the section (`css`)
    at its top, or with css=None where the page was."""
    if css:
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", css)
    check_page(driver, name, full=False)


def day_page(driver, server, day):
    load(driver, f"{server}/day/{day.isoformat()}")
    return text(driver, "#total"), entries(driver)


def week_values(driver, server):
    """The history's last days as {day of the month: the total written above its bar}."""
    load(driver, server + "/history")
    return driver.execute_script("""
        return Object.fromEntries([...document.querySelectorAll("svg.chart g.day")].map((g) =>
          [g.querySelector(".date").textContent.trim(), g.querySelector(".value").textContent.trim()]));""")


def no_alert(driver):
    try:
        alert = driver.switch_to.alert
    except NoAlertPresentException:
        return True
    shown = alert.text
    alert.dismiss()
    pytest.fail(f"an alert opened: {shown!r}")


INJECTED = """
const section = document.getElementById("your-data");
const found = [];
for (const el of section.querySelectorAll("*")) {
  const tag = el.tagName.toLowerCase();
  if (["img", "svg", "script", "iframe", "object", "embed"].includes(tag)) found.push(`<${tag}>`);
  for (const { name } of el.attributes) if (name.startsWith("on") || name === "style") found.push(`<${tag} ${name}>`);
}
for (const img of document.querySelectorAll("main img")) found.push(`main: <img src=${img.getAttribute("src")}>`);
return found;
"""


# Where the characters of the server's own words after the quoted cell are drawn: each one to the
# right of the one before it on its line, unless the quoted text's bidi override spilled out of
# the quote and reversed them. The pairs found drawn right to left, as text.
REVERSED = """
const [phrase] = arguments;
const error = document.querySelector("#main > .message.error");
const walker = document.createTreeWalker(error, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const start = node.data.indexOf(phrase);
  if (start < 0) continue;
  const boxes = [...phrase].map((_, i) => {
    const range = document.createRange();
    range.setStart(node, start + i);
    range.setEnd(node, start + i + 1);
    return range.getBoundingClientRect();
  });
  const reversed = [];
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1], boxes[i]];
    if (Math.abs(a.top - b.top) < 2 && a.width && b.width && b.left < a.left) reversed.push(phrase[i - 1] + phrase[i]);
  }
  return reversed;
}
return null;
"""


# ---------------------------------------------------------------------------------------------
# The test


@pytest.mark.parametrize("viewport,javascript", [("desktop", True), ("phone", True), ("desktop", False), ("phone", False)],
                         ids=["desktop", "phone", "desktop-nojs", "phone-nojs"])
def test_your_data(server, browser, unique_name, tmp_path, viewport, javascript):
    prefix = viewport + ("" if javascript else "-nojs")
    shot = lambda page: f"{prefix}-your-data-{page}"
    driver = browser(viewport) if javascript else without_javascript(browser, viewport)
    sign_up(driver, server, unique_name)
    set_time_zone(driver, server, ZONE_NAME)
    now = datetime.now(ZONE)
    today, yesterday, before = now.date(), now.date() - timedelta(days=1), now.date() - timedelta(days=2)

    # The section: the download link, and the upload form with its unit and file.
    load(driver, server + "/settings/your-data")
    section = driver.find_element(By.ID, "your-data")
    assert section.find_element(By.TAG_NAME, "h1").text == "Your data"
    link = section.find_element(By.LINK_TEXT, "Download drinks (CSV)")
    assert link.get_dom_attribute("href") == "/settings/drinks.csv"
    assert link.get_dom_attribute("download") is not None, "the link is not a download"
    form = section.find_element(By.TAG_NAME, "form")
    assert (form.get_dom_attribute("method"), form.get_dom_attribute("action"), form.get_dom_attribute("enctype")) == \
        ("post", "/settings/import-csv", "multipart/form-data")
    assert form.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    unit = Select(driver.find_element(By.ID, "csv-unit"))
    assert [o.get_attribute("value") for o in unit.options] == ["ml", "oz"]
    assert unit.first_selected_option.get_attribute("value") == "ml"
    field = driver.find_element(By.ID, "drinks-csv")
    assert (field.get_dom_attribute("type"), field.get_dom_attribute("name")) == ("file", "file")
    progress = section.find_element(By.CSS_SELECTOR, "progress")
    assert not progress.is_displayed(), "the progress bar shows before anything is sent"
    section_shot(driver, shot("empty"), css="#main")

    # An empty download: the header alone, as an attachment named after today.
    answer = download(driver)
    assert answer["type"] == "text/csv; charset=utf-8", answer["type"]
    assert answer["disposition"] == f'attachment; filename="tally-drinks-{today.isoformat()}.csv"', answer["disposition"]
    assert answer["cache"] == "no-store", answer["cache"]
    assert answer["text"] == ",".join(HEADER) + "\r\n", repr(answer["text"])

    # A few entries two days ago, through the API: a drink with the hostile note, one without a
    # note, a removal. A note with a bidi override is refused with a sentence.
    assert unicodedata.normalize("NFC", NOTE) == NOTE
    status, said = api_post(driver, "/api/v1/intakes", {
        "id": str(uuid.uuid4()), "volumeMl": 300, "at": at(before, 9).isoformat(), "note": OVERRIDE_NOTE})
    assert status == 400 and BIDI_REFUSAL in said, f"a note with U+202E: {status} {said}"
    logged = [("drink", str(uuid.uuid4()), 300, at(before, 10), NOTE),
              ("drink", str(uuid.uuid4()), 200, at(before, 12), None),
              ("removal", str(uuid.uuid4()), 100, at(before, 16), None)]
    for kind, id, ml, moment, note in logged:
        body = {"id": id, "volumeMl": ml, "at": moment.isoformat()}
        if kind == "drink":
            body["note"] = note
        status, said = api_post(driver, "/api/v1/intakes" if kind == "drink" else "/api/v1/removals", body)
        assert status == 201, f"the {kind} of {ml} ml was not logged: {status} {said}"
    assert day_page(driver, server, before)[0] == "400 ml"

    # The download: a row each, oldest first, the note exactly as logged after its apostrophe.
    load(driver, server + "/settings/your-data")
    rows = rows_of(download(driver))
    assert [row["id"] for row in rows] == [id for _, id, _, _, _ in logged], rows
    for row, (kind, id, ml, moment, note) in zip(rows, logged):
        assert datetime.fromisoformat(row["time"]) == moment, row
        assert datetime.fromisoformat(row["time"]).utcoffset() == moment.utcoffset(), f"not in Berlin's offset: {row}"
        assert (row["day"], row["type"], float(row["volume_ml"])) == (before.isoformat(), kind, ml), row
        if kind == "drink":
            assert (row["kind"], float(row["factor"]), float(row["effective_ml"]), row["source"]) == \
                ("water", 1, ml, "manual"), row
        else:
            assert (row["kind"], row["factor"], float(row["effective_ml"]), row["note"], row["source"]) == \
                ("", "", -ml, "", ""), row
    assert rows[0]["note"] == "'" + NOTE, f"the note came back as {rows[0]['note']!r}, not {chr(39) + NOTE!r}"
    assert rows[1]["note"] == ""
    downloaded = tmp_path / "downloaded.csv"
    downloaded.write_bytes(download(driver)["text"].encode("utf-8"))

    # A plain CSV, as another app writes it: 330 ml and 8 oz yesterday.
    plain = tmp_path / "plain.csv"
    plain.write_text("date,time,amount,unit\n"
                     f"{yesterday.isoformat()},09:15,330,ml\n"
                     f"{yesterday.isoformat()},14:30,8,oz\n", encoding="utf-8")
    seen = upload(driver, server, plain, javascript)
    assert driver.current_url == f"{server}/settings/your-data?saved=your-data&drinks=2&removals=0&already=0&kinds=0", \
        f"{driver.current_url}; the page says {section_message(driver, 'error') or message(driver, 'error')!r}"
    assert section_message(driver, "error") is None
    assert section_message(driver, "notice") == "Imported 2 drinks and 0 removals."
    assert message(driver, "notice") == "Imported 2 drinks and 0 removals."  # the only notice of the page
    if javascript:
        assert seen and seen["shown"], f"the progress bar never showed: {seen}"
        assert seen["value"] == seen["max"] == 100, f"the progress bar stopped at {seen}"
    section_shot(driver, shot("imported"), css=None)  # where the answer opens: at #your-data

    # Yesterday's page and the history show them: 330 ml and 8 oz (237 ml) of water.
    assert day_page(driver, server, yesterday) == ("567 ml", [("Water · 237 ml", "+237 ml"), ("Water · 330 ml", "+330 ml")])
    bars = week_values(driver, server)
    assert bars.get(str(yesterday.day)) == "567", f"the history's bars: {bars}"
    assert bars.get(str(before.day)) == "400", f"the history's bars: {bars}"

    # The same file again adds nothing, and says so.
    upload(driver, server, plain, javascript)
    assert driver.current_url == f"{server}/settings/your-data?saved=your-data&drinks=0&removals=0&already=2&kinds=0", \
        driver.current_url
    assert section_message(driver, "notice") == "Imported 0 drinks and 0 removals. 2 entries were there already."
    section_shot(driver, shot("again"), css=None)
    assert day_page(driver, server, yesterday)[0] == "567 ml"

    # The download, uploaded back: everything was there already (the note read back as typed).
    upload(driver, server, downloaded, javascript)
    assert section_message(driver, "error") is None, section_message(driver, "error")
    assert section_message(driver, "notice") == "Imported 0 drinks and 0 removals. 3 entries were there already."
    assert day_page(driver, server, before)[0] == "400 ml"

    # A refused file: a good line, then markup for an amount. Nothing of it is imported.
    hostile = tmp_path / "hostile.csv"
    hostile.write_text("date,time,amount,unit\n"
                       f"{yesterday.isoformat()},18:00,100,ml\n"
                       f"{yesterday.isoformat()},19:00,{HOSTILE_AMOUNT},ml\n", encoding="utf-8")
    seen = upload(driver, server, hostile, javascript)
    refusal = section_message(driver, "error")
    shown = HOSTILE_AMOUNT.replace("\u202e", "U+202E")
    expected = (f'Nothing was imported: 1 line is wrong. Line 3, column amount: "{shown}" is not an amount: '
                "write a number such as 250 or 212.5.")
    assert refusal == expected, f"the section says {refusal!r}; the page {message(driver, 'error')!r}"
    assert section_message(driver, "notice") is None
    error = driver.find_element(By.CSS_SELECTOR, "#main > .message.error")
    assert error.is_displayed()
    # Each wrong line on a line of its own, as the server wrote them.
    assert error.text.split("\n")[:2] == ["Nothing was imported: 1 line is wrong.", f'Line 3, column amount: "{shown}" is not an amount: '
                                          "write a number such as 250 or 212.5."], error.text
    assert error.get_dom_attribute("role") == "alert"
    assert driver.execute_script(INJECTED) == []
    no_alert(driver)
    refused_in_place(driver, server, error, seen, javascript, "import-csv")
    section_shot(driver, shot("refused"), css="#main")
    no_alert(driver)
    assert day_page(driver, server, yesterday) == ("567 ml", [("Water · 237 ml", "+237 ml"), ("Water · 330 ml", "+330 ml")])
    load(driver, server + "/settings/your-data")
    assert len(rows_of(download(driver))) == 5

    # The refusal quotes the file's cell: its bidi override must stay inside the quote (isolated,
    # or shown as a code) and not reorder the server's own words after it, which others read as
    # written ("is not an amount: write a number …"), as UserText refuses overrides in any text.
    upload(driver, server, hostile, javascript)
    assert section_message(driver, "error") == expected
    phrase = "is not an amount: write a number"
    reversed_pairs = driver.execute_script(REVERSED, phrase)
    assert reversed_pairs is not None, "the refusal has no text node with the server's own words"
    assert not reversed_pairs, (
        f"the refusal's bidi override (U+202E, from the file's cell) spills out of the quote: the server's words "
        f"{phrase!r} after it are drawn right to left (pairs {reversed_pairs[:5]}…), so the page reads "
        f"'\"exe.png\" si ton na tnuoma: …' (see {shot('refused')}.png)")


# ---------------------------------------------------------------------------------------------
# The backup: everything of one person out as JSON, and into another account


BACKUP_DOWNLOAD = """
const done = arguments[arguments.length - 1];
fetch("/settings/backup.json", { credentials: "same-origin" })
  .then((r) => r.arrayBuffer().then((bytes) => done({
    status: r.status, url: r.url,
    type: r.headers.get("content-type"), disposition: r.headers.get("content-disposition"),
    cache: r.headers.get("cache-control"),
    text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes),
  })), (e) => done({ status: 0, text: String(e) }));
"""

# As WATCH_PROGRESS, for the restore form's own <progress> (the section's second).
WATCH_RESTORE_PROGRESS = WATCH_PROGRESS.replace(
    'document.querySelector("#your-data progress")',
    'document.querySelector("#backup-file").form.querySelector("progress")')

MERGE_REFUSAL = ("This account has drinks already: a backup is restored into a new, empty account. "
                 "To add the backup's data to this account's, merge it (nothing is added twice).")
NOT_A_BACKUP = ('This is not a Tally backup: its "format" is not "tally-person-backup". '
                "Choose the file that Tally's backup wrote.")
NOT_JSON = "This is not a Tally backup: it is not a JSON object (a file cut short, or another kind of file)."


def download_backup(driver):
    """The backup download, read with fetch in the page: status, headers and text."""
    driver.set_script_timeout(20)
    answer = driver.execute_async_script(BACKUP_DOWNLOAD)
    assert answer["status"] == 200, f"the backup download failed: {answer}"
    return answer


def api_get(driver, path):
    driver.set_script_timeout(15)
    status, body = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], { credentials: "same-origin" })
          .then((r) => r.text().then((t) => done([r.status, t])), (e) => done([0, String(e)]));""", path)
    assert status == 200, f"GET {path}: {status} {body}"
    return json.loads(body)


def restore(driver, server, path, javascript, merge=False):
    """Opens the settings page, chooses `path` in the restore form (ticking "Merge into the data
    I have" when told) and sends it; returns once the answer is there, as upload() does, with
    what the restore form's progress bar did when JavaScript runs."""
    load(driver, server + "/settings/your-data")
    if javascript:
        driver.execute_script("sessionStorage.removeItem('tally-progress')")
        driver.execute_script(WATCH_RESTORE_PROGRESS)
    driver.execute_script("window.__tallyMarker = 'same page'")
    box = driver.find_element(By.ID, "backup-merge")
    assert not box.is_selected(), "merging is ticked before anyone ticked it"
    if merge:
        label = driver.find_element(By.CSS_SELECTOR, "label[for='backup-merge']")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
        label.click()
        assert box.is_selected(), "tapping the label did not tick merging"
    driver.find_element(By.ID, "backup-file").send_keys(str(path.resolve()))
    target = button(driver, "Restore", within="//section[@id='your-data']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()
    return answered(driver, javascript, timeout=30, message=f"restoring {path.name} led nowhere")


def refused_in_section(driver, server, javascript, expected, shot_name, seen):
    """The restore's refusal, in the section: the sentence as an alert, no notice, the page
    answered in place (with JavaScript) or as the form's answer (without)."""
    refusal = section_message(driver, "error")
    assert refusal == expected, f"the section says {refusal!r}; the page {message(driver, 'error')!r} at {driver.current_url}"
    assert section_message(driver, "notice") is None
    error = driver.find_element(By.CSS_SELECTOR, "#main > .message.error")
    assert error.is_displayed()
    assert error.get_dom_attribute("role") == "alert"
    refused_in_place(driver, server, error, seen, javascript, "restore")
    # The form is there again, for another try.
    assert driver.find_element(By.ID, "backup-file").is_displayed()
    section_shot(driver, shot_name, css="#main")
    no_alert(driver)


def time_zone(driver, server):
    load(driver, server + "/settings/unit-zone")
    return driver.find_element(By.ID, "time-zone").get_attribute("value")


def ledger_links(driver, server, name):
    """The spending page's links to ledgers called `name`: their addresses."""
    load(driver, server + "/spending?all=1")  # one ledger alone would open at once
    return [a.get_attribute("href") for a in driver.find_elements(By.XPATH, f"//main//li/a[normalize-space()='{name}']")]


def ledger_page(driver, url):
    """A ledger's balance sentences and its history (title, amount)."""
    load(driver, url)
    return owes(driver), [(title, amount) for title, _, amount in history(driver)]


@pytest.mark.parametrize("viewport,javascript", [("desktop", True), ("phone", True), ("desktop", False), ("phone", False)],
                         ids=["desktop", "phone", "desktop-nojs", "phone-nojs"])
def test_your_data_backup(server, browser, unique_name, tmp_path, viewport, javascript):
    prefix = viewport + ("" if javascript else "-nojs")
    shot = lambda page: f"{prefix}-your-data-backup-{page}"
    open_browser = lambda: browser(viewport) if javascript else without_javascript(browser, viewport)

    # Person A, in Berlin: two drinks (one of a kind of their own) and a removal yesterday, and
    # a ledger with two expenses, all through the API.
    a = open_browser()
    sign_up(a, server, ("a-" + unique_name)[:32])
    set_time_zone(a, server, ZONE_NAME)
    now = datetime.now(ZONE)
    today, yesterday = now.date(), now.date() - timedelta(days=1)
    status, said = api_post(a, "/api/v1/kinds", {"name": "Rooibos", "factor": 0.8})
    assert status == 201, f"the kind was not added: {status} {said}"
    logged = [("/api/v1/intakes", {"volumeMl": 300, "at": at(yesterday, 10).isoformat(), "note": "after the run"}),
              ("/api/v1/intakes", {"volumeMl": 250, "kind": "Rooibos", "at": at(yesterday, 12).isoformat()}),
              ("/api/v1/removals", {"volumeMl": 100, "at": at(yesterday, 16).isoformat()})]
    for path, body in logged:
        status, said = api_post(a, path, {"id": str(uuid.uuid4()), **body})
        assert status == 201, f"{path} {body}: {status} {said}"
    ledger_name = "Flat share"
    status, said = api_post(a, "/api/v1/ledgers", {"name": ledger_name, "currency": "EUR", "members": ["Alex", "Sam"]})
    assert status == 201, f"the ledger was not created: {status} {said}"
    ledger = json.loads(said)
    alex, sam = [member["id"] for member in ledger["members"]]
    for amount, description, payer in [("30.00", "Groceries", alex), ("10.00", "Bread", sam)]:
        status, said = api_post(a, f"/api/v1/ledgers/{ledger['id']}/expenses",
                                {"amount": amount, "description": description, "payer": payer})
        assert status == 201, f"the expense {description} was not added: {status} {said}"
    a_day = day_page(a, server, yesterday)
    assert a_day[0] == "400 ml", f"A's day: {a_day}"
    [a_ledger] = ledger_links(a, server, ledger_name)
    a_balance = ledger_page(a, a_ledger)
    assert a_balance[0] == ["Sam owes you €10.00."], f"A's ledger: {a_balance}"
    assert sorted(a_balance[1]) == [("Bread", "€10.00"), ("Groceries", "€30.00")], f"A's ledger: {a_balance}"

    # The section's backup link and restore form.
    load(a, server + "/settings/your-data")
    section = a.find_element(By.ID, "your-data")
    link = section.find_element(By.LINK_TEXT, "Download a backup (JSON)")
    assert link.get_dom_attribute("href") == "/settings/backup.json"
    assert link.get_dom_attribute("download") is not None, "the backup link is not a download"
    form = a.find_element(By.ID, "backup-file").find_element(By.XPATH, "./ancestor::form")
    assert (form.get_dom_attribute("method"), form.get_dom_attribute("action"), form.get_dom_attribute("enctype")) == \
        ("post", "/settings/restore", "multipart/form-data")
    assert form.get_dom_attribute("data-upload") is not None
    assert form.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    merge = form.find_element(By.ID, "backup-merge")
    assert (merge.get_dom_attribute("type"), merge.get_dom_attribute("name"), merge.get_dom_attribute("value")) == \
        ("checkbox", "merge", "yes")
    fields = [el.get_attribute("id") for el in form.find_elements(By.CSS_SELECTOR, "input:not([type=hidden])")]
    assert fields == ["backup-merge", "backup-file"], f"the merge box is not before the file field: {fields}"
    assert not form.find_element(By.TAG_NAME, "progress").is_displayed()
    section_shot(a, shot("section"), css="#your-data h2")

    # The download: a JSON attachment named after today, a tally-person-backup of version 2
    # with everything A logged.
    answer = download_backup(a)
    assert answer["type"] == "application/json; charset=utf-8", answer["type"]
    assert answer["disposition"] == f'attachment; filename="tally-backup-{today.isoformat()}.json"', answer["disposition"]
    assert answer["cache"] == "no-store", answer["cache"]
    backup = json.loads(answer["text"])
    assert (backup["format"], backup["version"]) == ("tally-person-backup", 2), {k: backup.get(k) for k in ("format", "version")}
    assert backup["settings"]["timeZone"] == ZONE_NAME, backup["settings"]
    assert [(e["type"], e["volumeMl"]) for e in backup["entries"]] == [("drink", 300), ("drink", 250), ("removal", 100)], \
        backup["entries"]
    assert "Rooibos" in [kind["name"] for kind in backup["kinds"]], backup["kinds"]
    assert [d["ledger"]["name"] for d in backup["ledgers"]] == [ledger_name], backup["ledgers"]
    assert len(backup["ledgers"][0]["entries"]) == 2, backup["ledgers"][0]
    saved = tmp_path / f"tally-backup-{today.isoformat()}.json"
    saved.write_bytes(answer["text"].encode("utf-8"))

    # Person B, a new account in a browser of their own, restores it.
    b = open_browser()
    sign_up(b, server, ("b-" + unique_name)[:32])
    assert time_zone(b, server) != ZONE_NAME, "B is in Berlin already: the restore's time zone would not show"
    assert ledger_links(b, server, ledger_name) == []
    seen = restore(b, server, saved, javascript)
    notice = ("Restored 2 drinks and 1 removal from the backup. It added 1 drink kind: see Drink kinds. "
              "It added 2 entries to your ledgers. Your settings are the backup's.")
    assert b.current_url == f"{server}/settings/your-data?saved=your-data&restored=2&removals=1&already=0&kinds=1&ledgerEntries=2&recurring=0&merged=0", \
        f"{b.current_url}; the page says {section_message(b, 'error') or message(b, 'error')!r}"
    assert section_message(b, "error") is None
    assert section_message(b, "notice") == notice
    assert message(b, "notice") == notice  # the only notice of the page
    if javascript:
        assert seen and seen["shown"], f"the progress bar never showed: {seen}"
        assert seen["value"] == seen["max"] == 100, f"the progress bar stopped at {seen}"
    section_shot(b, shot("restored"), css=None)

    # B has A's drinks and total, A's time zone, and the ledger with the same balance.
    rooibos = lambda: [(k["name"], k["factor"]) for k in api_get(b, "/api/v1/kinds") if k["name"] == "Rooibos"]
    assert rooibos() == [("Rooibos", 0.8)], api_get(b, "/api/v1/kinds")
    b_day = day_page(b, server, yesterday)
    assert b_day == a_day, f"B's day {b_day}, A's {a_day}"
    section_shot(b, shot("day"), css=None)
    assert time_zone(b, server) == ZONE_NAME
    [b_ledger] = ledger_links(b, server, ledger_name)
    assert b_ledger != a_ledger, "B was sent A's own ledger"
    b_balance = ledger_page(b, b_ledger)
    assert b_balance == a_balance, f"B's ledger {b_balance}, A's {a_balance}"
    section_shot(b, shot("ledger"), css="section.summary")

    # The same file again, without merging: refused, and nothing changed.
    seen = restore(b, server, saved, javascript)
    refused_in_section(b, server, javascript, MERGE_REFUSAL, shot("refused"), seen)
    assert day_page(b, server, yesterday) == a_day
    assert ledger_links(b, server, ledger_name) == [b_ledger]
    assert ledger_page(b, b_ledger) == a_balance

    # Merged: nothing is added twice, and B's own settings stay (B moved to New York meanwhile).
    set_time_zone(b, server, "America/New_York")
    seen = restore(b, server, saved, javascript, merge=True)
    merged = ("Restored 0 drinks and 0 removals from the backup. 3 entries were there already. "
              "Your settings stay as they were.")
    assert b.current_url == f"{server}/settings/your-data?saved=your-data&restored=0&removals=0&already=3&kinds=0&ledgerEntries=0&recurring=0&merged=1", \
        f"{b.current_url}; the page says {section_message(b, 'error') or message(b, 'error')!r}"
    assert section_message(b, "notice") == merged
    assert section_message(b, "error") is None
    if javascript:
        assert seen and seen["shown"] and seen["value"] == 100, f"the progress bar: {seen}"
    section_shot(b, shot("merged"), css=None)
    assert time_zone(b, server) == "America/New_York", "the merge changed B's time zone"
    assert day_page(b, server, yesterday) == a_day
    assert ledger_links(b, server, ledger_name) == [b_ledger]
    assert ledger_page(b, b_ledger) == a_balance, "the merge added the ledger's expenses twice"
    assert rooibos() == [("Rooibos", 0.8)], "the merge added the kind twice"

    # Files that are not backups: JSON of another kind, and a CSV. Refused by name either way.
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something-else", "version": 1, "entries": []}), encoding="utf-8")
    seen = restore(b, server, other, javascript)
    refused_in_section(b, server, javascript, NOT_A_BACKUP, shot("not-a-backup"), seen)
    not_json = tmp_path / "drinks.json"
    not_json.write_text(f"date,time,amount\n{yesterday.isoformat()},09:00,250\n", encoding="utf-8")
    seen = restore(b, server, not_json, javascript, merge=True)
    refused_in_section(b, server, javascript, NOT_JSON, shot("not-json"), seen)
    assert day_page(b, server, yesterday) == a_day
    assert ledger_page(b, b_ledger) == a_balance
