"""Signing in through the household's OpenID provider in a real browser, on a phone: the
sign-in page offers the provider, one tap goes there and back (the flow's cookie and the session's
travel as a browser sends them), a new person lands on onboarding, and a person with a password
links their account and signs in with the provider afterwards. The provider is Tests/oidc's."""

import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "oidc"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402
from oidc_browser import ADMIN, CALLBACK, PROVIDER_NAME, start_tally  # noqa: E402
from provider import Provider  # noqa: E402
from test_web import check_page, click, fill, wait  # noqa: E402


@pytest.fixture(scope="module")
def tally_with_provider(tmp_path_factory):
    with Provider(client_secret=secrets.token_urlsafe(24), redirect_uri="http://127.0.0.1:1" + CALLBACK) as provider:
        with start_tally(tmp_path_factory.mktemp("provider"), provider) as tally:
            provider.redirect_uri = tally.base + CALLBACK
            yield provider, tally


def provider_button(driver):
    return driver.find_element(By.XPATH, f"//main//a[normalize-space()='Sign in with {PROVIDER_NAME}']")


def test_a_new_person_signs_up_with_one_tap(tally_with_provider, browser):
    provider, tally = tally_with_provider
    provider.next_user("sub-" + secrets.token_hex(6), preferred_username="José Núñez")
    driver = browser("phone")
    driver.get(tally.base + "/signin")
    check_page(driver, "sign-in-with-provider")
    # The provider's button comes first, the password form after "or".
    main = driver.find_element(By.ID, "main").text
    assert main.index(f"Sign in with {PROVIDER_NAME}") < main.index("or") < main.index("User name")
    click(driver, provider_button(driver))
    wait(driver, lambda d: d.current_url.endswith("/onboarding"), timeout=20,
         message=lambda: f"the round trip ended at {driver.current_url}: {driver.find_element(By.TAG_NAME, 'body').text[:300]}")
    driver.get(tally.base + "/account")
    wait(driver, lambda d: f"You sign in with {PROVIDER_NAME}" in d.find_element(By.ID, "main").text)
    names = subprocess.run([str(tally_process.binary()), "user", "list", "--database", str(tally.database)],
                           capture_output=True, text=True, check=True, env=tally.env).stdout
    assert "Jose-Nunez" in names, names
    check_page(driver, "account-linked-to-provider")


def test_a_person_with_a_password_links_the_provider_and_signs_in_with_it(tally_with_provider, browser):
    provider, tally = tally_with_provider
    provider.next_user("sub-" + secrets.token_hex(6), preferred_username="someone-else")
    driver = browser("phone")
    driver.get(tally.base + "/signin")
    fill(driver, "#name", ADMIN[0])
    fill(driver, "#password", ADMIN[1])
    click(driver, driver.find_element(By.XPATH, "//main//button[normalize-space()='Sign in']"))
    wait(driver, lambda d: d.current_url.rstrip("/") == tally.base, timeout=20)
    driver.get(tally.base + "/account")
    click(driver, driver.find_element(By.XPATH, f"//button[normalize-space()='Link {PROVIDER_NAME}']"))
    wait(driver, lambda d: f"You sign in with {PROVIDER_NAME}" in d.find_element(By.ID, "main").text, timeout=20,
         message=lambda: f"linking ended at {driver.current_url}: {driver.find_element(By.TAG_NAME, 'body').text[:300]}")
    # Signed out, the provider signs the same account in: not a new "someone-else".
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Sign out']"))
    wait(driver, lambda d: "/signin" in d.current_url)
    click(driver, provider_button(driver))
    wait(driver, lambda d: d.current_url.rstrip("/") == tally.base, timeout=20)
    driver.get(tally.base + "/account")
    assert f"You sign in with {PROVIDER_NAME}" in driver.find_element(By.ID, "main").text
    assert "someone-else" not in driver.page_source
