"""Where a person sees and sets their notifications, on a phone (H11, the ledger notifications):
- the ledger's page turns the others' changes told to this person on or off with one tap (a bell
  across from "All ledgers", a toggle button pressed when on);
- Settings → Reminders lists each device with how its notifications went: one whose push service
  said it is gone shows as stopped, one that kept failing points to the calendar feed.
Screenshots: phone-ledger-notify-{on,off}.png, phone-reminders-devices.png (look at them).
"""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from test_account import sign_in
from test_push_button import device_keys, in_page, push_block, stub_push, wait_message
from test_spending import create_ledger, load
from test_web import check_page, click, sign_up, wait


class Answering:
    """A push service on 127.0.0.1 that answers every push with `status`."""

    def __init__(self, status):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def failing():
    services = [Answering(500), Answering(410)]
    yield services
    for service in services:
        service.close()


def toggle(driver):
    return driver.find_element(By.CSS_SELECTOR, ".top-actions button.icon-toggle")


def setting(driver, ledger_url):
    ledger = ledger_url.rstrip("/").rsplit("/", 1)[-1]
    answer = in_page(driver, f"""
        fetch("/api/v1/ledgers/{ledger}/notifications", {{ headers: {{ Accept: "application/json" }}, credentials: "same-origin" }})
          .then((r) => r.json()).then((b) => done(b.changes), (e) => done(String(e)));""")
    return answer


def test_the_ledger_page_turns_its_notifications_off_and_on(server, browser, unique_name):
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    load(driver, server + "/spending")
    url = create_ledger(driver, "Flat")
    assert toggle(driver).get_attribute("textContent").strip() == "Notify me"
    # Across from "All ledgers", on its line: the form's Add stays where it was.
    back = driver.find_element(By.CSS_SELECTOR, ".back a")
    middle = lambda element: element.rect["y"] + element.rect["height"] / 2
    assert abs(middle(toggle(driver)) - middle(back)) < 12
    assert toggle(driver).get_attribute("aria-pressed") == "true" and setting(driver, url) is True
    check_page(driver, "phone-ledger-notify-on", full=False)
    click(driver, toggle(driver))
    wait(driver, lambda d: toggle(d).get_attribute("aria-pressed") == "false", message="the toggle did not turn off")
    assert driver.current_url.split("?")[0] == url.split("?")[0], "the toggle left the ledger's page"
    assert setting(driver, url) is False
    check_page(driver, "phone-ledger-notify-off", full=False)
    # A second tap turns it on again.
    click(driver, toggle(driver))
    wait(driver, lambda d: toggle(d).get_attribute("aria-pressed") == "true", message="the toggle did not turn on")
    assert setting(driver, url) is True


def test_the_reminders_page_says_which_devices_stopped_or_keep_failing(server, browser, unique_name, failing):
    broken, gone = failing
    driver = browser("phone")
    _, p256dh, auth = device_keys()
    # One device, whose push service refuses every push.
    stub_push(driver, server, broken.base + "/push/broken-phone", p256dh, auth)
    sign_up(driver, server, unique_name)
    load(driver, server + "/settings/reminders")
    wait(driver, lambda d: push_block(d).is_displayed(), message="the 'On this device' block stays hidden")
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-on]"))
    wait_message(driver, ("notice", "Notifications are on for this device."), "'Turn on notifications'")
    for _ in range(3):
        click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-test]"))
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-push] .message").text.startswith("Sent to 0 of 1"),
             timeout=15, message="a test reminder to a refusing push service did not say it reached none")
    # A second device of the same person, whose push service says the subscription is gone.
    other = browser("phone")
    _, p256dh, auth = device_keys()
    stub_push(other, server, gone.base + "/push/old-tablet", p256dh, auth)
    sign_in(other, server, unique_name, "correct horse 1")
    load(other, server + "/settings/reminders")
    wait(other, lambda d: push_block(d).is_displayed(), message="the 'On this device' block stays hidden")
    click(other, push_block(other).find_element(By.CSS_SELECTOR, "button[data-push-on]"))
    wait_message(other, ("notice", "Notifications are on for this device."), "'Turn on notifications' on the tablet")
    click(other, push_block(other).find_element(By.CSS_SELECTOR, "button[data-push-test]"))
    wait(other, lambda d: d.find_element(By.CSS_SELECTOR, "[data-push] .message").text.startswith("Sent to 0 of 2"),
         timeout=15, message="the tablet's test reminder did not say it reached none")

    load(driver, server + "/settings/reminders")
    rows = driver.find_elements(By.CSS_SELECTOR, "ul.devices li")
    assert len(rows) == 2, [row.text for row in rows]
    assert "The last 4 notifications did not reach this device (status 500)." in rows[0].text, rows[0].text
    link = rows[0].find_element(By.LINK_TEXT, "Use the calendar feed instead")
    assert link.get_attribute("href").endswith("/settings/calendar")
    assert "the browser no longer takes notifications" in rows[1].text, rows[1].text
    check_page(driver, "phone-reminders-devices")
    # This browser's own device is marked as such (the stub knows its subscription once made again).
    assert not driver.find_elements(By.CSS_SELECTOR, "ul.devices .this-device")
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-on]"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.devices li .this-device"), message="this device is not marked")
    marked = driver.find_elements(By.CSS_SELECTOR, "ul.devices li")
    assert [bool(row.find_elements(By.CSS_SELECTOR, ".this-device")) for row in marked] == [True, False]
    assert marked[0].find_element(By.CSS_SELECTOR, ".this-device").text == "this device"
