"""Shared spending in a real browser (S1–S5), at a desktop and a phone viewport.

Two people, each in their own browser: alex creates a ledger, opens an invite and renames Person 2;
sam joins with the invite (the link at the desktop size, the code typed at the phone size), saying
which member they are. Both
add expenses from the quick entry (an invalid amount is refused next to the field, and nothing is
sent), see the same "who owes whom" after a reload, delete with confirmation and undo, and settle
up with the plan's "Record this payment". Then the same delete without JavaScript, through the
confirmation page, and a restore from "Recently deleted". Every spending page visited goes through
test_web's accessibility and sideways-overflow check, with a screenshot into
Tests/browser/screenshots/ ({desktop,phone}-spending-*.png: look at them). The last tests keep
fixed bugs fixed.
"""

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support import expected_conditions as EC

from conftest import IPHONE_UA, VIEWPORTS, screenshot
from test_web import check_page, click, dark, fill, sign_up, text, wait

LEDGER_URL = re.compile(r"/spending/([0-9A-Fa-f-]{36})$")
INVALID = "Type an amount such as 12.50, with at most 2 decimals, more than 0 and at most 1000000."


# ---------------------------------------------------------------------------------------------
# Helpers


def owes(driver):
    """The Balance card's sentences ("Sam owes you €9.99.")."""
    return [p.text.strip() for p in driver.find_elements(By.CSS_SELECTOR, "section.summary p.owes")]


def wait_owes(driver, *expected):
    try:
        wait(driver, lambda d: owes(d) == list(expected))
    except Exception:
        raise AssertionError(f"the balance says {owes(driver)!r}, not {list(expected)!r}")


def balances(driver):
    """The balance table: member → (paid, balance)."""
    rows = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "table.balances tbody tr"):
        cells = [cell.text.strip() for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
        rows[cells[0]] = (cells[1], cells[2])
    return rows


def history(driver):
    """The History list (not the recently deleted ones) as (title, detail, amount), newest first."""
    # The detail line starts with the date ("2026-11-21 · paid by Sam").
    return [(li.find_element(By.CSS_SELECTOR, ".what strong").text.strip(),
             li.find_element(By.CSS_SELECTOR, ".what .help").text.strip().split(" · ", 1)[-1],
             li.find_element(By.CSS_SELECTOR, ".amount").text.strip())
            for li in driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby='history-title'] ul.entries li")]


def titles(driver):
    return [title for title, _, _ in history(driver)]


def button(driver, label, within="//main"):
    return driver.find_element(By.XPATH, f"{within}//button[normalize-space()='{label}']")


def load(driver, url):
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")


def mark(driver):
    """Marks the page: a reload forgets it, a swap of <main> keeps it."""
    driver.execute_script("window.__tallyMarker = 'same page'")


def same_page(driver):
    return driver.execute_script("return window.__tallyMarker") == "same page"


def count_posts(driver):
    driver.execute_script("""
        window.__sent = 0;
        const original = window.fetch;
        window.fetch = (...args) => { window.__sent += 1; return original(...args); };""")


def choose_payer(driver, name):
    """Taps the payer toggle (a label: its radio is visually hidden) and checks that it took."""
    label = driver.find_element(By.XPATH, f"//fieldset[contains(@class,'payers')]//label[starts-with(normalize-space(), '{name}')]")
    click(driver, label)
    radio = driver.find_element(By.ID, label.get_attribute("for"))
    assert radio.is_selected(), f"tapping {name!r} did not choose them as the payer"


def checked_payer(driver):
    radio = driver.find_element(By.CSS_SELECTOR, "input[name=payer]:checked")
    return driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']").text.strip()


def add_expense(driver, amount, description, payer=None):
    """The quick entry with JavaScript: the form posts in the background and <main> is swapped."""
    before = len(history(driver))
    mark(driver)
    fill(driver, "#amount", amount)
    if payer:
        choose_payer(driver, payer)
    fill(driver, "#description", description)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: len(history(d)) == before + 1, message=f"{description} was not added")
    assert same_page(driver), "the page was loaded again instead of swapped"
    assert driver.switch_to.active_element.get_attribute("id") == "amount", "the focus did not go back to the amount"
    assert driver.find_element(By.ID, "amount").get_attribute("value") == "", "the amount was not cleared"


def sign_up_and_open_spending(driver, server, name):
    sign_up(driver, server, name)
    load(driver, server + "/spending")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Spending"


def create_ledger(driver, name, currency="EUR"):
    fill(driver, "#name", name)
    Select(driver.find_element(By.ID, "currency")).select_by_value(currency)
    # The form offers the account's name; these ledgers keep the placeholders, Person 1 and 2.
    driver.find_element(By.ID, "you").clear()
    click(driver, button(driver, "Create ledger"))
    wait(driver, lambda d: LEDGER_URL.search(d.current_url), timeout=15, message="creating did not lead to the ledger")
    assert driver.find_element(By.TAG_NAME, "h1").text == name
    return driver.current_url


def without_javascript(browser, viewport):
    """A driver whose pages run no script. The phone is emulated through DevTools here:
    chromedriver's clicks hang under its mobileEmulation option with JavaScript off (see
    test_web.test_without_javascript), not under the same metrics set with Emulation.*."""
    driver = browser("desktop", javascript=False)
    if viewport == "phone":
        size = VIEWPORTS["phone"]
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size["width"], "height": size["height"], "deviceScaleFactor": 3, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": IPHONE_UA})
    return driver


# ---------------------------------------------------------------------------------------------
# Two people, one ledger, with JavaScript


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_shared_ledger(server, browser, unique_name, viewport):
    shot = lambda page: f"{viewport}-spending-{page}"
    alex, sam = browser(viewport), browser(viewport)
    alex_name, sam_name = ("alex-" + unique_name)[:32], ("sam-" + unique_name)[:32]

    # Two people sign up, each in their own browser.
    sign_up_and_open_spending(alex, server, alex_name)
    sign_up_and_open_spending(sam, server, sam_name)
    assert "No ledgers yet." in text(alex, "main .empty")
    check_page(alex, shot("start"))

    # alex creates the ledger: two members, settled up, nothing in it yet.
    ledger = create_ledger(alex, "Home")
    assert balances(alex) == {"Person 1": ("€0.00", "€0.00"), "Person 2": ("€0.00", "€0.00")}
    assert owes(alex) == ["You are settled up."]
    assert text(alex, "main .empty") == "Nothing yet: add the first expense above."
    assert checked_payer(alex) == "Person 1 (you)"
    amount = alex.find_element(By.ID, "amount")
    assert amount.get_attribute("inputmode") == "decimal"
    assert amount.get_attribute("aria-describedby") == "amount-error"
    check_page(alex, shot("ledger-empty"))

    # Settings: Person 2 becomes Sam, and an invite is opened.
    click(alex, alex.find_element(By.LINK_TEXT, "Members & settings"))
    wait(alex, lambda d: d.current_url == ledger + "/settings")
    assert alex.find_element(By.TAG_NAME, "h1").text == "Ledger settings"
    assert text(alex, "#invite-title + p") == "No invite is open."
    person2 = alex.find_element(By.XPATH, "//ul[@class='kinds']//input[@value='Person 2']")
    person2.clear()
    person2.send_keys("Sam")
    click(alex, alex.find_element(By.CSS_SELECTOR, "button[aria-label='Rename Person 2']"))
    wait(alex, lambda d: text(d, "main .message") == "Saved.", message="the rename was not saved")
    names = [field.get_attribute("value") for field in alex.find_elements(By.CSS_SELECTOR, "ul.kinds input[name=name]")]
    assert names == ["Person 1", "Sam"]
    click(alex, button(alex, "Create an invite"))
    code = wait(alex, lambda d: d.find_element(By.CSS_SELECTOR, "strong.code")).text.strip()
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code), code
    link = alex.find_element(By.CSS_SELECTOR, f"a[href='/join/{code}']")
    assert link.text == f"{server}/join/{code}"
    assert [b.text for b in alex.find_elements(By.XPATH, "//section[@aria-labelledby='invite-title']//form//button")] == \
        ["New code", "Revoke"]
    check_page(alex, shot("settings-invite"))

    # sam joins: through the link at the desktop size, by typing the code (any case, no dashes)
    # on the phone, which leads to the same choice. Sam, the one member nobody has joined as, is
    # ticked; someone new is the other choice.
    if viewport == "desktop":
        load(sam, link.get_attribute("href"))
    else:
        fill(sam, "#code", code.replace("-", "").lower())
        click(sam, button(sam, "Join"))
        wait(sam, lambda d: d.current_url == f"{server}/join/{code}", message="the typed code did not lead to the choice")
    choices = {label.text: sam.find_element(By.ID, label.get_attribute("for")).is_selected()
               for label in sam.find_elements(By.CSS_SELECTOR, "ul.join-as label")}
    assert choices == {"Sam": True, "Someone new": False}, choices
    assert "primary" in button(sam, "Join").get_attribute("class").split(), "Join is not the main button"
    check_page(sam, shot("join"))
    click(sam, button(sam, "Join"))
    wait(sam, lambda d: d.current_url == ledger, timeout=15, message="joining did not lead to the ledger")
    assert sam.find_element(By.TAG_NAME, "h1").text == "Home"
    assert checked_payer(sam) == "Sam (you)", "sam did not become Sam"

    # Quick entry: alex paid 30.00 for groceries.
    load(alex, ledger)
    add_expense(alex, "30.00", "Groceries", payer="Person 1 (you)")
    assert history(alex) == [("Groceries", "paid by Person 1", "€30.00")]
    wait_owes(alex, "Sam owes you €15.00.")
    assert balances(alex) == {"Person 1": ("€30.00", "+€15.00"), "Sam": ("€0.00", "−€15.00")}

    # sam's invalid amounts are refused in the page, next to the field, and nothing is sent.
    load(sam, ledger)
    assert titles(sam) == ["Groceries"]
    count_posts(sam)
    for bad in ["12.345", "abc", "0", "2000000"]:
        field = fill(sam, "#amount", bad)
        click(sam, sam.find_element(By.CSS_SELECTOR, "button.add"))
        # The refusal's last step puts the focus back on the field (the button had it): wait for
        # that, since the message may still be there from the value before.
        wait(sam, lambda d: d.switch_to.active_element == field,
             message=f"the focus is not on the refused {bad!r}; right after the click it was on " +
             sam.execute_script("return document.activeElement.outerHTML.slice(0, 200) + ' at scrollY ' + scrollY"))
        error = sam.find_element(By.ID, "amount-error")
        assert error.text.strip() == INVALID, f"no message for {bad!r}"
        assert error.is_displayed(), f"the message for {bad!r} is not visible"
        assert field.get_attribute("aria-invalid") == "true"
        assert sam.execute_script("return window.__sent") == 0, f"{bad!r} was sent"
        assert titles(sam) == ["Groceries"]
    check_page(sam, shot("invalid"), full=False)
    # Typing a good amount clears the message as it is typed; a comma is a decimal separator too.
    fill(sam, "#amount", "10,01")
    assert sam.find_element(By.ID, "amount-error").text.strip() == ""
    assert sam.find_element(By.ID, "amount").get_attribute("aria-invalid") == "false"

    # A refusal by the server (nobody to share it) keeps what was typed; nothing is added.
    fill(sam, "#description", "Bread")
    click(sam, sam.find_element(By.CSS_SELECTOR, "details.more summary"))
    for box in sam.find_elements(By.CSS_SELECTOR, "ul.among input[type=checkbox]"):
        click(sam, box)
    click(sam, sam.find_element(By.CSS_SELECTOR, "button.add"))
    wait(sam, lambda d: text(d, "main .message.error") == "Tick at least one member to share the expense.")
    assert sam.execute_script("return window.__sent") == 1
    assert sam.find_element(By.ID, "amount").get_attribute("value") == "10,01"
    assert sam.find_element(By.ID, "description").get_attribute("value") == "Bread"
    assert checked_payer(sam) == "Sam (you)"
    assert titles(sam) == ["Groceries"]
    check_page(sam, shot("refused"), full=False)
    # sam ticks both again and adds it.
    details = sam.find_element(By.CSS_SELECTOR, "details.more")
    if details.get_attribute("open") is None:
        click(sam, details.find_element(By.TAG_NAME, "summary"))
    for box in sam.find_elements(By.CSS_SELECTOR, "ul.among input[type=checkbox]"):
        if not box.is_selected():
            click(sam, box)
    add_expense(sam, "10.01", "Bread")
    assert history(sam) == [("Bread", "paid by Sam", "€10.01"), ("Groceries", "paid by Person 1", "€30.00")]

    # Both see the same summary after a reload: (30.00 − 10.01) ÷ 2 = 9.995 → Sam owes 9.99
    # (Person 1's share of the odd cent comes first, so every cent is accounted for).
    for driver, said in ((alex, "Sam owes you €9.99."), (sam, "You owe Person 1 €9.99.")):
        load(driver, ledger)
        assert owes(driver) == [said], owes(driver)
        assert balances(driver) == {"Person 1": ("€30.00", "+€9.99"), "Sam": ("€10.01", "−€9.99")}
        assert text(driver, "#plan-title + p") == "One payment settles everything."
    check_page(alex, shot("ledger"))
    alex.execute_script("window.scrollTo(0, 0)")
    screenshot(alex, shot("ledger-top"), full=False)
    alex.execute_script("document.getElementById('history-title').scrollIntoView({block: 'start'})")
    screenshot(alex, shot("ledger-scrolled"), full=False)

    # alex deletes Bread: the confirm is asked first (dismissed: nothing happens).
    mark(alex)
    delete = alex.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete Bread, €10.01']")
    click(alex, delete)
    alert = wait(alex, EC.alert_is_present())
    assert alert.text == "Delete Bread, €10.01?", alert.text
    alert.dismiss()
    assert titles(alex) == ["Bread", "Groceries"] and owes(alex) == ["Sam owes you €9.99."]
    click(alex, alex.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete Bread, €10.01']"))
    wait(alex, EC.alert_is_present()).accept()
    undo = wait(alex, lambda d: d.find_element(By.CSS_SELECTOR, ".undo button"), message="no Undo after the delete")
    assert text(alex, ".undo span") == "Deleted Bread, €10.01."
    assert undo.text == "Undo"
    wait_owes(alex, "Sam owes you €15.00.")
    assert titles(alex) == ["Groceries"]
    assert text(alex, "details.deleted summary") == "Recently deleted (1)"
    assert same_page(alex), "the delete loaded the page again"
    wait(alex, lambda d: d.switch_to.active_element == d.find_element(By.CSS_SELECTOR, ".undo button"),
         message="the focus is not on Undo")
    undo = alex.find_element(By.CSS_SELECTOR, ".undo button")
    assert "?deleted=" in alex.current_url
    check_page(alex, shot("undo"))
    # Undo: the balance is back.
    click(alex, undo)
    wait_owes(alex, "Sam owes you €9.99.")
    assert titles(alex) == ["Bread", "Groceries"]
    assert not alex.find_elements(By.CSS_SELECTOR, ".undo")
    assert not alex.find_elements(By.CSS_SELECTOR, "details.deleted"), "a restored entry is still under Recently deleted"
    assert same_page(alex)
    assert alex.current_url == ledger, "the address still says ?deleted= after the undo"
    load(sam, ledger)
    assert owes(sam) == ["You owe Person 1 €9.99."] and titles(sam) == ["Bread", "Groceries"]

    # sam settles up: the plan's payment opens on who pays whom how much, and Confirm records
    # it; a stray tap records nothing. Then everyone is at zero, for both.
    mark(sam)
    plan = sam.find_elements(By.CSS_SELECTOR, "ul.plan li")
    assert [li.find_element(By.CSS_SELECTOR, ".what").text for li in plan] == ["You pay Person 1 €9.99"]
    record = plan[0].find_element(By.CSS_SELECTOR, "details.settle summary")
    assert record.text == "Record this payment"
    assert record.get_attribute("aria-label") == "Record that you pay Person 1 €9.99"
    click(sam, record)
    check = [e.text for e in plan[0].find_elements(By.CSS_SELECTOR, ".settle-check dt, .settle-check dd")]
    assert check == ["From", "Sam", "To", "Person 1"], check
    assert plan[0].find_element(By.CSS_SELECTOR, ".settle-amount").text == "€9.99"
    assert owes(sam) == ["You owe Person 1 €9.99."], "opening the payment recorded it"
    check_page(sam, shot("settle-confirm"))
    click(sam, plan[0].find_element(By.XPATH, ".//button[normalize-space()='Confirm']"))
    wait_owes(sam, "You are settled up.")
    assert same_page(sam)
    assert not sam.find_elements(By.ID, "plan-title"), "the settle-up plan stayed"
    assert history(sam)[0] == ("Sam paid Person 1", "Payment", "€9.99")
    load(alex, ledger)
    assert owes(alex) == ["You are settled up."]
    assert balances(alex) == {"Person 1": ("€30.00", "€0.00"), "Sam": ("€10.01", "€0.00")}
    assert titles(alex) == ["Sam paid Person 1", "Bread", "Groceries"]
    check_page(alex, shot("settled"))
    dark(alex, True)
    check_page(alex, shot("settled-dark"))
    dark(alex, False)

    # Settings: both have joined, and the activity log, a page away, says who did what.
    load(alex, ledger + "/settings")
    notes = [p.text for p in alex.find_elements(By.CSS_SELECTOR, "ul.kinds li .help")]
    assert notes == ["has joined, owner", "has joined"], notes
    assert alex.find_element(By.ID, "ledger-currency").get_attribute("readonly") is not None
    click(alex, alex.find_element(By.CSS_SELECTOR, f"a[href='{ledger.removeprefix(server)}/activity']"))
    wait(alex, lambda d: d.current_url == ledger + "/activity")
    log = text(alex, "ul.log")
    for fact in ["Joined as Sam.", "Restored", "Bread"]:
        assert fact in log, f"the activity log does not mention {fact!r}:\n{log}"
    check_page(alex, shot("activity"))
    load(alex, ledger + "/settings")
    check_page(alex, shot("settings"))
    load(sam, ledger + "/settings")
    check_page(sam, shot("settings-sam"))


# ---------------------------------------------------------------------------------------------
# Without JavaScript: plain forms, the confirmation page, restore


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_delete_without_javascript(server, browser, unique_name, viewport):
    shot = lambda page: f"{viewport}-spending-nojs-{page}"
    driver = without_javascript(browser, viewport)
    sign_up_and_open_spending(driver, server, unique_name)
    assert driver.execute_script("return document.documentElement.clientWidth") == VIEWPORTS[viewport]["width"]
    ledger = create_ledger(driver, "Trip")

    # A plain post and redirect adds the expense.
    fill(driver, "#amount", "12.50")
    fill(driver, "#description", "Lunch")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Lunch"], message="Lunch was not added")
    assert driver.current_url == ledger
    assert owes(driver) == ["Person 2 owes you €6.25."]

    # The server refuses an invalid amount and says why; what was typed stays, nothing is added.
    fill(driver, "#amount", "12.345")
    fill(driver, "#description", "Coffee")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    message = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main .message.error"))
    assert message.text.strip() != ""
    assert driver.find_element(By.ID, "amount").get_attribute("value") == "12.345"
    assert driver.find_element(By.ID, "description").get_attribute("value") == "Coffee"
    assert titles(driver) == ["Lunch"] and owes(driver) == ["Person 2 owes you €6.25."]
    check_page(driver, shot("refused"))

    # Delete: a confirmation page first; "Keep it" keeps the expense.
    load(driver, ledger)
    delete = "button.delete[aria-label^='Delete Lunch, €12.50']"
    click(driver, driver.find_element(By.CSS_SELECTOR, delete))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Delete Lunch?", message="no confirmation page")
    assert text(driver, "main h1 + p").startswith("€12.50 on ")
    check_page(driver, shot("confirm"))
    click(driver, driver.find_element(By.LINK_TEXT, "Keep it"))
    wait(driver, lambda d: d.current_url == ledger)
    assert titles(driver) == ["Lunch"]

    # Confirmed: gone from the balance, with an Undo notice.
    click(driver, driver.find_element(By.CSS_SELECTOR, delete))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Delete Lunch?")
    click(driver, button(driver, "Delete"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".undo"), message="no Undo notice after the delete")
    assert "?deleted=" in driver.current_url
    assert text(driver, ".undo span") == "Deleted Lunch, €12.50."
    assert owes(driver) == ["You are settled up."] and titles(driver) == []
    check_page(driver, shot("deleted"))

    # Later, from "Recently deleted": Restore brings it back.
    load(driver, ledger)
    assert not driver.find_elements(By.CSS_SELECTOR, ".undo")
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.deleted summary"))
    assert text(driver, "details.deleted summary") == "Recently deleted (1)"
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.deleted button[aria-label='Restore Lunch, €12.50']"))
    wait(driver, lambda d: titles(d) == ["Lunch"], message="Restore did not bring Lunch back")
    assert owes(driver) == ["Person 2 owes you €6.25."]
    assert not driver.find_elements(By.CSS_SELECTOR, "details.deleted")


# ---------------------------------------------------------------------------------------------
# Bugs these tests found once, kept so that they stay fixed.


def solo_ledger(browser, server, name, viewport="desktop", javascript=True):
    """One person's new ledger (Person 1 and Person 2), opened: the driver and its address."""
    driver = browser(viewport) if javascript else without_javascript(browser, viewport)
    sign_up_and_open_spending(driver, server, name)
    return driver, create_ledger(driver, "Flat")


def on_screen(driver, element):
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", element)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_undo_is_on_screen_after_a_delete(server, browser, unique_name, viewport):
    driver, ledger = solo_ledger(browser, server, unique_name, viewport)
    for amount, what in [("4.00", "Milk"), ("6.00", "Eggs")]:
        add_expense(driver, amount, what)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete Milk']"))
    wait(driver, EC.alert_is_present()).accept()
    undo = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".undo button"))
    # The page swaps in, then moves the focus and scrolls: wait for both to come to rest.
    wait(driver, lambda d: d.switch_to.active_element == undo and on_screen(d, undo),
         message="the Undo button is not focused and on screen after the delete")


def test_refused_amount_without_javascript_is_marked_at_the_field(server, browser, unique_name):
    driver, ledger = solo_ledger(browser, server, unique_name, javascript=False)
    fill(driver, "#amount", "12.345")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    message = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main .message.error")).text.strip()
    assert message == '"12.345" has more decimals than EUR has: write it with 2 decimals.'
    assert text(driver, "#amount-error") == message
    assert driver.find_element(By.ID, "amount").get_attribute("aria-invalid") == "true"


def test_double_tap_adds_one_expense(server, browser, unique_name):
    driver, ledger = solo_ledger(browser, server, unique_name)
    driver.execute_script("""
        window.__pending = 0; window.__sent = 0;
        const original = window.fetch;
        window.fetch = async (...args) => { window.__pending += 1; window.__sent += 1;
          try { return await original(...args); } finally { window.__pending -= 1; } };""")
    fill(driver, "#amount", "5.00")
    fill(driver, "#description", "Pizza")
    # Two taps in a row, before the answer to the first: what a hurried thumb does.
    driver.execute_script("const add = document.querySelector('button.add'); add.click(); add.click();")
    wait(driver, lambda d: d.execute_script("return window.__sent > 0 && window.__pending === 0"))
    load(driver, ledger)
    assert titles(driver) == ["Pizza"], f"the expense was added {len(titles(driver))} times"


def test_split_refusal_points_at_the_split(server, browser, unique_name):
    driver, ledger = solo_ledger(browser, server, unique_name)
    fill(driver, "#amount", "8.00")
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.more summary"))
    for box in driver.find_elements(By.CSS_SELECTOR, "ul.among input[type=checkbox]"):
        click(driver, box)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: text(d, "main .message.error") == "Tick at least one member to share the expense.")
    assert text(driver, "#amount-error") == "", "the split's refusal is shown as the amount's error"
    assert driver.find_element(By.CSS_SELECTOR, "details.more").get_attribute("open") is not None, \
        "the boxes to tick are hidden in a closed disclosure"


def type_into(field, value):
    field.clear()
    field.send_keys(value)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_split_by_shares_exact_and_percent(server, browser, unique_name, viewport):
    driver, ledger = solo_ledger(browser, server, unique_name, viewport)
    fill(driver, "#amount", "12.00")
    fill(driver, "#description", "Dinner")
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.more summary"))
    part = lambda n: driver.find_element(By.CSS_SELECTOR, f"ul.among li:nth-child({n}) input.part")
    left = lambda: text(driver, "#split-left")  # the browser's text has plain spaces for the no-break ones
    assert not part(1).is_displayed(), "equal shares show numbers to fill in"
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-exact]"))
    assert part(1).is_displayed() and not driver.find_element(By.ID, part(1).get_attribute("id").replace("part", "among")).is_displayed()
    type_into(part(1), "5")
    wait(driver, lambda d: left() == "€7.00 left to share.", message=f"the remainder says {left()!r}")
    type_into(part(2), "8")
    wait(driver, lambda d: left() == "€1.00 too much.", message=f"the remainder says {left()!r}")
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-percent]"))
    type_into(part(1), "25")
    type_into(part(2), "50")
    wait(driver, lambda d: left() == "25 % left to share.", message=f"the remainder says {left()!r}")
    check_page(driver, "spending-split")
    # Sent as it is, the server refuses it at the split, and keeps what was typed.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: text(d, "#split-error") == "The percentages add up to 75%, not 100%: change them by 25 so they add up.")
    assert part(1).get_attribute("value") == "25" and driver.find_element(By.ID, "split-percent").is_selected()
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-shares]"))
    type_into(part(1), "2")
    type_into(part(2), "1")
    wait(driver, lambda d: left() == "Person 1 about €8.00, Person 2 about €4.00.", message=f"the remainder says {left()!r}")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Dinner"], message="the expense split by shares was not added")
    assert owes(driver) == ["Person 2 owes you €4.00."]

    # The same split when editing: the page opens with it, and a new one replaces it.
    click(driver, driver.find_element(By.CSS_SELECTOR, "a.edit[aria-label^='Edit Dinner']"))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Edit the expense")
    assert driver.find_element(By.ID, "split-shares").is_selected() and part(1).get_attribute("value") == "2"
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-percent]"))
    type_into(part(1), "30")
    type_into(part(2), "70")
    wait(driver, lambda d: left() == "The percentages add up to 100 %.", message=f"the remainder says {left()!r}")
    check_page(driver, "spending-edit")
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section.summary") and owes(d) == ["Person 2 owes you €8.40."],
         message="the edited split did not change the balance")


def add_expenses_quickly(driver, count):
    """Posts the quick entry form `count` times from the page (each with a new id), then reloads."""
    driver.execute_async_script("""
        const [count, done] = [arguments[0], arguments[arguments.length - 1]];
        const form = document.querySelector("form[action$='/expenses']");
        (async () => {
          for (let i = 1; i <= count; i++) {
            const body = new URLSearchParams(new FormData(form));
            body.set("id", crypto.randomUUID());
            body.set("amount", String(i));
            body.set("description", "Bill " + i);
            await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
          }
        })().then(done);""", count)
    driver.refresh()


def test_history_a_page_at_a_time(server, browser, unique_name):
    driver, ledger = solo_ledger(browser, server, unique_name)
    add_expenses_quickly(driver, 35)
    wait(driver, lambda d: len(titles(d)) == 30, message="the first page does not hold 30 entries")
    assert titles(driver)[0] == "Bill 35" and titles(driver)[-1] == "Bill 6"
    # The balance counts every entry, not only the ones shown: 1 + … + 35 = 630, shared by two.
    assert owes(driver) == ["Person 2 owes you €315.00."]
    more = driver.find_element(By.CSS_SELECTOR, "a[data-more-entries]")
    click(driver, more)
    wait(driver, lambda d: len(titles(d)) == 35, message="Show more did not add the older entries")
    assert titles(driver) == [f"Bill {n}" for n in range(35, 0, -1)]
    assert not driver.find_elements(By.CSS_SELECTOR, "a[data-more-entries]"), "Show more is still offered at the end"
    assert driver.switch_to.active_element.tag_name == "summary" and driver.switch_to.active_element.text.startswith("Bill 5"), \
        "the focus is not on the first entry that came in"
    # An entry that came in this way deletes like the others.
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.delete[aria-label^='Delete Bill 1,']"))
    wait(driver, EC.alert_is_present()).accept()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".undo button"))
    check_page(driver, "spending-history-more")


def test_history_pages_without_javascript(server, browser, unique_name):
    driver, ledger = solo_ledger(browser, server, unique_name)
    add_expenses_quickly(driver, 32)
    plain = without_javascript(browser, "phone")
    plain.get(server + "/")
    for cookie in driver.get_cookies():
        plain.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": cookie.get("path", "/")})
    load(plain, ledger)
    assert len(titles(plain)) == 30
    click(plain, plain.find_element(By.LINK_TEXT, "Show more"))
    wait(plain, lambda d: titles(d) == ["Bill 2", "Bill 1"], message="the next page does not hold the two oldest")
    assert not plain.find_elements(By.LINK_TEXT, "Show more")
    click(plain, plain.find_element(By.LINK_TEXT, "Back to the newest"))
    wait(plain, lambda d: len(titles(d)) == 30 and titles(d)[0] == "Bill 32")


def search(driver, words):
    """Opens "Find entries" if it is closed, types the words and sends the search."""
    box = driver.find_element(By.CSS_SELECTOR, "details.search")
    if box.get_attribute("open") is None:
        click(driver, box.find_element(By.TAG_NAME, "summary"))
    fill(driver, "#search-words", words)
    page = driver.find_element(By.TAG_NAME, "main")
    click(driver, button(driver, "Find"))
    wait(driver, EC.staleness_of(page), message=f"the search for {words!r} did not load its page")
    wait(driver, lambda d: d.find_element(By.ID, "search-words").get_attribute("value") == words
         and d.find_element(By.ID, "history-title").text == "Found", message=f"the search for {words!r} did not answer")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_find_entries(server, browser, unique_name, viewport):
    driver, ledger = solo_ledger(browser, server, unique_name, viewport)
    add_expense(driver, "4.20", "Café au lait +1")
    add_expenses_quickly(driver, 34)
    wait(driver, lambda d: len(titles(d)) == 30)
    search(driver, "CAFE")
    assert titles(driver) == ["Café au lait +1"]
    assert "q=CAFE" in driver.current_url, "the search is not in the page's address"
    assert owes(driver) == ["Person 2 owes you €299.60."], "a search changed the balance"
    check_page(driver, "spending-search")

    search(driver, "bill")
    assert len(titles(driver)) == 30 and "Café au lait +1" not in titles(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "a[data-more-entries]"))
    wait(driver, lambda d: len(titles(d)) == 34, message="Show more did not add the other bills the search found")
    assert titles(driver) == [f"Bill {n}" for n in range(34, 0, -1)]

    search(driver, "+1")
    assert titles(driver) == ["Café au lait +1"], "a + in the words is a +, not a space"
    search(driver, "nothing like it")
    assert text(driver, "section[aria-labelledby='history-title'] p.empty") == "No entry matches this search."
    page = driver.find_element(By.TAG_NAME, "main")
    click(driver, driver.find_element(By.LINK_TEXT, "Show all"))
    wait(driver, EC.staleness_of(page), message="Show all did not load the page")
    wait(driver, lambda d: d.find_element(By.ID, "history-title").text == "History" and len(titles(d)) == 30)
