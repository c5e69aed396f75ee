"""One browser, two people: nothing of the first is left for the second.

The service worker keeps visited pages for offline use, and those pages hold invite codes; the
offline queue holds drinks. After alex signs out (through the app, or by the plain form with no
help from app.js: the server's Clear-Site-Data alone), no page of alex is in Cache Storage and none
is shown offline. When sam signs in on the same browser, even without alex having signed out,
sam never gets a page of alex from the cache, and drinks alex logged offline are never sent as sam.
"""

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_offline import banner, network
from test_spending import button, create_ledger, load
from test_web import click, sign_up, wait, wait_total

CACHED_PAGES = """
const done = arguments[arguments.length - 1];
(async () => {
  const pages = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) pages[name + " " + request.url] = await (await cache.match(request)).text();
  }
  return pages;
})().then(done, (error) => done({ error: String(error) }));
"""


def cached_pages(driver):
    """Every response in Cache Storage, as {"cache url": body}."""
    driver.set_script_timeout(15)
    pages = driver.execute_async_script(CACHED_PAGES)
    assert "error" not in pages, pages
    return pages


def page_caches(driver):
    return sorted({key.split(" ", 1)[0] for key in cached_pages(driver) if key.startswith("tally-pages")})


def controlled(driver):
    """Waits until the service worker handles this page's requests (from the second load on)."""
    driver.set_script_timeout(15)
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(() => done(true));""")
    wait(driver, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null") or d.refresh(),
         timeout=15, message="the service worker does not control the page")


def visit(driver, url):
    load(driver, url)
    wait(driver, lambda d: any(key.endswith(" " + url) for key in cached_pages(d)), timeout=10,
         message=f"{url} was not kept for offline use")


def alex_with_an_invite(driver, server, name):
    """alex's today, history, settings, ledger and ledger settings (with an open invite) are kept."""
    sign_up(driver, server, name)
    load(driver, server + "/spending")
    ledger = create_ledger(driver, "Alex's secret ledger")
    load(driver, ledger + "/settings")
    click(driver, button(driver, "Create an invite"))
    code = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "strong.code")).text.strip()
    controlled(driver)
    for url in (server + "/", server + "/history", server + "/settings", ledger, ledger + "/settings"):
        visit(driver, url)
    kept = cached_pages(driver)
    # The code is shown once, on the answer to the form, and kept hashed: the pages kept for
    # offline use hold the ledger's name, not the code.
    assert any("secret ledger" in body for body in kept.values()), "the ledger is not in the kept pages: the test proves nothing"
    return ledger, code


def shows_nothing_of(driver, url, *secrets):
    """Offline, `url` shows none of `secrets` (a page of someone else)."""
    driver.get(url)
    source = driver.page_source
    for secret in secrets:
        assert secret not in source, f"offline, {url} shows {secret!r}: a kept page of someone else"


def leaves_no_page(driver, server, ledger, secrets):
    assert page_caches(driver) == [], f"pages are kept after signing out: {page_caches(driver)}"
    for body in cached_pages(driver).values():
        for secret in secrets:
            assert secret not in body, f"{secret!r} is still in Cache Storage"
    assert driver.execute_script("return [localStorage.getItem('tally-outbox'), localStorage.getItem('tally-user')]") == [None, None]
    network(driver, online=False)
    for url in (ledger + "/settings", ledger, server + "/"):
        shows_nothing_of(driver, url, *secrets)
    screenshot(driver, "shared-device-offline-after-sign-out")
    network(driver, online=True)


@pytest.mark.parametrize("how", ["app", "plain-form"])
def test_signing_out_leaves_no_page_behind(server, browser, unique_name, how):
    driver = browser("desktop")
    ledger, code = alex_with_an_invite(driver, server, unique_name)

    # act: alex signs out, with the app's help or with the bare form (only the server's answer acts).
    if how == "app":
        click(driver, button(driver, "Sign out", within="//header"))
    else:
        driver.execute_script("localStorage.setItem('left-behind', 'yes')")
        driver.execute_script("document.querySelector('form[action=\"/signout\"]').submit()")
    wait(driver, lambda d: d.current_url == server + "/signin", message="signing out did not lead to /signin")

    leaves_no_page(driver, server, ledger, [code, "Alex&#39;s secret ledger", "Alex's secret ledger"])
    if how == "plain-form":
        # The server's Clear-Site-Data emptied the site's storage, not only the pages.
        assert driver.execute_script("return localStorage.getItem('left-behind')") is None


def test_the_next_person_never_gets_a_kept_page(server, browser, unique_name):
    driver = browser("desktop")
    ledger, code = alex_with_an_invite(driver, server, ("alex-" + unique_name)[:32])

    # act: alex's session ends without a sign-out (cookies cleared), and sam signs up in the same browser.
    driver.delete_all_cookies()
    sign_up(driver, server, ("sam-" + unique_name)[:32])
    load(driver, server + "/")

    # check: only sam's pages are kept, and offline the ledger of alex is not shown to sam.
    wait(driver, lambda d: len(page_caches(d)) == 1 and any(k.endswith(" " + server + "/") for k in cached_pages(d)),
         message=f"sam's pages are not kept alone: {page_caches(driver)}")
    assert not any(code in body or "secret ledger" in body for body in cached_pages(driver).values())
    network(driver, online=False)
    shows_nothing_of(driver, ledger + "/settings", code, "secret ledger")
    shows_nothing_of(driver, ledger, code, "secret ledger")
    screenshot(driver, "shared-device-offline-next-person")
    network(driver, online=True)


def test_drinks_queued_by_one_person_are_never_sent_as_another(server, browser, unique_name):
    driver = browser("desktop")
    sign_up(driver, server, ("alex-" + unique_name)[:32])
    load(driver, server + "/")
    wait(driver, lambda d: d.execute_script("return localStorage.getItem('tally-user')"), message="the page did not learn who is signed in")

    # alex logs a drink offline: it waits on the device.
    network(driver, online=False)
    wait(driver, lambda d: banner(d).startswith("You are offline."))
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.preset"))
    wait(driver, lambda d: "1 drink waits" in banner(d), message=f"the banner says {banner(driver)!r}")

    # act: alex's session ends without a sign-out; the network returns; sam signs up here.
    driver.delete_all_cookies()
    network(driver, online=True)
    sign_up(driver, server, ("sam-" + unique_name)[:32])
    load(driver, server + "/")

    # check: sam's day is empty, the banner shows no drink of alex, and alex's drink still waits for alex.
    wait(driver, lambda d: d.execute_script("return localStorage.getItem('tally-user')"))
    driver.execute_script("window.dispatchEvent(new Event('online'))")  # one more chance to send it
    load(driver, server + "/")
    wait_total(driver, "0 ml")
    assert driver.find_elements(By.CSS_SELECTOR, "#entries li") == []
    assert banner(driver) == ""
    waiting = driver.execute_script("return JSON.parse(localStorage.getItem('tally-outbox'))")
    assert len(waiting) == 1 and waiting[0]["owner"] != driver.execute_script("return localStorage.getItem('tally-user')")
