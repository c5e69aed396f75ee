"""Pages that follow each other, and a ledger used offline (issue 16), in real browsers.

Two members of one ledger, each in their own browser (a desktop and a phone): what one adds shows
on the other's open page within a second, without a reload. Then the phone loses its network
(Chrome's own emulation, as DevTools does it): two expenses added and one deleted wait on the
device, shown in the history as waiting, with the balances worked out in the page. The network
comes back: both pages agree within a second and the server holds exactly what was meant, each
expense once. A delete of an entry the other member changed meanwhile comes back as a message on
the entry, and nothing is lost. The day's page of one person open on two devices follows too.
Screenshots: Tests/browser/screenshots/{phone,desktop}-live-*.png.
"""

import json
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from test_account import sign_in
from test_offline import banner, network
from test_spending import add_expense, balances, button, create_ledger, history, load, mark, same_page, \
    sign_up_and_open_spending
from test_web import check_page, click, fill, sign_up, text, wait, wait_total

# Within a second of the change, give or take the moment the test itself takes to look.
PROMPTLY = 1.5


def shared_ledger(browser, server, unique_name):
    """alex (desktop) and sam (phone), both members of alex's new ledger "Flat" and on its page."""
    alex, sam = browser("desktop"), browser("phone")
    sign_up_and_open_spending(alex, server, ("alex-" + unique_name)[:32])
    sign_up_and_open_spending(sam, server, ("sam-" + unique_name)[:32])
    ledger = create_ledger(alex, "Flat")
    load(alex, ledger + "/settings")
    click(alex, button(alex, "Create an invite"))
    code = wait(alex, lambda d: d.find_element(By.CSS_SELECTOR, "strong.code")).text.strip()
    load(sam, f"{server}/join/{code}")
    click(sam, button(sam, "Join"))
    wait(sam, lambda d: d.current_url == ledger, timeout=15, message="joining did not lead to the ledger")
    load(alex, ledger)
    return alex, sam, ledger


def follows(driver, condition, what):
    """Waits for the page to show `condition` by itself (no reload), and says how long it took."""
    started = time.monotonic()
    wait(driver, condition, timeout=10, message=f"{what} did not show")
    took = time.monotonic() - started
    assert same_page(driver), f"{what}: the page was loaded again"
    assert took <= PROMPTLY, f"{what} took {took:.2f} s to show"
    return took


def server_entries(driver, ledger):
    """Every entry of the ledger on the server, deleted ones too, as the API gives them."""
    ledger_id = ledger.rsplit("/", 1)[1]
    driver.set_script_timeout(15)
    return json.loads(driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], { credentials: "same-origin", headers: { Accept: "application/json" } })
            .then((r) => r.text()).then(done, (e) => done(JSON.stringify({ error: String(e) })));""",
        f"/api/v1/ledgers/{ledger_id}/entries?deleted=true&limit=100"))["items"]


def waiting(driver):
    """The history's entries kept on the device: (title, what the page says of them)."""
    return [(li.find_element(By.CSS_SELECTOR, "strong").text.strip(), li.find_element(By.CSS_SELECTOR, ".waiting").text.strip())
            for li in driver.find_elements(By.CSS_SELECTOR, "li.waiting-entry")]


def delete(driver, title):
    click(driver, driver.find_element(By.CSS_SELECTOR, f"button.delete[aria-label^='Delete {title}']"))
    wait(driver, EC.alert_is_present()).accept()


def test_two_members_one_offline(server, browser, unique_name):
    alex, sam, ledger = shared_ledger(browser, server, unique_name)

    # act and check: what alex adds shows on sam's open page, without a reload
    load(sam, ledger)
    mark(sam)
    add_expense(alex, "100.00", "Rent")
    took = follows(sam, lambda d: [t for t, _, _ in history(d)] == ["Rent"], "alex's Rent on sam's page")
    print(f"alex's expense showed on sam's page after {took:.2f} s")
    assert balances(sam) == {"Person 1": ("€100.00", "+€50.00"), "Person 2": ("€0.00", "−€50.00")}

    # act: sam's phone loses the network; two expenses and a delete wait on it
    network(sam, online=False)
    wait(sam, lambda d: banner(d).startswith("You are offline."), message="the page does not say it is offline")
    for amount, what in [("30.00", "Groceries"), ("24.00", "Cinema")]:
        fill(sam, "#amount", amount)
        click(sam, sam.find_element(By.XPATH, "//fieldset[contains(@class,'payers')]//label[starts-with(normalize-space(), 'Person 2')]"))
        fill(sam, "#description", what)
        click(sam, sam.find_element(By.CSS_SELECTOR, "button.add"))
        wait(sam, lambda d: what in [t for t, _ in waiting(d)], message=f"{what} is not shown as waiting")
    delete(sam, "Rent")
    wait(sam, lambda d: "2 changes" not in banner(d) and "3 changes wait" in banner(d), message=lambda: f"the banner says {banner(sam)!r}")

    # check: shown as waiting, Rent marked, and the balances with all three, worked out in the page
    assert waiting(sam) == [("Cinema", "Waiting to be sent."), ("Groceries", "Waiting to be sent.")]
    rent = sam.find_element(By.CSS_SELECTOR, "li.deleting")
    assert "Deleted here; waits to be sent." in rent.text
    assert balances(sam) == {"Person 1": ("€0.00", "−€27.00"), "Person 2": ("€54.00", "+€27.00")}
    assert "waiting to be sent" in text(sam, ".waiting-note")
    check_page(sam, "phone-live-offline")
    assert [t for t, _, _ in history(alex)] == ["Rent"], "alex's page changed before anything was sent"

    # act: the network comes back
    network(sam, online=True)
    sent = time.monotonic()
    wait(sam, lambda d: not waiting(d) and banner(d) == "", timeout=15, message="sam's changes were not sent")
    # check: both pages agree within a second of the sending, without a reload
    expected = ["Cinema", "Groceries"]
    wait(sam, lambda d: [t for t, _, _ in history(d)] == expected, message="sam's page does not show what was sent")
    follows(alex, lambda d: [t for t, _, _ in history(d)] == expected, "sam's changes on alex's page")
    print(f"sam's offline changes showed on alex's page {time.monotonic() - sent:.2f} s after the network came back")
    assert balances(alex) == balances(sam) == {"Person 1": ("€0.00", "−€27.00"), "Person 2": ("€54.00", "+€27.00")}
    check_page(alex, "desktop-live-after-offline")

    # check: the server holds exactly what was meant: each expense once, Rent deleted
    held = sorted((e["description"], e["amount"], e["deletedAt"] is not None) for e in server_entries(alex, ledger))
    assert held == [("Cinema", "24.00", False), ("Groceries", "30.00", False), ("Rent", "100.00", True)], held
    assert sam.execute_script("return localStorage.getItem('tally-outbox')") == "[]"


def test_a_delete_of_what_changed_meanwhile_comes_back_on_the_entry(server, browser, unique_name):
    alex, sam, ledger = shared_ledger(browser, server, unique_name)
    add_expense(alex, "100.00", "Rent")
    load(sam, ledger)

    # act: sam deletes Rent offline; alex, online, changes it to 120.00 meanwhile
    network(sam, online=False)
    wait(sam, lambda d: banner(d).startswith("You are offline."))
    delete(sam, "Rent")
    wait(sam, lambda d: sam.find_elements(By.CSS_SELECTOR, "li.deleting"))
    load(alex, ledger + "/entries/" + alex.find_element(By.CSS_SELECTOR, "li[data-entry]").get_attribute("data-entry") + "/edit")
    fill(alex, "#amount", "120.00")
    click(alex, button(alex, "Save"))
    wait(alex, lambda d: d.current_url == ledger)
    network(sam, online=True)

    # check: the delete is refused on the entry, with what it is now; nothing is deleted
    reason = wait(sam, lambda d: d.find_element(By.CSS_SELECTOR, "li.deleting .waiting.field-error"), timeout=15).text
    assert reason.startswith("Not sent: This entry was changed after you saw it: it is now €120.00 for Rent"), reason
    wait(sam, lambda d: text(d, "main .message.error") == "A change made offline could not be made: the reason is at the entry.")
    check_page(sam, "phone-live-refused-delete")
    held = [(e["description"], e["amount"], e["deletedAt"]) for e in server_entries(alex, ledger)]
    assert held == [("Rent", "120.00", None)], held

    # act and check: sam dismisses it; the entry is back as it is now
    click(sam, sam.find_element(By.XPATH, "//button[normalize-space()='Dismiss']"))
    wait(sam, lambda d: not d.find_elements(By.CSS_SELECTOR, "li.deleting"))
    wait(sam, lambda d: [a for t, _, a in history(d)] == ["€120.00"], message="the page does not show Rent as it is now")
    assert sam.execute_script("return localStorage.getItem('tally-outbox')") == "[]"


def test_the_day_follows_another_device(server, browser, unique_name):
    phone, desktop = browser("phone"), browser("desktop")
    sign_up(phone, server, unique_name)
    sign_in(desktop, server, unique_name, "correct horse 1")
    for driver in (phone, desktop):
        load(driver, server + "/")
        wait_total(driver, "0 ml")
    mark(desktop)

    # act: a drink on the phone
    preset = phone.find_element(By.CSS_SELECTOR, "button.preset")
    amount = int(re.search(r"\d+", preset.text).group())
    click(phone, preset)
    wait_total(phone, f"{amount} ml")

    # check: the desktop's open page shows it by itself
    follows(desktop, lambda d: text(d, "#progress .big") == f"{amount} ml", "the phone's drink on the desktop")
    check_page(desktop, "desktop-live-today")


def holding_read(n):
    """Script that makes the page's n-th fetch from now wait, once answered, until `release()`;
    `original` is the page's own fetch and `done` the async script's callback."""
    return f"""
        const done = arguments[0];
        const original = window.fetch;
        let release;
        const held = new Promise((resolve) => {{ release = resolve; }});
        let calls = 0;
        window.fetch = async (...args) => {{
          const mine = ++calls;
          const answer = await original(...args);
          if (mine === {n}) await held;
          return answer;
        }};"""


def test_a_late_answer_to_the_day_page_read_does_not_take_the_later_notice_away(server, browser, unique_name):
    """The page's own delete and the stream's "it changed" read the page at about the same time;
    when the stream's read comes back last, it is older than what the delete drew ("Deleted.")."""
    driver = browser("desktop")
    sign_up(driver, server, unique_name)
    load(driver, server + "/")
    wait_total(driver, "0 ml")

    # act: a first read held back until a second one, with its notice, has been drawn
    said = driver.execute_async_script(holding_read(1) + """
        const first = refresh(null);
        const second = refresh("Deleted.");
        second.then(() => { release(); return first; }).then(() => {
          window.fetch = original;
          done(document.querySelector("main .message")?.textContent.trim() ?? "");
        });""")

    # check
    assert said == "Deleted."


def test_undo_keeps_the_focus_when_a_read_begun_before_it_is_drawn_after_it(server, browser, unique_name):
    """The stream's "it changed" starts a read while the page's own delete is drawing: the delete's
    read comes back first and offers Undo, focused; the stream's read, drawn after, keeps the
    notice and must leave the focus on its Undo, not on the control focused when that read began."""
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    load(driver, server + "/")
    wait_total(driver, "0 ml")
    driver.execute_script("document.querySelector('button.preset').focus()")  # as a tap leaves it

    # act: the delete's read (drawn, then Undo offered), and the stream's read, begun meanwhile,
    # held back until then
    focused = driver.execute_async_script(holding_read(2) + """
        const own = refresh("Deleted.");
        const stream = refresh(null, { keepMessage: true });
        own.then(() => {
          offerUndo("Deleted water.", async () => {}, true);
          release();
          return stream;
        }).then(() => {
          window.fetch = original;
          const active = document.activeElement;
          done(active.matches("main .message button") ? "Undo" : active.outerHTML.slice(0, 80));
        });""")

    # check
    assert focused == "Undo"
    assert text(driver, "main .message span") == "Deleted water."


def test_the_page_shares_out_as_the_server_does(server, browser, unique_name):
    """What a waiting expense does to the balances is worked out in the page: for random amounts
    and splits (equal among some, shares, percentages), the page's shares are the server's, cent
    for cent, leftover cents and ties included."""
    import random
    driver = browser("desktop")
    sign_up_and_open_spending(driver, server, unique_name)
    ledger = create_ledger(driver, "Flat")
    ledger_id = ledger.rsplit("/", 1)[1]
    driver.set_script_timeout(30)
    members = driver.execute_script("return ledgerOnPage(document).members.map((m) => m.id)")
    driver.execute_async_script("""
        const [path, done] = arguments;
        Promise.all(["Kim", "Lou"].map((name) => api("POST", path, { name }))).then(done, (e) => done(String(e)));""",
        f"/api/v1/ledgers/{ledger_id}/members")
    load(driver, ledger)
    members = driver.execute_script("return ledgerOnPage(document).members.map((m) => m.id)")
    assert len(members) == 4
    generator = random.Random(16)
    cases = []
    for _ in range(40):
        amount = f"{generator.randint(1, 200000) / 100:.2f}"
        method = generator.choice(["equal", "shares", "percent"])
        chosen = sorted(generator.sample(members, generator.randint(1, 4)))
        if method == "equal":
            parts = {member: None for member in chosen}
        elif method == "shares":
            parts = {member: str(generator.choice([1, 2, 3, 1.5, 0.25, 7, 999.9999])) for member in chosen}
        else:
            cuts = sorted(generator.sample(range(1, 10000), len(chosen) - 1))
            bounds = [0, *cuts, 10000]
            parts = {member: f"{(b - a) / 100:.2f}" for member, a, b in zip(chosen, bounds, bounds[1:])}
        cases.append((amount, method, parts))
    compared = driver.execute_async_script("""
        const [path, cases, done] = arguments;
        (async () => {
          const ledger = ledgerOnPage(document);
          const found = [];
          for (const [amount, method, parts] of cases) {
            const fields = [["amount", amount], ["payer", String(ledger.members[0].id)], ["split", method]];
            for (const [member, value] of Object.entries(parts)) {
              fields.push(method === "equal" ? ["among-" + member, "yes"] : ["part-" + member, value]);
            }
            const page = effectOf(fields, ledger);
            const entry = await api("POST", path, { amount, split: { method,
              parts: Object.entries(parts).map(([member, value]) => ({ member: Number(member), value: value ?? undefined })) } });
            found.push([amount, method, Object.fromEntries(page.shares),
              Object.fromEntries(entry.parts.map((part) => [part.member, Math.round(Number(part.share) * 100)]))]);
          }
          return found;
        })().then(done, (error) => done(String(error)));""", f"/api/v1/ledgers/{ledger_id}/expenses", cases)
    assert isinstance(compared, list), compared
    for amount, method, page, held in compared:
        assert page == held, f"{amount} shared by {method}: the page says {page}, the server {held}"


def test_a_payment_recorded_offline_settles_up_when_sent(server, browser, unique_name):
    driver = browser("phone")
    sign_up_and_open_spending(driver, server, unique_name)
    ledger = create_ledger(driver, "Flat")
    add_expense(driver, "100.00", "Rent")

    # act: offline, the settle-up plan's payment is recorded
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."))
    click(driver, driver.find_element(By.CSS_SELECTOR, "ul.plan details.settle summary"))
    click(driver, driver.find_element(By.XPATH, "//ul[@class='plan']//button[normalize-space()='Confirm']"))

    # check: waiting, and the balances settled in the page
    wait(driver, lambda d: waiting(d) == [("Person 2 paid Person 1", "Waiting to be sent.")], message=lambda: f"waiting: {waiting(driver)}")
    assert balances(driver) == {"Person 1": ("€100.00", "€0.00"), "Person 2": ("€0.00", "€0.00")}
    assert "1 change waits" in banner(driver)

    # act and check: sent once when the network returns
    network(driver, online=True)
    wait(driver, lambda d: not waiting(d) and banner(d) == "", timeout=15, message="the payment was not sent")
    wait(driver, lambda d: [t for t, _, _ in history(d)] == ["Person 2 paid Person 1", "Rent"])
    held = sorted((e["kind"], e["amount"]) for e in server_entries(driver, ledger))
    assert held == [("expense", "100.00"), ("payment", "50.00")], held
    assert text(driver, "section.summary p.owes") == "You are settled up."


def test_a_split_that_does_not_add_up_offline_is_refused_at_the_split(server, browser, unique_name):
    driver = browser("phone")
    sign_up_and_open_spending(driver, server, unique_name)
    create_ledger(driver, "Flat")
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."))

    # act: exact amounts of 5.00 and 5.00 for 12.00, offline
    fill(driver, "#amount", "12.00")
    click(driver, driver.find_element(By.CSS_SELECTOR, "details.more summary"))
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for=split-exact]"))
    for part in driver.find_elements(By.CSS_SELECTOR, "ul.among input.part"):
        part.clear()
        part.send_keys("5")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))

    # check: said at the split, in the server's words (test_spending's online refusal), and nothing waits
    wait(driver, lambda d: text(d, "#split-error") == "The exact amounts add up to 10.00, not 12.00: change them by 2.00 so they match the expense.",
         message=lambda: f"the split says {text(driver, '#split-error')!r}")
    assert driver.find_element(By.CSS_SELECTOR, "fieldset[data-split]").get_attribute("aria-invalid") == "true"
    assert not waiting(driver) and "wait" not in banner(driver)

    # act and check: put right, it waits, and the refusal goes
    driver.find_elements(By.CSS_SELECTOR, "ul.among input.part")[1].send_keys(Keys.BACKSPACE, "7")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: waiting(d) == [("Expense", "Waiting to be sent.")], message=lambda: f"waiting: {waiting(driver)}")
    assert text(driver, "#split-error") == ""
    network(driver, online=True)
    wait(driver, lambda d: not waiting(d) and [t for t, _, _ in history(d)] == ["Expense"], timeout=15)
