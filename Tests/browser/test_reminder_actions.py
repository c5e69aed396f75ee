"""A reminder's buttons, in a real browser at phone size (H11).

The reminder is the server's own: "Send a test reminder" pushes it to the loopback push service of
test_push_button.py, and it is decrypted here as the device would. The service worker shows it
with its two buttons, "Log 100 ml" (the first quick-add amount) and "Snooze 1 h". A headless
browser has no notification to tap, so the worker's answer to a tap is run in the worker itself,
through DevTools: the same function its notificationclick listener calls. What is checked is what
the server and the device then hold:
- a tap on "Log" adds the reminder's drink once, however often it is tapped (its id was made once
  for the reminder), with the session signed in on the device, and says so in a notification;
- "Snooze" answers with its words;
- a tap without a connection keeps the drink on the device, and the next page sends it with its
  outbox.
"""

import itertools
import json
import urllib.request
import uuid

import websocket
from selenium.webdriver.common.by import By

from test_push_button import DEVICE_PATH, decrypt, device_keys, in_page, push_block, push_service, stub_push, wait_message  # noqa: F401
from test_spending import load
from test_web import click, sign_up, wait

LOGGED = "Logged 100 ml."
SNOOZED = "No reminders for an hour."
KEPT = "Kept on this device: it is sent when you are online."


class Worker:
    """A DevTools session with the page's service worker."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        targets = json.load(urllib.request.urlopen(f"http://{address}/json/list", timeout=10))
        workers = [t for t in targets if t["type"] == "service_worker" and t["url"].endswith("/sw.js")]
        assert workers, f"no service worker among {[(t['type'], t['url']) for t in targets]}"
        # DevTools refuses a WebSocket that names an origin; this one is no page's.
        self.socket = websocket.create_connection(workers[0]["webSocketDebuggerUrl"], timeout=20, suppress_origin=True)
        self.ids = itertools.count(1)

    def command(self, method, params=None):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params or {}}))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == number:
                assert "error" not in answer, f"{method}: {answer['error']}"
                return answer["result"]

    def run(self, expression):
        """The value of an expression evaluated in the worker, its promise awaited."""
        result = self.command("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        assert "exceptionDetails" not in result, f"{expression}: {result['exceptionDetails']}"
        return result["result"].get("value")

    def notifications(self, tag):
        return self.run(f"""self.registration.getNotifications({{ tag: {json.dumps(tag)} }}).then((shown) =>
            shown.map((n) => ({{ title: n.title, body: n.body, actions: n.actions.map((a) => [a.action, a.title]), data: n.data }})))""")

    def tap(self, action, data):
        self.run(f"answer({json.dumps(action)}, {json.dumps(data)}).then(() => true)")

    def offline(self, offline):
        self.command("Network.enable")
        self.command("Network.emulateNetworkConditions",
                     {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def close(self):
        self.socket.close()


def fetch(driver, path):
    """The page's GET of an API path: (status, JSON body or None)."""
    answer = in_page(driver, f"""
        fetch({json.dumps(path)}, {{ headers: {{ Accept: "application/json" }}, credentials: "same-origin" }})
          .then(async (r) => done([r.status, r.ok ? await r.json() : null]), (e) => done([0, String(e)]));""")
    return answer[0], answer[1]


def kept_for_worker(driver, file):
    return in_page(driver, f"""
        caches.open("tally-words").then((c) => c.match({json.dumps(file)})).then((r) => r ? r.json() : null)
          .then(done, () => done(null));""")


def test_a_reminders_buttons_log_once_snooze_and_keep_a_drink_offline(server, browser, unique_name, push_service):
    endpoint = push_service.base + DEVICE_PATH
    private, p256dh, auth = device_keys()
    assert private is not None, "the cryptography package reads the server's push message"
    driver = browser("phone")
    stub_push(driver, server, endpoint, p256dh, auth)
    sign_up(driver, server, unique_name)
    load(driver, server + "/settings/reminders")
    wait(driver, lambda d: push_block(d).is_displayed(), message="the 'On this device' block stays hidden")
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-on]"))
    wait_message(driver, ("notice", "Notifications are on for this device."), "'Turn on notifications'")
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-test]"))
    wait(driver, lambda d: push_service.received(), message="the push service received nothing")
    reminder = json.loads(decrypt(push_service.received()[0]["body"], private, p256dh, auth))

    # The page left the worker its session (the CSRF token, and whose it is).
    in_page(driver, "navigator.serviceWorker.ready.then(() => done(true));")
    wait(driver, lambda d: (kept_for_worker(d, "/worker-session.json") or {}).get("csrf"),
         message="the page left the worker no session")
    worker = Worker(driver)
    try:
        # Shown as the worker shows a push: the reminder's words and its two buttons.
        worker.run(f"show({json.dumps(reminder)}).then(() => true)")
        shown = worker.notifications("reminder")
        assert len(shown) == 1, shown
        assert shown[0]["body"] == "Time for a glass of water."
        assert shown[0]["actions"] == [["log", "Log 100 ml"], ["snooze", "Snooze 1 h"]]
        data = shown[0]["data"]
        drink = data["drink"]["id"]

        # "Log", twice: one drink, with the reminder's id, and the worker says so.
        worker.tap("log", data)
        worker.tap("log", data)
        status, logged = fetch(driver, f"/api/v1/intakes/{drink}")
        assert status == 200 and logged["volumeMl"] == 100, (status, logged)
        status, day = fetch(driver, "/api/v1/entries")
        assert status == 200
        assert [item["id"].lower() for item in day["items"]].count(drink.lower()) == 1, day
        assert len([item for item in day["items"] if item.get("type") == "intake"]) == 1, "a second tap added a second drink"
        assert [n["body"] for n in worker.notifications("answer")] == [LOGGED]

        # "Snooze": the server puts reminders off, and the worker says so.
        worker.tap("snooze", data)
        assert [n["body"] for n in worker.notifications("answer")] == [SNOOZED]

        # No connection: the drink is kept on the device, the next page sends it.
        offline = dict(data, drink={"id": str(uuid.uuid4()), "volumeMl": 100})
        worker.offline(True)
        worker.tap("log", offline)
        assert [n["body"] for n in worker.notifications("answer")] == [KEPT]
        assert [item["body"]["id"] for item in kept_for_worker(driver, "/worker-drinks.json")] == [offline["drink"]["id"]]
        assert fetch(driver, f"/api/v1/intakes/{offline['drink']['id']}")[0] == 404
        worker.offline(False)
    finally:
        worker.close()
    load(driver, server + "/")
    wait(driver, lambda d: fetch(d, f"/api/v1/intakes/{offline['drink']['id']}")[0] == 200, timeout=15,
         message="the drink kept offline was not sent by the next page")
    assert kept_for_worker(driver, "/worker-drinks.json") is None, "the worker's drinks were not taken into the outbox"
