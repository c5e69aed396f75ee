"""An expense in another currency than the ledger's (issue 34), in a real browser at the phone size.

Alex and Sam keep their trip in euros and pay a dinner in dollars: beside the amount, the currency
is typed as USD, and the rate field appears (it is hidden for the ledger's own currency); the
amount's label names the dollar. The history shows both amounts, "$100.00 →" above "€92.34", the
balances count the euros, and the page says what was spent in dollars. The next expense starts in
dollars at the rate last used. Offline, an expense in dollars waits with the balances already
counting its converted amount, worked out as the server converts it (half up), and is sent once.
Screenshots: Tests/browser/screenshots/phone-currency-*.png.
"""

from selenium.webdriver.common.by import By

from test_live_and_offline import server_entries, waiting
from test_offline import banner, network
from test_several_payers import ledger_of_two
from test_spending import balances, history, load, mark, same_page, titles
from test_web import check_page, click, fill, text, wait


def rate_field(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-rate-field]")


def choose_currency(driver, code):
    fill(driver, "#currency", code)
    wait(driver, lambda d: text(d, "[data-amount-currency]") == code, message=f"the amount's label does not say {code}")


def held(driver, ledger):
    """Each live entry on the server: (description, amount, original amount, currency, rate)."""
    original = lambda e: tuple(e["original"][k] for k in ("amount", "currency", "rate")) if e["original"] else ()
    return [(e["description"], e["amount"], *original(e)) for e in server_entries(driver, ledger) if e["deletedAt"] is None]


def test_a_dinner_in_dollars_in_a_euro_ledger(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)

    # check: the ledger's currency first, no rate asked
    assert driver.find_element(By.ID, "currency").get_attribute("value") == "EUR"
    assert not rate_field(driver).is_displayed()

    # act: 100 dollars at 0.9234
    fill(driver, "#amount", "100")
    choose_currency(driver, "USD")
    wait(driver, lambda d: rate_field(d).is_displayed(), message="the rate field did not appear")
    assert text(driver, "[data-rate-from]") == "USD"
    fill(driver, "#rate", "0.9234")
    fill(driver, "#description", "Dinner")
    check_page(driver, "phone-currency-typed")
    mark(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Dinner"], message="Dinner was not added")
    assert same_page(driver), "the page was loaded again instead of swapped"

    # check: both amounts in the history, the balances in euros, the dollars summed, the server's entry
    assert history(driver) == [("Dinner", "paid by Alex", "€92.34")], history(driver)
    assert text(driver, "li[data-entry] .original") == "$100.00"
    arrow = driver.execute_script("return getComputedStyle(arguments[0], '::after').content",
                                  driver.find_element(By.CSS_SELECTOR, "li[data-entry] .original"))
    assert arrow == '" →"', arrow
    assert balances(driver) == {"Alex": ("€92.34", "+€46.17"), "Sam": ("€0.00", "−€46.17")}
    assert text(driver, ".other-currencies") == "Of which spent in USD: $100.00 (€92.34)"
    assert held(driver, ledger) == [("Dinner", "92.34", "100.00", "USD", "0.9234")]

    # check: the next expense starts in dollars at the rate last used
    assert driver.find_element(By.ID, "currency").get_attribute("value") == "USD"
    assert rate_field(driver).is_displayed()
    assert driver.find_element(By.ID, "rate").get_attribute("value") == "0.9234"
    check_page(driver, "phone-currency-added")

    # act and check: back to euros, the rate goes away
    choose_currency(driver, "EUR")
    wait(driver, lambda d: not rate_field(d).is_displayed(), message="the rate field stayed")


def test_an_expense_in_dollars_offline(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."), message="the page does not say it is offline")

    # act: 10.05 dollars at 0.9 is 9.045 euros: 9.05, half up, as the server converts
    fill(driver, "#amount", "10.05")
    choose_currency(driver, "USD")
    fill(driver, "#rate", "0.9")
    fill(driver, "#description", "Taxi")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: waiting(d) == [("Taxi", "Waiting to be sent.")], message=lambda: f"waiting: {waiting(driver)}")

    # check: the waiting entry shows both amounts, and the balances count the converted one
    assert text(driver, "li.waiting-entry .amount") == "$10.05 → €9.05"
    wait(driver, lambda d: balances(d) == {"Alex": ("€9.05", "+€4.52"), "Sam": ("€0.00", "−€4.52")},
         message=lambda: f"balances: {balances(driver)}")

    # act: 20 dollars split exactly 15 and 5, still in dollars at 0.9: 13.50 and 4.50 euros
    assert driver.find_element(By.ID, "currency").get_attribute("value") == "USD"
    fill(driver, "#amount", "20")
    fill(driver, "#description", "Museum")
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.more summary"))
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-exact]"))
    for part, value in zip(driver.find_elements(By.CSS_SELECTOR, "ul.among input.part"), ["15", "5"]):
        part.clear()
        part.send_keys(value)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: len(waiting(d)) == 2, message=lambda: f"waiting: {waiting(driver)}")

    # check: the shares of both, added up exactly once, as the server will
    shown = {"Alex": ("€27.05", "+€9.02"), "Sam": ("€0.00", "−€9.02")}
    wait(driver, lambda d: balances(d) == shown, message=lambda: f"balances: {balances(driver)}")
    check_page(driver, "phone-currency-offline")

    # act and check: online, it is sent once, and the server's figures are what the page showed
    network(driver, online=True)
    wait(driver, lambda d: not waiting(d) and banner(d) == "", timeout=15, message="the expense was not sent")
    wait(driver, lambda d: len(held(d, ledger)) == 2, message="the server does not hold both")
    assert sorted(held(driver, ledger)) == [("Museum", "18.00", "20.00", "USD", "0.9"), ("Taxi", "9.05", "10.05", "USD", "0.9")]
    load(driver, ledger)
    assert balances(driver) == shown
