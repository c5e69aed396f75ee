"""The account page and the admin's page, at the phone size, with and without JavaScript: each
passes the page checks, and what they make (a token, an invite) works."""

import re
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import ADMIN
from test_web import check_page, click, fill, sign_up, wait


def sign_in(driver, server, name, password):
    driver.get(server + "/signin")
    fill(driver, "#name", name)
    fill(driver, "#password", password)
    click(driver, driver.find_element(By.XPATH, "//main//button[normalize-space()='Sign in']"))
    wait(driver, lambda d: d.current_url.rstrip("/") == server, timeout=20, message="sign-in did not lead to today")


def message(driver):
    # Read inside the wait: the page may be replaced between finding the message and reading it.
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main .message:not([hidden])").text)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_account_page_makes_a_token_that_works(server, browser, unique_name, javascript):
    driver = browser("phone" if javascript else "desktop", javascript=javascript)
    sign_up(driver, server, unique_name)
    driver.get(server + "/settings")
    click(driver, driver.find_element(By.CSS_SELECTOR, "a[href='/account']"))
    wait(driver, lambda d: d.current_url.endswith("/account"))
    assert "(this browser)" in driver.find_element(By.ID, "main").text
    check_page(driver, f"account-{'js' if javascript else 'nojs'}")
    fill(driver, "#token-name", "phone script")
    fill(driver, "#token-days", "30")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Create a token']"))
    secret = wait(driver, lambda d: re.search(r"tally_[A-Za-z0-9_-]{40,}", d.find_element(By.ID, "main").text)).group(0)
    assert "expires" in driver.find_element(By.ID, "main").text
    request = urllib.request.Request(server + "/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert unique_name in answer.read().decode()
    # A wrong current password is refused at the page, and nothing changes.
    fill(driver, "#current-password", "not my password")
    fill(driver, "#new-password", "a brand new password")
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Change password']"))
    assert "current password is wrong" in message(driver)


def test_admin_page_is_the_admins_only(server, browser, unique_name):
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    driver.get(server + "/admin")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Not found"

    admin = browser("phone")
    sign_in(admin, server, *ADMIN)
    admin.get(server + "/account")
    click(admin, admin.find_element(By.LINK_TEXT, "Server administration"))
    wait(admin, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Server administration")
    check_page(admin, "admin")
    click(admin, admin.find_element(By.XPATH, "//button[normalize-space()='Create an invite']"))
    link = wait(admin, lambda d: d.find_element(By.CSS_SELECTOR, "a.invite-link")).get_attribute("href")
    assert "/signup?invite=" in link
    check_page(admin, "admin-invite")

    def mode(choice):
        click(admin, admin.find_element(By.ID, f"mode-{choice}"))
        click(admin, admin.find_element(By.XPATH, "//button[normalize-space()='Save']"))
        # The page before says what the last change did: wait for this change's own words.
        said = f"Sign-up is now {'by invite' if choice == 'invite' else choice}."
        wait(admin, lambda d: said in d.find_element(By.CSS_SELECTOR, "main .message:not([hidden])").text,
             message=lambda: f"the admin page did not say {said!r}")

    # By invite, the invite link fills in its code on the sign-up page of someone new.
    mode("invite")
    try:
        stranger = browser("phone")
        stranger.get(link)
        assert stranger.find_element(By.ID, "invite").get_attribute("value") == link.split("invite=")[1]
        check_page(stranger, "signup-by-invite")
    finally:
        mode("open")  # the other tests sign people up
