"""The main flows in German (the browser's language) and Arabic (chosen in Settings, right to
left) on a phone: sign up, log water, share an expense, read the balance. Each page passes
test_web's checks (axe-core, no sideways scrolling) and leaves a screenshot in
Tests/browser/screenshots/ (phone-language-*.png: look at them). No English sentence is left on
the pages: the words of every page in every language are checked in EveryLanguageTests."""

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_spending import LEDGER_URL, load
from test_web import check_page, click, fill, text, wait


def submit(driver, field_id):
    """Submits the form that holds the field `field_id`, with its own button (whatever it says)."""
    click(driver, driver.find_element(By.XPATH, f"//*[@id='{field_id}']/ancestor::form//button[@type='submit']"))


def sign_up_and_skip_the_goal(driver, server, name):
    driver.get(server + "/signup")
    fill(driver, "#name", name)
    fill(driver, "#password", "correct horse 1")
    submit(driver, "password")
    wait(driver, lambda d: d.current_url.endswith("/onboarding"), timeout=20, message="sign-up did not lead to onboarding")
    fill(driver, "#age", "40")
    fill(driver, "#weight", "70")
    click(driver, driver.find_element(By.CSS_SELECTOR, "main form button.primary"))
    wait(driver, lambda d: d.current_url.rstrip("/") == server, message="onboarding did not lead to today")


def html(driver):
    element = driver.find_element(By.TAG_NAME, "html")
    return element.get_attribute("lang"), element.get_attribute("dir")


def share_an_expense(driver, server, amount):
    load(driver, server + "/spending")
    fill(driver, "#name", "Casa")
    Select(driver.find_element(By.ID, "currency")).select_by_value("EUR")
    submit(driver, "currency")
    wait(driver, lambda d: LEDGER_URL.search(d.current_url), timeout=15, message="creating did not lead to the ledger")
    fill(driver, "#amount", amount)
    fill(driver, "#description", "Supermercado")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section[aria-labelledby='history-title'] ul.entries li"),
         message="the expense was not added")


def test_german_from_the_browser(server, browser, unique_name):
    driver = browser("phone", language="de-DE")
    driver.get(server + "/signin")
    assert html(driver) == ("de", "ltr")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Anmelden"
    check_page(driver, "phone-language-de-signin")
    sign_up_and_skip_the_goal(driver, server, unique_name)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Heute"
    # A quick-add button logs 250 ml; the total and its ring say it in German.
    click(driver, driver.find_elements(By.CSS_SELECTOR, ".presets button")[1])
    wait(driver, lambda d: text(d, "#total") == "250 ml", message=lambda: f"the total is {text(driver, '#total')!r}")
    check_page(driver, "phone-language-de-today")
    # An expense typed as Germans write it, "1.234,50", is 1234.50 €, shared in two.
    share_an_expense(driver, server, "1.234,50")
    amounts = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ul.entries li .amount")]
    assert "1.234,50\u00a0€" in [a.replace(" ", "\u00a0") for a in amounts], amounts
    check_page(driver, "phone-language-de-ledger")


def test_arabic_chosen_in_settings(server, browser, unique_name):
    driver = browser("phone")
    sign_up_and_skip_the_goal(driver, server, unique_name)
    assert html(driver) == ("en", "ltr")
    load(driver, server + "/settings/language")
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for='language-ar']"))
    submit(driver, "language-ar")
    wait(driver, lambda d: html(d) == ("ar", "rtl"), message="the page did not turn to Arabic")
    check_page(driver, "phone-language-ar-settings")
    load(driver, server + "/")
    assert html(driver) == ("ar", "rtl")
    # The tab bar reads right to left: Today is the rightmost tab.
    tabs = driver.find_elements(By.CSS_SELECTOR, ".bar nav a")
    lefts = [tab.rect["x"] for tab in tabs]
    assert lefts == sorted(lefts, reverse=True), f"the tabs do not run right to left: {lefts}"
    click(driver, driver.find_elements(By.CSS_SELECTOR, ".presets button")[1])
    wait(driver, lambda d: re.sub(r"\s", "", text(d, "#total")) in ("250ml", "٢٥٠ml"), message=lambda: f"the total is {text(driver, '#total')!r}")
    check_page(driver, "phone-language-ar-today")
    share_an_expense(driver, server, "12.50")
    check_page(driver, "phone-language-ar-ledger")
