"""Daily use on a phone (390×844) and a desktop: what a household opens ten times a day.

- One link joins a ledger: the owner opens an invite and sees the link with Copy (and Share
  where the browser has it) and its QR code; someone without an account opens the link, creates
  one on the same page, and lands in the ledger as the member they chose, reading the balance
  from their own side.
- A past day's page logs to that day, and the custom amount reads "8oz" as 8 ounces.
- Long member names and six-figure amounts never make a page scroll sideways; amounts carry
  their currency's symbol and grouping.
- On a phone the sections are a tab bar at the bottom.

Each page passes test_web's checks (axe-core, no sideways scrolling) and leaves a screenshot in
Tests/browser/screenshots/ ({desktop,phone}-daily-*.png: look at them).
"""

import re
from datetime import date, timedelta

import pytest
from selenium.webdriver.common.by import By

from conftest import VIEWPORTS, screenshot
from test_spending import balances, button, checked_payer, create_ledger, history, load, owes, sign_up_and_open_spending
from test_languages import sign_up_and_skip_the_goal
from test_web import check_page, click, fill, sign_up, text, wait


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_one_link_joins_a_ledger(server, browser, unique_name, viewport):
    shot = lambda page: f"{viewport}-daily-{page}"
    alex, newcomer = browser(viewport), browser(viewport)
    sign_up_and_open_spending(alex, server, ("alex-" + unique_name)[:32])
    ledger = create_ledger(alex, "Home")

    # The owner opens an invite: the link, Copy, and its QR code drawn by the server.
    load(alex, ledger + "/settings")
    click(alex, button(alex, "Create an invite"))
    code = wait(alex, lambda d: d.find_element(By.CSS_SELECTOR, "strong.code")).text.strip()
    link = f"{server}/join/{code}"
    box = alex.find_element(By.CSS_SELECTOR, "[data-invite-link]")
    assert box.get_attribute("data-invite-link") == link
    qr = alex.find_element(By.CSS_SELECTOR, "svg.qr")
    assert qr.get_attribute("aria-label") == "QR code of the invite link to Home"
    assert len(qr.find_element(By.TAG_NAME, "path").get_attribute("d")) > 500, "the QR code has no modules"
    copy = alex.find_element(By.CSS_SELECTOR, "[data-copy-invite]")
    assert copy.is_displayed(), "Copy is not offered with JavaScript"
    click(alex, copy)
    wait(alex, lambda d: text(d, "[data-copied]") in ("Link copied.", "Could not copy: select the link above instead."),
         message="Copy said nothing")
    check_page(alex, shot("invite"))

    # Someone without an account opens the link: one page to create an account and join.
    load(newcomer, link)
    wait(newcomer, lambda d: "/signup?join=" in d.current_url, message="the link did not lead to sign-up")
    assert newcomer.find_element(By.TAG_NAME, "h1").text == "Join Home"
    assert "You are invited to Home (EUR), kept by Person 1, Person 2." in text(newcomer, "#invitation")
    assert not newcomer.find_elements(By.ID, "invite"), "a server invite is asked for"
    chosen = newcomer.find_element(By.CSS_SELECTOR, "input[name=member]:checked")
    assert text(newcomer, f"label[for='{chosen.get_attribute('id')}']") == "Person 2", "the one free member is not chosen"
    check_page(newcomer, shot("join"))
    fill(newcomer, "#name", ("ben-" + unique_name)[:32])
    fill(newcomer, "#password", "correct horse 1")
    click(newcomer, newcomer.find_element(By.XPATH, "//button[normalize-space()='Create account and join']"))
    wait(newcomer, lambda d: d.current_url == ledger, timeout=20, message="joining did not lead to the ledger")
    assert owes(newcomer) == ["You are settled up."]
    assert checked_payer(newcomer) == "Person 2 (you)"
    check_page(newcomer, shot("joined"))


def test_past_day_and_units(server, browser, unique_name):
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    load(driver, f"{server}/day/{yesterday}")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Yesterday"
    # A quick add on yesterday's page counts for yesterday, not today.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.preset:not(.remove)"))
    wait(driver, lambda d: text(d, "#total") != "0 ml", message="the quick add did not count for the day shown")
    shown = text(driver, "#total")
    load(driver, server + "/")
    assert text(driver, "#total") == "0 ml", "the past day's quick add went to today"
    # "8oz" typed with ml chosen is 8 ounces (237 ml), not 8 ml.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.custom-open"))
    fill(driver, "#amount", "8oz")
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Log it']"))
    # (The message is not read from the page here: the page is being drawn again as the wait starts.)
    wait(driver, lambda d: text(d, "#total") == "237 ml", message="8oz was not logged as 237 ml")
    # The tab bar: the four sections at the bottom of the screen, Today the current one.
    tabs = driver.find_elements(By.CSS_SELECTOR, "nav[aria-label=Main] a")
    assert [tab.text for tab in tabs] == ["Today", "History", "Spending", "Settings"]
    bar = driver.find_element(By.CSS_SELECTOR, "nav[aria-label=Main]").rect
    assert bar["y"] + bar["height"] >= driver.execute_script("return innerHeight") - 1, "the tab bar is not at the bottom"
    assert tabs[0].get_attribute("aria-current") == "page"
    check_page(driver, "phone-daily-today", full=False)
    assert shown != "0 ml"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_long_names_and_six_figure_amounts_stay_on_screen(server, browser, unique_name, viewport):
    driver = browser(viewport)
    sign_up_and_open_spending(driver, server, unique_name)
    ledger = create_ledger(driver, "Home", currency="USD")
    load(driver, ledger + "/settings")
    long_name = "Maximiliane Wolkenstein-Oberhausen"
    person2 = driver.find_element(By.XPATH, "//ul[@class='kinds']//input[@value='Person 2']")
    person2.clear()
    person2.send_keys(long_name)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[aria-label='Rename Person 2']"))
    wait(driver, lambda d: text(d, "main .message") == "Saved.")
    load(driver, ledger)
    fill(driver, "#amount", "999998")
    fill(driver, "#description", "A very long description of a very large expense indeed")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: len(history(d)) == 1, message="the expense was not added")
    assert history(driver)[0][2] == "$999,998.00"
    assert balances(driver)["Person 1"] == ("$999,998.00", "+$499,999.00")
    assert owes(driver) == [f"{long_name} owes you $499,999.00."]
    # Your own number is the page's first line, above the form.
    assert text(driver, "[data-standing]") == "You are owed $499,999.00"
    assert driver.find_element(By.CSS_SELECTOR, "[data-standing]").rect["y"] < driver.find_element(By.ID, "amount").rect["y"]
    check_page(driver, f"{viewport}-daily-long-names")
    load(driver, server + "/spending?all=1")
    assert text(driver, ".ledgers .standing") == "You are owed $499,999.00"
    check_page(driver, f"{viewport}-daily-ledgers")


def page_height(driver):
    return driver.execute_script("return document.documentElement.scrollHeight")


def test_settings_pages_fit_in_three_screens(server, browser, unique_name):
    """Every settings page at 390×844, with what makes one long (an open invite and its QR code,
    four members, a few drink kinds and changes), is at most three screens tall; the other pages'
    heights are printed, for whoever works on them next."""
    driver = browser("phone")
    screen = VIEWPORTS["phone"]["height"]
    sign_up_and_open_spending(driver, server, unique_name)
    ledger = create_ledger(driver, "Home")
    for number in range(3):
        fill(driver, "#amount", f"{10 + number}.50")
        click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
        wait(driver, lambda d: len(history(d)) == number + 1, message="the expense was not added")
    load(driver, ledger + "/settings")
    for name in ("Carla", "Dmitri"):
        fill(driver, "#new-member", name)
        click(driver, button(driver, "Add member"))
        wait(driver, lambda d: d.find_elements(By.XPATH, f"//ul[@class='kinds']//input[@value='{name}']"),
             message=f"{name} was not added")
    click(driver, button(driver, "Create an invite"))
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "svg.qr"))
    heights = {"ledger settings (invite open)": page_height(driver)}
    screenshot(driver, "phone-height-ledger-settings")
    for kind in ("Oat latte", "Sparkling water"):
        load(driver, server + "/settings/kinds")
        fill(driver, "#kind-name", kind)
        click(driver, button(driver, "Add kind"))
        wait(driver, lambda d: "saved" in d.current_url)
    settings = ["/settings"] + [href.removeprefix(server) for href in
                                (a.get_attribute("href") for a in (load(driver, server + "/settings") or
                                                                   driver.find_elements(By.CSS_SELECTOR, ".settings-list a")))]
    for path in settings + [ledger.removeprefix(server) + "/activity"]:
        load(driver, server + path)
        heights[path] = page_height(driver)
        screenshot(driver, "phone-height" + path.replace(ledger.removeprefix(server), "/ledger").replace("/", "-"))
    too_tall = {page: height for page, height in heights.items() if height > 3 * screen}
    for path in ["/", "/history", "/spending", ledger.removeprefix(server)]:
        load(driver, server + path)
        heights[path] = page_height(driver)
    print("\n".join(f"{page}: {height} px ({height / screen:.1f} screens)" for page, height in heights.items()))
    # A ledger's first screen holds your own number and the whole quick entry, its button too,
    # above the tab bar.
    load(driver, ledger)
    tabs_top = driver.execute_script("return document.querySelector('nav[aria-label=Main]').getBoundingClientRect().top")
    add = driver.execute_script("return document.querySelector('button.add').getBoundingClientRect().bottom")
    standing = driver.execute_script("return document.querySelector('[data-standing]').getBoundingClientRect().bottom")
    assert add <= tabs_top and standing <= tabs_top, f"Add expense ends at {add:.0f} px, the tab bar starts at {tabs_top:.0f} px"
    screenshot(driver, "phone-ledger-first-screen", full=False)
    assert len(settings) >= 12, settings
    assert not too_tall, f"settings pages taller than three screens of {screen} px: {too_tall}"


def set_value(driver, css, value):
    """A time field set as its picker would set it (typing into one depends on the locale)."""
    driver.execute_script("const field = document.querySelector(arguments[0]); field.value = arguments[1];"
                          " field.dispatchEvent(new Event('input', {bubbles: true}))", css, value)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_drink_at_another_time_and_changed(server, browser, unique_name, viewport):
    """The custom amount takes a time; a drink's Edit changes its amount, kind and time."""
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    load(driver, server + "/")
    # 00:01 today is never ahead of the clock.
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Custom amount…']"))
    fill(driver, "#amount", "300")
    set_value(driver, "#custom-time", "00:01")
    check_page(driver, f"{viewport}-daily-custom-time", full=False)
    click(driver, driver.find_element(By.XPATH, "//dialog//button[normalize-space()='Log it']"))
    wait(driver, lambda d: text(d, "#total") == "300 ml", message="the drink at a time typed was not logged")
    assert text(driver, "#entries li time") == "12:01 AM"
    # The notice writes the time as the list does.
    assert text(driver, "main .message span") == f"Added at {text(driver, '#entries li time')}."
    # Its Edit: 250 ml of coffee at 00:05.
    click(driver, driver.find_element(By.CSS_SELECTOR, "#entries a.edit"))
    wait(driver, lambda d: "/edit" in d.current_url)
    assert driver.find_element(By.ID, "amount").get_attribute("value") == "300"
    fill(driver, "#amount", "250")
    driver.find_element(By.CSS_SELECTOR, "#kind option[value='coffee']").click()
    set_value(driver, "#time", "00:05")
    check_page(driver, f"{viewport}-daily-drink-edit")
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: d.current_url == server + "/", message="saving did not lead back to the day")
    assert text(driver, "#entries li .what") == "Coffee · 250 ml"
    assert text(driver, "#entries li time") == "12:05 AM"


@pytest.mark.parametrize("language", ["en-US", "de-DE", "ar"])
def test_a_day_to_come_takes_no_drinks(server, browser, unique_name, language):
    """H9: the calendar's days to come are no links, and a day to come's own page says it has not
    come instead of offering quick-add buttons that could only fail."""
    driver = browser("phone", language=language)
    sign_up_and_skip_the_goal(driver, server, unique_name)
    load(driver, server + "/history")
    today = driver.find_element(By.CSS_SELECTOR, ".calendar td[aria-current=date] a").get_attribute("href").rsplit("/", 1)[1]
    tomorrow = date.fromisoformat(today) + timedelta(days=1)
    for cell in driver.find_elements(By.CSS_SELECTOR, ".calendar td.future"):
        assert not cell.find_elements(By.TAG_NAME, "a"), f"a day to come is a link: {cell.get_attribute('outerHTML')}"
    load(driver, f"{server}/day/{tomorrow.isoformat()}")
    assert not driver.find_elements(By.CSS_SELECTOR, "button.preset"), "quick-add on a day to come"
    assert not driver.find_elements(By.ID, "custom"), "a custom amount on a day to come"
    sentence = text(driver, "section.today p.help")
    assert str(tomorrow.day) in sentence or str(tomorrow.day).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")) in sentence, sentence
    check_page(driver, f"phone-daily-day-to-come-{language}")
    load(driver, f"{server}/day/{today}")
    assert driver.find_elements(By.CSS_SELECTOR, "button.preset"), "today takes drinks"


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_quick_add_stays_under_the_finger(server, browser, unique_name, viewport):
    """The "Added… Undo" notice floats above the page's foot: the button tapped stays where it
    was, so that a second tap adds again instead of landing on something else."""
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    load(driver, server + "/")
    preset = driver.find_elements(By.CSS_SELECTOR, ".presets button.preset")[1]
    before = preset.rect
    click(driver, preset)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main .message.undo button"), message="no Undo after a quick add")
    preset = driver.find_elements(By.CSS_SELECTOR, ".presets button.preset")[1]
    assert (preset.rect["x"], preset.rect["y"]) == (before["x"], before["y"]), (before, preset.rect)
    notice = driver.find_element(By.CSS_SELECTOR, "main .message.undo")
    assert notice.value_of_css_property("position") == "fixed"
    check_page(driver, f"{viewport}-daily-quick-add-undo", full=False)
    click(driver, preset)
    wait(driver, lambda d: text(d, "#total") == "500 ml", message=lambda: f"the second tap: {text(driver, '#total')}")


def test_add_again(server, browser, unique_name):
    """S2: an expense's details offer Add again: the quick entry comes back filled in as it was
    (amount, description, payer), dated today, and one tap adds the second one."""
    from test_spending import add_expense, titles
    driver = browser("phone")
    sign_up_and_open_spending(driver, server, unique_name)
    create_ledger(driver, "Home")
    add_expense(driver, "4.20", "Bakery", payer="Person 2")
    row = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby='history-title'] ul.entries li details")
    click(driver, row.find_element(By.TAG_NAME, "summary"))
    again = row.find_element(By.CSS_SELECTOR, "a.again")
    assert again.text == "Add again" and again.get_attribute("aria-label") == "Add Bakery, €4.20 again"
    check_page(driver, "phone-daily-add-again-offered", full=False)
    click(driver, again)
    wait(driver, lambda d: "again=" in d.current_url, message="Add again did not open the quick entry")
    assert driver.find_element(By.ID, "amount").get_attribute("value") == "4.20"
    assert driver.find_element(By.ID, "description").get_attribute("value") == "Bakery"
    assert driver.find_element(By.ID, "date").get_attribute("value") == date.today().isoformat()
    checked = driver.find_element(By.CSS_SELECTOR, "input[name=payer]:checked")
    assert text(driver, f"label[for='{checked.get_attribute('id')}']") == "Person 2"
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Bakery", "Bakery"], message=lambda: f"history: {titles(driver)}")
