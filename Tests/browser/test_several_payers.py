"""Several payers for one expense (issue 16), in a real browser at the phone size.

Alex and Sam paid one dinner: in the quick entry, "Paid by" offers "Several", and then a field
for what each member paid, with what is left to pay said as it is typed. The history says who
paid what, the balances credit each payer their part, and the server holds the parts. Parts that
do not add up to the amount are refused at the payers, in the server's words, online and offline;
offline, an expense with several payers waits with the balances already counting each part, and
is sent once. The edit page opens with "Several" chosen and the parts filled in.
Screenshots: Tests/browser/screenshots/phone-several-payers-*.png.
"""

from selenium.webdriver.common.by import By

from test_live_and_offline import delete, server_entries, waiting
from test_offline import banner, network
from test_spending import balances, button, create_ledger, history, load, mark, same_page, sign_up_and_open_spending, \
    titles
from test_web import check_page, click, fill, text, wait

REFUSED = "What the payers paid adds up to 45.00, not 50.00: change it by 5.00 so it matches the expense."


# ---------------------------------------------------------------------------------------------
# Helpers


def ledger_of_two(browser, server, unique_name):
    """A phone on alex's new ledger "Dinners", whose two members are renamed Alex and Sam; the
    ledger's address and the members' ids by name."""
    driver = browser("phone")
    sign_up_and_open_spending(driver, server, unique_name)
    ledger = create_ledger(driver, "Dinners")
    load(driver, ledger + "/settings")
    for old, new in [("Person 1", "Alex"), ("Person 2", "Sam")]:
        field = driver.find_element(By.XPATH, f"//ul[@class='kinds']//input[@value='{old}']")
        field.clear()
        field.send_keys(new)
        click(driver, driver.find_element(By.CSS_SELECTOR, f"button[aria-label='Rename {old}']"))
        wait(driver, lambda d: d.find_elements(By.XPATH, f"//ul[@class='kinds']//input[@value='{new}']"),
             message=f"{old} was not renamed {new}")
    load(driver, ledger)
    ids = {row.find_element(By.TAG_NAME, "th").text.strip(): int(row.get_attribute("data-member"))
           for row in driver.find_elements(By.CSS_SELECTOR, "table.balances tr[data-member]")}
    assert set(ids) == {"Alex", "Sam"}, ids
    return driver, ledger, ids


def payers(driver):
    return driver.find_element(By.CSS_SELECTOR, "fieldset[data-payers]")


def choose_several(driver):
    """Taps "Several" (a label: its radio is visually hidden): the parts show."""
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=payer-several]"))
    assert driver.find_element(By.ID, "payer-several").is_selected(), "tapping Several did not choose it"
    wait(driver, lambda d: payers(d).get_attribute("data-mode") == "several", message="the fieldset is not in several mode")
    assert driver.find_element(By.CSS_SELECTOR, "fieldset[data-payers] .paid-list").is_displayed()


def paid(driver, name):
    """The field for what `name` paid, found through its label."""
    label = driver.find_element(By.XPATH, f"//ul[@class='paid-list']//label[normalize-space()='{name}']")
    return driver.find_element(By.ID, label.get_attribute("for"))


def type_paid(driver, name, value):
    field = paid(driver, name)
    field.clear()
    field.send_keys(value)


def left(driver):
    return text(driver, "fieldset[data-payers] .left")


def wait_left(driver, expected):
    wait(driver, lambda d: left(d) == expected, message=lambda: f"the payers say {left(driver)!r}, not {expected!r}")


def held_payers(driver, ledger):
    """Each live entry on the server: (description, amount, [(member, paid)])."""
    return [(e["description"], e["amount"], [(p["member"], p["paid"]) for p in e["payers"]])
            for e in server_entries(driver, ledger) if e["deletedAt"] is None]


def type_dinner(driver, amount, alex, sam, description="Dinner"):
    fill(driver, "#amount", amount)
    choose_several(driver)
    type_paid(driver, "Alex", alex)
    type_paid(driver, "Sam", sam)
    fill(driver, "#description", description)


# ---------------------------------------------------------------------------------------------
# Tests


def test_two_people_paid_one_dinner(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)

    # check: one payer at first, the parts hidden
    assert payers(driver).get_attribute("data-mode") == "one"
    assert driver.find_element(By.ID, f"payer-{ids['Alex']}").is_selected()
    assert not driver.find_element(By.CSS_SELECTOR, "fieldset[data-payers] .paid-list").is_displayed()

    # act and check: "Several", 50.00 of which Alex paid 20: 30.00 left; then too much; then it adds up
    fill(driver, "#amount", "50")
    choose_several(driver)
    wait_left(driver, "€50.00 left to pay.")
    type_paid(driver, "Alex", "20")
    wait_left(driver, "€30.00 left to pay.")
    type_paid(driver, "Sam", "35")
    wait_left(driver, "€5.00 too much.")
    type_paid(driver, "Sam", "30")
    wait_left(driver, "The parts add up.")
    fill(driver, "#description", "Dinner")
    check_page(driver, "phone-several-payers-typed")

    # act: added
    mark(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Dinner"], message="Dinner was not added")
    assert same_page(driver), "the page was loaded again instead of swapped"

    # check: the history says who paid what; each is credited their part; the server holds the parts
    assert history(driver) == [("Dinner", "paid by Alex €20.00 and Sam €30.00", "€50.00")], history(driver)
    assert balances(driver) == {"Alex": ("€20.00", "−€5.00"), "Sam": ("€30.00", "+€5.00")}
    assert text(driver, "section.summary p.owes") == "You owe Sam €5.00."
    assert held_payers(driver, ledger) == [("Dinner", "50.00", [(ids["Alex"], "20.00"), (ids["Sam"], "30.00")])]
    entry = driver.find_element(By.CSS_SELECTOR, "li[data-entry]")
    assert entry.get_attribute("data-payers") == f"{ids['Alex']}:2000 {ids['Sam']}:3000"

    # check: the quick entry is ready for the next one, one payer again
    assert payers(driver).get_attribute("data-mode") == "one"
    assert driver.find_element(By.ID, "amount").get_attribute("value") == ""
    check_page(driver, "phone-several-payers-added")


def test_parts_that_do_not_add_up_are_refused_at_the_payers(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)

    # act: 20 + 25 for 50
    type_dinner(driver, "50", "20", "25")
    wait_left(driver, "€5.00 left to pay.")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))

    # check: said at the payers, in the server's words, as typed; nothing added
    wait(driver, lambda d: text(d, "#payers-error") == REFUSED, message=lambda: f"the payers say {text(driver, '#payers-error')!r}")
    assert payers(driver).get_attribute("aria-invalid") == "true"
    assert driver.find_element(By.ID, "payer-several").is_selected()
    assert payers(driver).get_attribute("data-mode") == "several"
    assert paid(driver, "Sam").get_attribute("value") == "25"
    assert driver.switch_to.active_element == driver.find_element(By.ID, "payer-several"), "the focus is not at the payers"
    assert not history(driver) and held_payers(driver, ledger) == []
    check_page(driver, "phone-several-payers-refused")

    # act and check: put right, it is added and the refusal goes
    type_paid(driver, "Sam", "30")
    wait_left(driver, "The parts add up.")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Dinner"], message="Dinner was not added")
    assert text(driver, "#payers-error") == ""
    assert held_payers(driver, ledger) == [("Dinner", "50.00", [(ids["Alex"], "20.00"), (ids["Sam"], "30.00")])]


def test_several_payers_offline(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."), message="the page does not say it is offline")

    # act and check: parts that do not add up are refused at the payers, in the server's words; nothing waits
    type_dinner(driver, "50", "20", "25")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: text(d, "#payers-error") == REFUSED, message=lambda: f"the payers say {text(driver, '#payers-error')!r}")
    assert payers(driver).get_attribute("aria-invalid") == "true"
    assert not waiting(driver) and "wait" not in banner(driver)

    # act: put right, it waits
    type_paid(driver, "Sam", "30")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: waiting(d) == [("Dinner", "Waiting to be sent.")], message=lambda: f"waiting: {waiting(driver)}")

    # check: the refusal went; the entry says who paid what; the balances count each part
    assert text(driver, "#payers-error") == "" and payers(driver).get_attribute("aria-invalid") is None
    assert history(driver) == [("Dinner", "paid by Alex €20.00 and Sam €30.00", "€50.00")], history(driver)
    shown = {"Alex": ("€20.00", "−€5.00"), "Sam": ("€30.00", "+€5.00")}
    assert balances(driver) == shown
    assert [paid(driver, name).get_attribute("value") for name in ("Alex", "Sam")] == ["", ""], "the parts were not cleared"
    assert "1 change waits" in banner(driver)
    check_page(driver, "phone-several-payers-offline")

    # act and check: online, it is sent once, and the server's balances are what the page showed
    network(driver, online=True)
    wait(driver, lambda d: not waiting(d) and banner(d) == "", timeout=15, message="the expense was not sent")
    wait(driver, lambda d: titles(d) == ["Dinner"], message="the page does not show what was sent")
    assert held_payers(driver, ledger) == [("Dinner", "50.00", [(ids["Alex"], "20.00"), (ids["Sam"], "30.00")])]
    load(driver, ledger)
    assert balances(driver) == shown
    assert history(driver) == [("Dinner", "paid by Alex €20.00 and Sam €30.00", "€50.00")]

    # act and check: deleted offline, the page takes each payer's part back (the entry's data-payers)
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."))
    delete(driver, "Dinner")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.deleting"))
    assert balances(driver) == {"Alex": ("€0.00", "€0.00"), "Sam": ("€0.00", "€0.00")}
    network(driver, online=True)
    wait(driver, lambda d: banner(d) == "" and not d.find_elements(By.CSS_SELECTOR, "li.deleting"), timeout=15,
         message="the delete was not sent")
    assert held_payers(driver, ledger) == []
    assert driver.execute_script("return localStorage.getItem('tally-outbox')") == "[]"


def test_the_edit_page_keeps_several_payers(server, browser, unique_name):
    driver, ledger, ids = ledger_of_two(browser, server, unique_name)
    type_dinner(driver, "60", "40", "20")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: titles(d) == ["Dinner"], message="Dinner was not added")
    edit = ledger + "/entries/" + driver.find_element(By.CSS_SELECTOR, "li[data-entry]").get_attribute("data-entry") + "/edit"

    # check: the edit page opens with "Several" chosen and the parts filled in
    load(driver, edit)
    assert driver.find_element(By.ID, "payer-several").is_selected()
    assert payers(driver).get_attribute("data-mode") == "several"
    assert [paid(driver, name).get_attribute("value") for name in ("Alex", "Sam")] == ["40.00", "20.00"]
    assert left(driver) == "The parts add up."
    check_page(driver, "phone-several-payers-edit")

    # act: 70.00, 45 and 25
    fill(driver, "#amount", "70")
    wait_left(driver, "€10.00 left to pay.")
    type_paid(driver, "Alex", "45")
    type_paid(driver, "Sam", "25")
    wait_left(driver, "The parts add up.")
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: d.current_url == ledger, message="saving did not lead back to the ledger")

    # check: saved as typed
    assert history(driver) == [("Dinner", "paid by Alex €45.00 and Sam €25.00", "€70.00")], history(driver)
    assert balances(driver) == {"Alex": ("€45.00", "+€10.00"), "Sam": ("€25.00", "−€10.00")}
    assert held_payers(driver, ledger) == [("Dinner", "70.00", [(ids["Alex"], "45.00"), (ids["Sam"], "25.00")])]

    # act and check: back to one payer, Sam, who paid it all; the parts hide
    load(driver, edit)
    click(driver, driver.find_element(By.XPATH, "//fieldset[@data-payers]/fieldset[@class='toggles']/label[normalize-space()='Sam']"))
    wait(driver, lambda d: payers(d).get_attribute("data-mode") == "one")
    assert not driver.find_element(By.CSS_SELECTOR, "fieldset[data-payers] .paid-list").is_displayed()
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: d.current_url == ledger, message="saving did not lead back to the ledger")
    assert history(driver) == [("Dinner", "paid by Sam", "€70.00")], history(driver)
    assert held_payers(driver, ledger) == [("Dinner", "70.00", [(ids["Sam"], "70.00")])]
