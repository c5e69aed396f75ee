"""Issue 17's gaps on the hydration side, in a real browser: the week's chart with its numbers
(phone size, dark mode, larger text), the settings page's index of sections (with and without
JavaScript), and a quick add from the home screen that logs one drink however often its page is
reloaded. Screenshots go into Tests/browser/screenshots/ (look at them)."""

import re

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_spending import button, load, without_javascript
from test_web import check_page, click, dark, fill, sign_up, text, wait


def set_goal(driver, server, ml):
    load(driver, server + "/settings/goal")
    driver.find_element(By.ID, "goal-custom").click()
    fill(driver, "#goal-amount", str(ml))
    click(driver, button(driver, "Save goal"))
    wait(driver, lambda d: d.current_url.endswith("/settings/goal?saved=goal"), message="the goal was not saved")


def add_preset(driver, server, label):
    load(driver, server + "/")
    before = text(driver, "#total")
    click(driver, driver.find_element(By.CSS_SELECTOR, f"button.preset[aria-label='Add {label} of water']"))
    wait(driver, lambda d: text(d, "#total") != before, message="the drink was not added")


def table_rows(driver):
    return [[cell.get_attribute("textContent").strip() for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#week-table tbody tr")]


def boxes(driver, css):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height, text: e.textContent}; })", css)


def assert_readable(driver, where):
    """The numbers above the bars: each at least 11 CSS px tall, none running into the next, and
    the goal's label clear of the bars' numbers."""
    values = boxes(driver, "svg.chart text.value")
    assert len(values) == 7, where
    for box in values:
        assert box["height"] >= 11, f"{where}: the number {box['text']} is {box['height']:.1f} px tall"
    for a, b in zip(values, values[1:]):
        assert a["right"] <= b["left"], f"{where}: {a['text']} runs into {b['text']}"
    goal = boxes(driver, "svg.chart .goal-label")
    assert goal and all(g["left"] >= values[-1]["right"] for g in goal), f"{where}: the goal's label is over a number"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_week_chart_has_its_numbers(server, browser, unique_name, viewport):
    shot = lambda name: f"{viewport}-week-{name}"
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    set_goal(driver, server, 2000)
    add_preset(driver, server, "500 ml")
    add_preset(driver, server, "250 ml")
    load(driver, server + "/history")

    values = [t.get_attribute("textContent") for t in driver.find_elements(By.CSS_SELECTOR, "svg.chart text.value")]
    assert values == ["0"] * 6 + ["750"], values
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.chart .goal-line")) == 1
    assert [t.get_attribute("textContent") for t in driver.find_elements(By.CSS_SELECTOR, "svg.chart .goal-label")] == ["Goal", "2000 ml"]
    # Today: outlined, and named in words, not by colour alone.
    assert driver.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar.today")
    assert driver.find_element(By.CSS_SELECTOR, "svg.chart .today-label").get_attribute("textContent") == "Today"
    # One reading for a screen reader: the drawing is hidden from it, the table says the same.
    assert driver.find_element(By.CSS_SELECTOR, "svg.chart").get_attribute("aria-hidden") == "true"
    rows = table_rows(driver)
    assert len(rows) == 7 and rows[-1][0].startswith("Today, ") and rows[-1][1:] == ["750 ml", "2000 ml", "38 %"], rows
    assert all(row[1] == "0 ml" for row in rows[:-1]), rows
    # Out of sight: its box is clipped to a pixel.
    hidden = driver.find_element(By.XPATH, "//table[@id='week-table']/parent::div")
    assert "visually-hidden" in hidden.get_attribute("class") and hidden.size["width"] <= 1
    assert "the line is your goal, 2000 ml" in text(driver, "#week-legend")
    assert_readable(driver, viewport)
    check_page(driver, shot("light"))

    dark(driver, True)
    load(driver, server + "/history")
    colours = driver.execute_script("""
        const value = getComputedStyle(document.querySelector("svg.chart text.value")).fill;
        const body = getComputedStyle(document.body).backgroundColor;
        return [value, body];""")
    assert colours[0] != colours[1], colours
    assert_readable(driver, f"{viewport}, dark")
    check_page(driver, shot("dark"))
    dark(driver, False)

    # Text at 200 %: the numbers grow (up to what a column holds) and still never overlap.
    before = boxes(driver, "svg.chart text.value")[-1]["height"]
    driver.execute_script("document.documentElement.style.fontSize = '200%'")
    after = boxes(driver, "svg.chart text.value")[-1]["height"]
    assert after > before, (before, after)
    assert_readable(driver, f"{viewport}, 200 % text")
    # The chart stays within the window (every page's reflow at this size: test_reflow.py).
    right = driver.execute_script("return document.querySelector('svg.chart').getBoundingClientRect().right")
    assert right <= driver.execute_script("return document.documentElement.clientWidth"), right
    screenshot(driver, shot("text-200"))


def index_rows(driver):
    return [(text_of(a, ".what"), a.get_attribute("href")) for a in driver.find_elements(By.CSS_SELECTOR, ".settings-list a")]


def text_of(element, css):
    return element.find_element(By.CSS_SELECTOR, css).text.strip()


# The settings' rows, in groups, and where each leads.
ROWS = [("Daily goal", "/settings/goal"), ("Profile", "/settings/profile"), ("Quick-add buttons", "/settings/presets"),
        ("Drink kinds", "/settings/kinds"), ("Bottle", "/bottle"), ("Unit and time zone", "/settings/unit-zone"),
        ("Reminders", "/settings/reminders"), ("Calendar", "/settings/calendar"), ("Apple Health", "/settings/apple-health"),
        ("Your data", "/settings/your-data"), ("Language", "/settings/language"), ("Your account", "/account")]


def follow_each_row(driver, server, viewport):
    load(driver, server + "/settings")
    rows = index_rows(driver)
    assert [(name, href.removeprefix(server)) for name, href in rows] == ROWS, rows
    for name, href in rows:
        load(driver, server + "/settings")
        click(driver, driver.find_element(By.XPATH, f"//ul[@class='settings-list']//a[.//span[normalize-space()='{name}']]"))
        wait(driver, lambda d: d.current_url == href, message=f"{name} did not lead to {href}")
        # Each section's page has its title as its heading, and a way back to the settings.
        assert driver.find_element(By.TAG_NAME, "h1").text, f"{name}: no heading"
        if href.startswith(server + "/settings/"):
            assert driver.find_element(By.TAG_NAME, "h1").text.startswith(name) or name == "Calendar", driver.find_element(By.TAG_NAME, "h1").text
            click(driver, driver.find_element(By.CSS_SELECTOR, ".back a"))
            wait(driver, lambda d: d.current_url == server + "/settings", message=f"{name}: no way back to the settings")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_settings_index(server, browser, unique_name, viewport):
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    follow_each_row(driver, server, viewport)
    load(driver, server + "/settings")
    check_page(driver, f"{viewport}-settings-index", full=False)
    # A saved form comes back to its own page, saying so at the top, in sight.
    load(driver, server + "/settings/presets")
    fill(driver, "#preset-3", "750")
    click(driver, button(driver, "Save buttons"))
    wait(driver, lambda d: d.current_url.endswith("/settings/presets?saved=presets"))
    notice = driver.find_element(By.CSS_SELECTOR, ".message.notice")
    assert notice.text == "Saved."
    wait(driver, lambda d: d.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", notice),
        message=f"the notice is off screen (top {notice.rect['y']:.0f} px, scrolled to {driver.execute_script('return scrollY')} px)")
    check_page(driver, f"{viewport}-settings-saved", full=False)
    # The index says what the buttons are now.
    load(driver, server + "/settings")
    assert text(driver, "a[href='/settings/presets'] .value") == "100 ml · 250 ml · 500 ml · 750 ml"
    dark(driver, True)
    load(driver, server + "/settings")
    check_page(driver, f"{viewport}-settings-index-dark", full=False)
    dark(driver, False)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_settings_index_without_javascript(server, browser, unique_name, viewport):
    driver = without_javascript(browser, viewport)
    sign_up(driver, server, unique_name)
    follow_each_row(driver, server, viewport)
    # A refused form comes back to its page, with the reason at the top.
    load(driver, server + "/settings/reminders")
    fill(driver, "#frequency", "99")
    driver.execute_script("document.getElementById('frequency').removeAttribute('max')")
    click(driver, button(driver, "Save reminders"))
    # The answer comes to the same address as the form: wait for the page it brings.
    wait(driver, lambda d: d.current_url.endswith("/settings/reminders") and d.find_elements(By.CSS_SELECTOR, ".message.error"))
    error = driver.find_element(By.CSS_SELECTOR, ".message.error")
    assert error.text, "no reason on the reminders' page"
    check_page(driver, f"{viewport}-nojs-settings-refused", full=False)


def today_total(driver, server):
    load(driver, server + "/")
    return text(driver, "#total"), len(driver.find_elements(By.CSS_SELECTOR, "#entries li"))


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_quick_add_shortcut_logs_once(server, browser, unique_name, viewport):
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    # The manifest's second shortcut: the second quick-add button, 250 ml.
    load(driver, server + "/quick/2")
    wait(driver, lambda d: "?logged=" in d.current_url, message="the shortcut's page did not log the drink")
    assert re.fullmatch(r".*/quick/2\?logged=[0-9A-F-]{36}", driver.current_url), driver.current_url
    assert text(driver, "h1") == "Logged 250 ml"
    assert text(driver, "#quick-result").startswith("Logged 250 ml of water at ")
    assert text(driver, "#quick-total").startswith("Today: 250 ml")
    check_page(driver, f"{viewport}-quick-logged")
    landed = driver.current_url

    # Opened again as the app reopens it (the same address), reloaded, back and forward: one drink.
    load(driver, landed)
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert text(driver, "h1") == "Logged 250 ml"
    driver.back()
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    driver.forward()
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert today_total(driver, server) == ("250 ml", 1)

    # Signed out, the shortcut leads to signing in, and logs nothing.
    dark(driver, True)
    load(driver, landed)
    check_page(driver, f"{viewport}-quick-logged-dark")
    dark(driver, False)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_quick_add_without_javascript_asks_and_logs_once(server, browser, unique_name, viewport):
    driver = without_javascript(browser, viewport)
    sign_up(driver, server, unique_name)
    load(driver, server + "/quick/1")
    assert text(driver, "h1") == "Log 100 ml of water?"
    check_page(driver, f"{viewport}-nojs-quick-ask")
    form_id = driver.find_element(By.CSS_SELECTOR, "input[name='id']").get_attribute("value")
    click(driver, button(driver, "Log 100 ml"))
    wait(driver, lambda d: "?logged=" + form_id in d.current_url)
    assert text(driver, "h1") == "Logged 100 ml"
    driver.refresh()
    assert text(driver, "h1") == "Logged 100 ml"
    # The same form sent once more (a double tap, a resent form): the answer says so, one drink.
    load(driver, server + "/quick/1")
    driver.execute_script("document.querySelector(\"input[name='id']\").value = arguments[0]", form_id)
    click(driver, button(driver, "Log 100 ml"))
    wait(driver, lambda d: "?already=" + form_id in d.current_url)
    assert text(driver, "h1") == "Already logged"
    assert "Nothing was added." in text(driver, "#quick-result")
    check_page(driver, f"{viewport}-nojs-quick-already")
    assert today_total(driver, server) == ("100 ml", 1)
