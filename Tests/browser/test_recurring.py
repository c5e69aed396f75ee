"""Recurring expenses in a real browser, on a server whose clock the test moves.

The server of these tests reads its time from a file (TALLY_TEST_CLOCK_FILE, for tests only) and
looks for recurring expenses due every second (TALLY_TEST_SCHEDULE_TICK_SECONDS). A person in
Berlin sets up the rent, every month on the 1st, a few minutes before midnight of 30 November;
the history does not have it. The test moves the server's clock past midnight in Berlin, and the
rent appears in the ledger's history on 1 December, in the balance, and on the recurring page with
its next day, 1 January. The page is checked (axe, no sideways scrolling) and photographed at both
sizes; pausing, resuming and ending work without JavaScript.
"""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import tally_process
from conftest import screenshot  # noqa: F401  (the browser fixture's module)
from test_spending import button, create_ledger, history, load, owes, without_javascript
from test_web import check_page, click, fill, sign_up, wait


@pytest.fixture
def clocked_server(tmp_path):
    """A `tally serve` of its own, whose time is what the test writes to its clock file."""
    clock = tmp_path / "now"
    clock.write_text("2026-11-30T22:55:00Z")  # 23:55 in Berlin
    environment = tally_process.environment(TALLY_TEST_CLOCK_FILE=str(clock), TALLY_TEST_SCHEDULE_TICK_SECONDS="1")
    with tally_process.serve(tmp_path / "t.sqlite", tmp_path / "serve.log", environment) as base:
        yield base, clock


def berlin(driver):
    """The browser in Berlin: the account it signs up gets that time zone."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Berlin"})


def recurring_items(driver):
    """The recurring page's list: (title, detail line)."""
    return [(li.find_element(By.CSS_SELECTOR, ".what strong").text.strip(), li.find_element(By.CSS_SELECTOR, ".what .help").text.strip())
            for li in driver.find_elements(By.CSS_SELECTOR, "ul.recurring li")]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_monthly_expense_appears_on_its_day(clocked_server, browser, unique_name, viewport):
    base, clock = clocked_server
    driver = browser(viewport)
    berlin(driver)
    sign_up(driver, base, unique_name)
    load(driver, base + "/spending")
    ledger = create_ledger(driver, "Flat")

    # Set up the rent from the ledger's page: every month, first on 1 December.
    click(driver, driver.find_element(By.LINK_TEXT, "Recurring"))
    wait(driver, lambda d: d.current_url.endswith("/recurring"))
    assert driver.find_element(By.ID, "start").get_attribute("value") == "2026-11-30"
    fill(driver, "#amount", "800")
    fill(driver, "#description", "Rent")
    Select(driver.find_element(By.ID, "every")).select_by_visible_text("Every month")
    driver.execute_script("document.getElementById('start').value = '2026-12-01'")
    click(driver, button(driver, "Set up"))
    wait(driver, lambda d: recurring_items(d), message="the rent is not listed")
    assert recurring_items(driver) == [("Rent", "Every month on the 1st · paid by Person 1 · Next on Dec 1, 2026")]
    check_page(driver, f"{viewport}-recurring-set-up")

    # Before midnight in Berlin, the history has no rent.
    load(driver, ledger)
    assert history(driver) == []

    # The server's clock passes midnight in Berlin (23:00 UTC): the rent is recorded on its day.
    clock.write_text("2026-11-30T23:00:30Z")
    wait(driver, lambda d: (load(d, ledger), history(d))[1] != [], timeout=15, message="the rent did not appear")
    assert history(driver) == [("Rent", "paid by Person 1", "€800.00")]
    dates = [t.get_attribute("datetime") for t in driver.find_elements(By.CSS_SELECTOR, "ul.ledger-entries time")]
    assert dates == ["2026-12-01"]
    assert owes(driver) == ["Person 2 owes you €400.00."]
    check_page(driver, f"{viewport}-recurring-recorded")

    load(driver, ledger + "/recurring")
    assert recurring_items(driver)[0][1].endswith("Next on Jan 1, 2027")


def test_pause_resume_and_end_without_javascript(clocked_server, browser, unique_name):
    base, clock = clocked_server
    driver = without_javascript(browser, "desktop")
    berlin(driver)
    sign_up(driver, base, unique_name)
    load(driver, base + "/spending")
    ledger = create_ledger(driver, "Flat")
    load(driver, ledger + "/recurring")
    fill(driver, "#amount", "12.99")
    fill(driver, "#description", "Music")
    Select(driver.find_element(By.ID, "every")).select_by_visible_text("Every week")
    click(driver, button(driver, "Set up"))
    wait(driver, lambda d: recurring_items(d))
    # Set up on Monday 30 November: every week on Monday, and today's is recorded at once.
    assert recurring_items(driver) == [("Music", "Every week on Monday · paid by Person 1 · Next on Dec 7, 2026")]
    for label, shown in (("Pause", "Paused"), ("Resume", "Next on Dec 7, 2026"), ("End", "Ended after Nov 30, 2026")):
        click(driver, driver.find_element(By.CSS_SELECTOR, f"ul.recurring button[aria-label^='{label} Music']"))
        # The list is empty for a moment while the next page loads: wait for it, not an IndexError.
        wait(driver, lambda d: any(shown in detail for _, detail in recurring_items(d)[:1]), message=f"{label} did not lead to {shown}")
    screenshot(driver, "desktop-recurring-ended-no-js")
    load(driver, ledger)
    assert history(driver) == [("Music", "paid by Person 1", "€12.99")]
