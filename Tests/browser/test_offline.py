"""The installable app offline (A3): the manifest and the service worker, and the offline queue.

With the network cut (Chrome's own network emulation, as DevTools does it), two drinks logged
from the today screen wait on the device, and the page says so; when the network comes back they
are sent with their client ids, and the server has exactly two new drinks, not one, not three.
"""

import json
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_web import check_page, click, sign_up, text, wait, wait_total


def network(driver, online):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def banner(driver):
    element = driver.find_element(By.ID, "offline")
    return "" if not element.is_displayed() else element.text.strip()


def test_manifest_and_service_worker(server, browser, unique_name):
    with urllib.request.urlopen(server + "/manifest.webmanifest") as response:
        assert response.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(response)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server + icon["src"]) as response:
            assert response.status == 200 and response.headers["Content-Type"] == icon["type"]

    driver = browser("phone")
    sign_up(driver, server, unique_name)
    driver.get(server + "/")
    driver.set_script_timeout(15)
    scope = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then((registration) => done(registration.active ? registration.scope : null));""")
    assert scope == server + "/"
    assert driver.find_element(By.CSS_SELECTOR, 'link[rel="manifest"]').get_attribute("href") == server + "/manifest.webmanifest"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_drinks_logged_offline_are_sent_once(server, browser, unique_name, viewport):
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    driver.get(server + "/")
    wait_total(driver, "0 ml")
    assert banner(driver) == ""

    # act: the network goes; two drinks are logged from the presets.
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."), message="the page does not say it is offline")
    preset = driver.find_element(By.CSS_SELECTOR, "button.preset")
    amount = preset.text.strip().lstrip("+")
    for waiting in (1, 2):
        click(driver, preset)
        expected = "1 drink waits" if waiting == 1 else "2 drinks wait"
        wait(driver, lambda d: expected in banner(d), message=f"the banner says {banner(driver)!r}")
    assert text(driver, "main .message") == "Kept on this device: it is sent when you are online."
    check_page(driver, f"{viewport}-offline-queue")

    # act: the network comes back.
    network(driver, online=True)
    wait(driver, lambda d: banner(d) == "", timeout=15, message="the queue was not sent")
    number = int(amount.split()[0])
    wait_total(driver, f"{2 * number} ml")

    # check: exactly two drinks on the server, after a reload too.
    driver.get(server + "/")
    wait_total(driver, f"{2 * number} ml")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#entries li")) == 2
    assert driver.execute_script("return localStorage.getItem('tally-outbox')") == "[]"
    screenshot(driver, f"{viewport}-offline-sent")
