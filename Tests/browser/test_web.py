"""The web app in a real browser (Chromium through Selenium), at a desktop and a phone viewport.

What a person does on the pages, checked through what the pages show (A3, H2–H12): sign up,
onboarding, presets, the custom amount dialog with its add/remove toggle and validation, deleting
with Undo, persistence across a reload, history; the same without JavaScript through plain
forms; an accessibility check of every page visited; screenshots of each page in light and dark
mode into Tests/browser/screenshots/ (look at them).
"""

import re
from datetime import date

import pytest
from selenium.common.exceptions import WebDriverException, NoSuchElementException, StaleElementReferenceException, \
    TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import axe_check, screenshot

INVALID = "Enter an amount more than 0 and at most 5000 ml, such as 250, 250 ml or 8 oz."
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]

# Every control must have an accessible name, every field a label, every image a text; the page
# a language and one h1; ids must be unique (a label's `for` would otherwise point at the wrong field).
A11Y_SCRIPT = r"""
const problems = [];
const describe = (el) => {
  const id = el.id ? "#" + el.id : "";
  const name = el.getAttribute("name") ? `[name=${el.getAttribute("name")}]` : "";
  const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 30);
  return `<${el.tagName.toLowerCase()}${id}${name}>${text}`;
};
const textOf = (el) => (el.textContent || "").trim();
const byIds = (list) => list.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean)
  .map(textOf).join(" ").trim();
const nameOf = (el) => {
  if (el.hasAttribute("aria-labelledby")) { const t = byIds(el.getAttribute("aria-labelledby")); if (t) return t; }
  if ((el.getAttribute("aria-label") || "").trim()) return el.getAttribute("aria-label").trim();
  if (el.labels && el.labels.length) { const t = [...el.labels].map(textOf).join(" ").trim(); if (t) return t; }
  if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes(el.type) && el.value.trim()) return el.value.trim();
  if (["A", "BUTTON", "SUMMARY"].includes(el.tagName)) {
    const t = textOf(el) || [...el.querySelectorAll("img[alt]")].map((i) => i.alt).join(" ").trim();
    if (t) return t;
  }
  if ((el.getAttribute("title") || "").trim()) return el.getAttribute("title").trim();
  return "";
};
const controls = document.querySelectorAll(
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"]');
for (const el of controls) {
  if (!nameOf(el)) problems.push("no accessible name: " + describe(el));
}
for (const el of document.querySelectorAll('input:not([type="hidden"]), select, textarea')) {
  const labelled = (el.labels && [...el.labels].some((l) => textOf(l))) ||
    (el.hasAttribute("aria-labelledby") && byIds(el.getAttribute("aria-labelledby")));
  if (!labelled) problems.push("no label: " + describe(el));
}
for (const el of document.querySelectorAll('img, svg[role="img"], [role="img"]')) {
  const title = el.tagName.toLowerCase() === "svg" ? el.querySelector(":scope > title") : null;
  const text = (el.getAttribute("alt") || "").trim() || (el.getAttribute("aria-label") || "").trim() ||
    (el.hasAttribute("aria-labelledby") && byIds(el.getAttribute("aria-labelledby"))) || (title && textOf(title));
  if (!text && el.getAttribute("alt") !== "") problems.push("image without a text: " + describe(el));
}
for (const el of document.querySelectorAll("svg:not([role]):not([aria-hidden='true'])")) {
  if (!el.closest("[aria-hidden='true']")) problems.push("svg neither labelled (role=img) nor hidden: " + describe(el));
}
if (!(document.documentElement.getAttribute("lang") || "").trim()) problems.push("<html> has no lang");
const h1s = document.querySelectorAll("h1").length;
if (h1s !== 1) problems.push(`${h1s} h1 elements (want exactly 1)`);
const seen = new Map();
for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) || 0) + 1);
for (const [id, count] of seen) if (count > 1) problems.push(`id "${id}" used ${count} times`);
if (!document.title.trim()) problems.push("no <title>");
// WCAG AA contrast of each control's text on its own background, where it has one.
const rgb = (text) => { const m = text.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/);
  return m && (m[4] === undefined || Number(m[4]) === 1) ? [m[1], m[2], m[3]].map(Number) : null; };
const luminance = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
for (const el of document.querySelectorAll("button, .button, .message")) {
  if (!el.getClientRects().length) continue;
  const style = getComputedStyle(el);
  const fg = rgb(style.color), bg = rgb(style.backgroundColor);
  if (!fg || !bg) continue;
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  if (ratio < 4.5) problems.push(`contrast ${ratio.toFixed(1)}:1 (under 4.5:1): ${describe(el)} ${style.color} on ${style.backgroundColor}`);
}
// WCAG 1.4.11: a control's edge (its border, or its own background) stands out 3:1 from what
// is behind it. Native checkboxes, radios, sliders and file pickers draw their own.
const contrast = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
const behind = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
  const c = rgb(getComputedStyle(p).backgroundColor); if (c) return c; } return [255, 255, 255]; };
for (const el of document.querySelectorAll("button, .button, input, select, textarea")) {
  if (!el.getClientRects().length || ["checkbox", "radio", "range", "file", "hidden"].includes(el.type)) continue;
  const style = getComputedStyle(el);
  const back = behind(el), own = rgb(style.backgroundColor), edge = rgb(style.borderTopColor);
  const hasBorder = style.borderTopStyle !== "none" && parseFloat(style.borderTopWidth) > 0;
  if (!hasBorder && !own) continue; // a text-only control, such as a link-styled button
  const best = Math.max(hasBorder && edge ? contrast(edge, back) : 0, own ? contrast(own, back) : 0);
  if (best < 3) problems.push(`edge ${best.toFixed(1)}:1 (under 3:1): ${describe(el)} ${style.borderTopColor} on ${back}`);
}
return problems;
"""


# ---------------------------------------------------------------------------------------------
# Helpers


def check_page(driver, name, full=True):
    """The accessibility checks, no sideways scrolling, and a screenshot of the page as it is.
    axe's findings fail the test when its browser closes (see conftest.browser), with those of
    every other page the test opened. The screenshot shows the page where it was: axe's run
    leaves it scrolled to the top, so it is scrolled back first."""
    where = driver.execute_script("return [scrollX, scrollY]")
    axe_check(driver)
    driver.execute_script("scrollTo(arguments[0], arguments[1])", *where)
    problems = driver.execute_script(A11Y_SCRIPT)
    overflow = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if overflow[0] > overflow[1]:
        problems.append(f"the page scrolls sideways: {overflow[0]} px of content in {overflow[1]} px")
    screenshot(driver, name, full)
    assert not problems, f"{name} ({driver.current_url}):\n  " + "\n  ".join(problems)


def wait(driver, condition, timeout=8, message=""):
    """Waits until `condition` holds; `message` says what did not happen, and may be a function
    that reads the page then (read at once, it could meet the page while it is replaced)."""
    if callable(message):
        try:
            return wait(driver, condition, timeout)
        except TimeoutException:
            raise TimeoutException(message()) from None

    def settled(d):
        try:
            return condition(d)
        except WebDriverException as error:
            # The page was replaced while it was read (a redirect, a swap in place): chromedriver
            # then says so in its own words rather than as a stale element. Read it again.
            if "does not belong to the document" in str(error):
                return False
            raise
    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)) \
        .until(settled, message)


def text(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).text.strip()


def wait_total(driver, expected):
    try:
        wait(driver, lambda d: text(d, "#progress .big") == expected)
    except Exception:
        raise AssertionError(f"the total shows {text(driver, '#progress .big')!r}, not {expected!r}")


def entries(driver):
    """Today's list as (what, amount) pairs."""
    return [(li.find_element(By.CSS_SELECTOR, ".what").text.strip(), li.find_element(By.CSS_SELECTOR, ".amount").text.strip())
            for li in driver.find_elements(By.CSS_SELECTOR, "#entries li")]


def browser_today(driver):
    """The browser's own local date: the day the user is in."""
    return date.fromisoformat(driver.execute_script("return new Date().toLocaleDateString('en-CA')"))


def fill(driver, css, value):
    field = driver.find_element(By.CSS_SELECTOR, css)
    field.clear()
    field.send_keys(value)
    return field


# Resolves once the element has stayed where it is for a few frames and nothing covers its
# middle (a smooth scroll the page started has come to rest), or after two seconds.
_AT_REST = """
const [element, done] = arguments;
const end = performance.now() + 2000;
let last = "", still = 0;
(function look() {
  const box = element.getBoundingClientRect();
  const now = [box.x, box.y, box.width, box.height].join();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  still = now === last && top && (top === element || element.contains(top)) ? still + 1 : 0;
  last = now;
  if (still >= 3 || performance.now() > end) done(still >= 3); else requestAnimationFrame(look);
})();
"""


def click(driver, element):
    """Clicks like a finger or a mouse would: scrolled into view first (the phone page is long),
    once the page holds still under it (a tap lands where the finger is, not where the button was)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    if not hasattr(driver, "check_last_document"):  # a page without JavaScript scrolls only as it is told
        driver.execute_async_script(_AT_REST, element)
    element.click()


def sign_up(driver, server, name, password="correct horse 1"):
    driver.get(server + "/signup")
    fill(driver, "#name", name)
    fill(driver, "#password", password)
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Create account']"))
    wait(driver, lambda d: d.current_url.endswith("/onboarding"), timeout=20, message="sign-up did not lead to onboarding")


def focused_label(driver):
    """What the focused element is called (aria-label, else its text), or its tag."""
    return driver.execute_script("""
        const el = document.activeElement;
        return el.getAttribute("aria-label") || el.textContent.trim() || el.tagName.toLowerCase();""")


def dark(driver, on):
    features = [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


# ---------------------------------------------------------------------------------------------
# The flow, with JavaScript, at both viewports


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_flow(server, browser, unique_name, viewport):
    driver = browser(viewport)
    shot = lambda page: f"{viewport}-{page}"

    # The public pages.
    driver.get(server + "/signin")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    check_page(driver, shot("signin"))
    driver.get(server + "/signup")
    check_page(driver, shot("signup"))
    # The time zone the page sends with the sign-up is the browser's own.
    zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert driver.find_element(By.CSS_SELECTOR, "input[data-time-zone]").get_attribute("value") == zone

    # Sign up → onboarding.
    sign_up(driver, server, unique_name)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Your daily goal"
    fill(driver, "#age", "40")
    fill(driver, "#weight", "70")
    Select(driver.find_element(By.ID, "activity")).select_by_value("moderate")
    driver.find_element(By.ID, "age").click()  # leaves the select: its change event has fired
    # The breakdown appears as the numbers are entered (JS preview), before anything is saved.
    wait(driver, lambda d: "2600 ml a day" in text(d, "#goal-preview"), message="no goal preview")
    breakdown = text(driver, "#goal-preview")
    assert "Base 2100 ml (30 ml per kg)" in breakdown and "+ activity 500 ml" in breakdown, breakdown
    check_page(driver, shot("onboarding"))
    # The "Show the goal" button gives the same breakdown from the server.
    page = driver.find_element(By.TAG_NAME, "html")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Show the goal']"))
    # The server's page replaces this one, whose script already shows the same text: wait for it.
    wait(driver, EC.staleness_of(page), message="the server's preview did not arrive")
    wait(driver, lambda d: "= 2600 ml a day" in text(d, "#goal-preview"))
    assert driver.find_element(By.ID, "age").get_attribute("value") == "40"
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Use this goal']"))
    wait(driver, lambda d: d.current_url.rstrip("/") == server, message="onboarding did not lead to today")

    # Today: nothing yet, the goal from the profile.
    assert driver.find_element(By.TAG_NAME, "h1").text == "Today"
    assert text(driver, "#total") == "0 ml"
    assert text(driver, "#progress .of") == "of 2600 ml"
    assert text(driver, "#percent") == "0 %"
    assert text(driver, "#entries") == "No drinks yet today."
    ring = driver.find_element(By.CSS_SELECTOR, "svg.ring title").get_attribute("textContent")
    assert ring == "0 % of your 2600 ml goal"
    check_page(driver, shot("today-empty"))

    # A preset: the total changes in place, without loading the page again.
    driver.execute_script("window.__tallyMarker = 'same page'")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[aria-label='Add 250 ml of water']"))
    wait_total(driver, "250 ml")
    assert driver.execute_script("return window.__tallyMarker") == "same page", "the page was loaded again"
    assert focused_label(driver) == "Add 250 ml of water", "the pressed button lost the focus"
    assert text(driver, "#percent") == "10 %"
    assert entries(driver) == [("Water · 250 ml", "+250 ml")]

    # The custom amount: a dialog opened by a button; 330 ml of coffee count 280.5 ml.
    assert not driver.find_elements(By.CSS_SELECTOR, "details.custom"), "the custom amount was not made a dialog"
    open_button = driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']")
    click(driver, open_button)
    dialog = driver.find_element(By.CSS_SELECTOR, "dialog")
    wait(driver, lambda d: dialog.get_attribute("open") is not None, message="the dialog did not open")
    assert driver.switch_to.active_element == driver.find_element(By.ID, "amount"), "focus is not on the amount"
    check_page(driver, shot("today-dialog"), full=False)
    driver.find_element(By.ID, "amount").send_keys("330")
    Select(driver.find_element(By.ID, "kind")).select_by_value("coffee")
    click(driver, dialog.find_element(By.XPATH, ".//button[normalize-space()='Log it']"))
    wait_total(driver, "531 ml")
    assert driver.execute_script("return window.__tallyMarker") == "same page"
    assert not driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open"), "the dialog stayed open"
    assert focused_label(driver) == "Custom amount…", "the focus did not return to the dialog's button"
    assert sorted(entries(driver)) == sorted([("Water · 250 ml", "+250 ml"), ("Coffee · 330 ml", "+281 ml")])

    # Removing through the dialog's Add/Remove toggle.
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']"))
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-remove']").click()
    assert driver.find_element(By.ID, "mode-remove").is_selected()
    # Removing is not drinking: no drink kind to choose, and the button says what it does.
    assert not driver.find_element(By.ID, "kind").is_displayed()
    driver.find_element(By.ID, "amount").send_keys("31")
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Remove it']"))
    wait_total(driver, "500 ml")
    assert ("Removed", "−31 ml") in entries(driver)
    assert len(entries(driver)) == 3

    # Removing more than the day's total: the dialog stays open and says how much can go (H3).
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']"))
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-remove']").click()
    fill(driver, "#amount", "5000")
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Remove it']"))
    wait(driver, lambda d: d.find_element(By.ID, "amount-error").text.strip() != "", message="no refusal shown")
    assert text(driver, "#amount-error") == \
        "Cannot remove 5000 ml: the day's total is 500 ml, so at most 499 ml can be removed."
    assert driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open") is not None
    assert driver.find_element(By.ID, "amount").get_attribute("value") == "5000"
    assert text(driver, "#total") == "500 ml" and len(entries(driver)) == 3
    check_page(driver, shot("today-refused"), full=False)
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Cancel']"))

    # An invalid amount is refused in the page, with its message, and nothing is sent.
    driver.execute_script("""
        window.__sent = 0;
        const original = window.fetch;
        window.fetch = (...args) => { window.__sent += 1; return original(...args); };""")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']"))
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-add']").click()
    assert driver.find_element(By.ID, "kind").is_displayed()
    for bad in ["0", "6000"]:
        amount = fill(driver, "#amount", bad)
        click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Log it']"))
        error = driver.find_element(By.ID, "amount-error")
        wait(driver, lambda d: error.text.strip() == INVALID, message=f"no message for {bad}")
        assert error.is_displayed(), f"the message for {bad} is not visible"
        assert amount.get_attribute("aria-invalid") == "true"
        assert driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open") is not None
        assert driver.execute_script("return window.__sent") == 0, f"{bad} was sent"
        assert text(driver, "#total") == "500 ml"
    check_page(driver, shot("today-invalid"), full=False)
    # A valid amount clears the message as it is typed.
    fill(driver, "#amount", "10")
    assert driver.find_element(By.ID, "amount-error").text.strip() == ""
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Cancel']"))
    assert not driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open")
    assert text(driver, "#total") == "500 ml" and driver.execute_script("return window.__sent") == 0

    # Deleting asks nothing: the drink goes at once, and Undo, focused, brings it back as it was.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete coffee']"))
    wait_total(driver, "219 ml")
    assert sorted(entries(driver)) == sorted([("Water · 250 ml", "+250 ml"), ("Removed", "−31 ml")])
    # The Undo comes with the swapped page, which a loaded machine shows a moment after the total.
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main .message span"))
    assert text(driver, "main .message span").startswith("Deleted coffee · 330 ml at ")
    # The page's live update may draw the notice once more, with an Undo of its own: the focus
    # is on whichever Undo the page shows.
    wait(driver, lambda d: d.switch_to.active_element == d.find_element(By.CSS_SELECTOR, "main .message button"),
         message="Undo is not focused after a delete")
    undo = driver.find_element(By.CSS_SELECTOR, "main .message button")
    assert undo.text == "Undo"
    assert driver.execute_script("return window.__tallyMarker") == "same page"
    check_page(driver, shot("today-undo"), full=False)
    click(driver, undo)
    wait_total(driver, "500 ml")
    assert text(driver, "main .message") == "Undone."
    assert sorted(entries(driver))[0] == ("Coffee · 330 ml", "+281 ml"), entries(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete coffee']"))
    wait_total(driver, "219 ml")
    # A tap on a button, too, is taken back with Undo.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.preset[aria-label='Add 100 ml of water']"))
    wait_total(driver, "319 ml")
    # The notice, like the Undo above, may come a moment after the total on a loaded machine.
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main .message span"), message="no notice after a preset")
    assert text(driver, "main .message span") == "Added 100 ml."
    click(driver, driver.find_element(By.CSS_SELECTOR, "main .message button"))
    wait_total(driver, "219 ml")
    assert driver.execute_script("return window.__tallyMarker") == "same page"
    check_page(driver, shot("today"))

    # A reload shows what the server kept.
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert driver.execute_script("return window.__tallyMarker") is None
    assert text(driver, "#total") == "219 ml"
    assert text(driver, "#percent") == "8 %"
    assert sorted(entries(driver)) == sorted([("Water · 250 ml", "+250 ml"), ("Removed", "−31 ml")])
    day = browser_today(driver)
    assert driver.find_element(By.CSS_SELECTOR, "section.today").get_attribute("data-day") == day.isoformat()

    # History: today's bar and today's calendar cell.
    click(driver, driver.find_element(By.LINK_TEXT, "History"))
    wait(driver, lambda d: d.current_url.endswith("/history"))
    bars = driver.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")
    assert len(bars) == 7
    weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday()]
    # What a screen reader reads: the table beside the drawing, a row a day.
    rows = [[c.get_attribute("textContent").strip() for c in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#week-table tbody tr")]
    assert len(rows) == 7
    assert (rows[-1][0], rows[-1][1], rows[-1][3]) == (f"Today, {weekday} {day.day}", "219 ml", "8 %"), rows[-1]
    assert float(bars[-1].get_attribute("height")) > 0
    for earlier in rows[:-1]:
        assert (earlier[1], earlier[3]) == ("0 ml", "0 %"), earlier
    cell = driver.find_element(By.CSS_SELECTOR, "table.calendar td[aria-current='date']")
    link = cell.find_element(By.TAG_NAME, "a")
    assert link.get_attribute("aria-label") == f"{MONTHS[day.month - 1]} {day.day}, goal not met"
    assert link.text == str(day.day)
    assert "some" in cell.get_attribute("class").split()
    assert text(driver, "#month-title") == f"{MONTHS[day.month - 1]} {day.year}"
    assert re.search(r"\b0\b days in a row", text(driver, ".streaks")), text(driver, ".streaks")
    check_page(driver, shot("history"))

    # Its calendar leads to the day.
    click(driver, link)
    wait(driver, lambda d: d.current_url.endswith(f"/day/{day.isoformat()}"))
    assert text(driver, "#total") == "219 ml"

    # Settings: a row per section that says what it is set to; the profile and the goal it gives.
    click(driver, driver.find_element(By.LINK_TEXT, "Settings"))
    wait(driver, lambda d: d.current_url.endswith("/settings"))
    assert text(driver, "a[href='/settings/goal'] .value") == "2600 ml a day, from your profile"
    assert text(driver, "a[href='/settings/profile'] .value") == "40 years, 70 kg, moderate activity"
    assert text(driver, "a[href='/settings/unit-zone'] .value") == f"ml · {zone}"
    check_page(driver, shot("settings"))
    click(driver, driver.find_element(By.CSS_SELECTOR, "a[href='/settings/profile']"))
    wait(driver, lambda d: d.current_url.endswith("/settings/profile"))
    assert driver.find_element(By.ID, "age").get_attribute("value") == "40"
    assert driver.find_element(By.ID, "weight").get_attribute("value") == "70"
    check_page(driver, shot("settings-profile"))
    driver.get(server + "/settings/goal")
    assert "2600 ml" in driver.find_element(By.CSS_SELECTOR, "label[for='goal-auto']").text
    driver.get(server + "/settings/unit-zone")
    assert driver.find_element(By.ID, "time-zone").get_attribute("value") == zone, "not the browser's time zone"

    # Dark mode: the same pages, for the screenshots and the checks.
    dark(driver, True)
    assert driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
    for page, path in [("today", "/"), ("history", "/history"), ("settings", "/settings")]:
        driver.get(server + path)
        check_page(driver, shot(f"{page}-dark"))
    driver.get(server + "/")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']"))
    check_page(driver, shot("today-dialog-dark"), full=False)
    dark(driver, False)


# ---------------------------------------------------------------------------------------------
# The keyboard alone (A3: full keyboard use)


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def tab_to(driver, wanted, limit=40):
    """Presses Tab until the focused control's name starts with `wanted`."""
    seen = []
    for _ in range(limit):
        press(driver, Keys.TAB)
        label = focused_label(driver)
        if label.startswith(wanted):
            return label
        seen.append(label)
    raise AssertionError(f"Tab never reached {wanted!r}; it went through {seen}")


def test_keyboard(server, browser, unique_name):
    driver = browser("desktop")
    sign_up(driver, server, unique_name)
    driver.find_element(By.LINK_TEXT, "Skip for now").send_keys(Keys.ENTER)
    wait(driver, lambda d: d.current_url.rstrip("/") == server)
    assert text(driver, "#progress .of") == "of 2500 ml", "a skipped onboarding keeps the 2500 ml goal"

    # The first Tab reaches the skip link, which leads into main.
    assert tab_to(driver, "Skip to content", limit=1)
    assert driver.execute_script("return getComputedStyle(document.activeElement).left") != "-1600px"
    press(driver, Keys.ENTER)
    assert driver.execute_script("return document.activeElement.id") == "main"

    # A preset, twice, without leaving the keyboard: the focus stays on the button.
    tab_to(driver, "Add 250 ml of water")
    screenshot(driver, "desktop-keyboard-focus", full=False)
    press(driver, Keys.ENTER)
    wait_total(driver, "250 ml")
    assert focused_label(driver) == "Add 250 ml of water"
    press(driver, Keys.ENTER)
    wait_total(driver, "500 ml")

    # The custom amount: Enter opens the dialog on its field, Enter sends it, Escape closes it.
    tab_to(driver, "Custom amount…")
    press(driver, Keys.ENTER)
    assert driver.switch_to.active_element.get_attribute("id") == "amount"
    press(driver, "100", Keys.ENTER)
    wait_total(driver, "600 ml")
    assert focused_label(driver) == "Custom amount…"
    press(driver, Keys.ENTER)
    assert driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open") is not None
    press(driver, Keys.ESCAPE)
    assert not driver.find_element(By.CSS_SELECTOR, "dialog").get_attribute("open")
    assert focused_label(driver) == "Custom amount…"

    # Delete from the keyboard; Undo has the focus, and Enter brings the drink back.
    tab_to(driver, "Delete water · 100 ml")
    press(driver, Keys.ENTER)
    wait_total(driver, "500 ml")
    assert driver.switch_to.active_element.text == "Undo"
    press(driver, Keys.ENTER)
    wait_total(driver, "600 ml")


# ---------------------------------------------------------------------------------------------
# Without JavaScript: plain forms


def test_without_javascript(server, browser, unique_name):
    # WebDriver's scripts still run (the checks use them); the page's own do not. At the desktop
    # size: chromedriver's clicks hang under mobile emulation with JavaScript off (not Tally's doing).
    driver = browser("desktop", javascript=False)
    name = unique_name
    sign_up(driver, server, name)
    # Sign out, then in again.
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Sign out']"))
    wait(driver, lambda d: d.current_url.endswith("/signin"))
    fill(driver, "#name", name)
    fill(driver, "#password", "wrong password 1")
    click(driver, driver.find_element(By.XPATH, "//main//button[normalize-space()='Sign in']"))
    # Waited for: the refusal is a new page, and the click may return before it arrives.
    refusal = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main .message.error"))
    assert refusal.text.strip() != ""
    fill(driver, "#password", "correct horse 1")
    click(driver, driver.find_element(By.XPATH, "//main//button[normalize-space()='Sign in']"))
    wait(driver, lambda d: d.current_url.rstrip("/") == server, timeout=20)
    check_page(driver, "nojs-today-empty")
    assert text(driver, "#total") == "0 ml"
    assert text(driver, "#progress .of") == "of 2500 ml", "without a profile the goal is 2500 ml"
    # No script: the custom amount stays a disclosure, not a dialog.
    assert not driver.find_elements(By.CSS_SELECTOR, "dialog")

    # A preset, through its form.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[aria-label='Add 250 ml of water']"))
    wait_total(driver, "250 ml")

    # The custom amount, through the disclosure.
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.custom summary"))
    fill(driver, "#amount", "330")
    Select(driver.find_element(By.ID, "kind")).select_by_value("coffee")
    screenshot(driver, "nojs-today-custom")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Log it']"))
    wait_total(driver, "531 ml")

    # The server refuses an invalid amount and says why, keeping the total; the form comes back
    # open with what was typed, to correct.
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.custom summary"))
    fill(driver, "#amount", "6000")
    Select(driver.find_element(By.ID, "kind")).select_by_value("coffee")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Log it']"))
    message = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main .message.error"))
    assert "5000 ml" in message.text, message.text
    assert text(driver, "#total") == "531 ml"
    assert driver.find_element(By.CSS_SELECTOR, "details.custom").get_attribute("open") is not None
    amount = driver.find_element(By.ID, "amount")
    assert amount.get_attribute("value") == "6000" and amount.get_attribute("aria-invalid") == "true"
    assert text(driver, "#amount-error") == message.text
    assert Select(driver.find_element(By.ID, "kind")).first_selected_option.get_attribute("value") == "coffee"
    check_page(driver, "nojs-today-refused")
    fill(driver, "#amount", "200")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Log it']"))
    wait_total(driver, "701 ml")
    assert not driver.find_elements(By.CSS_SELECTOR, "main .message.error")

    # Deleting goes through a confirmation page; "Keep it" keeps the drink.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete coffee · 330']"))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Delete 330 ml of coffee?")
    check_page(driver, "nojs-delete-confirm")
    dark(driver, True)
    check_page(driver, "nojs-delete-confirm-dark")
    dark(driver, False)
    click(driver, driver.find_element(By.LINK_TEXT, "Keep it"))
    wait_total(driver, "701 ml")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete coffee · 330']"))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Delete 330 ml of coffee?")
    click(driver, driver.find_element(By.XPATH, "//main//button[normalize-space()='Delete']"))
    wait_total(driver, "420 ml")
    assert sorted(entries(driver)) == sorted([("Water · 250 ml", "+250 ml"), ("Coffee · 200 ml", "+170 ml")])

    # The remove button takes the smallest preset off.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[aria-label='Remove 100 ml']"))
    wait_total(driver, "320 ml")
    assert ("Removed", "−100 ml") in entries(driver)
    check_page(driver, "nojs-today")
