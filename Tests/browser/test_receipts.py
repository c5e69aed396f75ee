"""Receipts on a phone: a photo taken with the quick entry goes with the expense (the camera input
opens the camera: accept="image/*" capture), the history row shows a small copy with the
description as its text, the entry's page shows the photo with the whole of it one tap away,
replaces it at once when another is chosen, refuses a file that only claims to be a photo at its
field, and removes it. What the browser gets carries no EXIF.
Screenshots: phone-ledger-receipt.png, phone-entry-receipt.png (look at them).
"""

from pathlib import Path

from selenium.webdriver.common.by import By

from test_spending import create_ledger, fill, history, load, mark, same_page
from test_web import check_page, click, sign_up, wait

RECEIPTS = Path(__file__).resolve().parent.parent / "TallyServerTests" / "Fixtures" / "Receipts"


def fetched(driver, url):
    """GETs `url` from the page: its status, type, disposition and whether its bytes hold EXIF."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], { credentials: "same-origin" }).then(async (r) => {
          const bytes = new Uint8Array(await r.arrayBuffer());
          const text = new TextDecoder("latin1").decode(bytes);
          done({ status: r.status, type: r.headers.get("Content-Type"), disposition: r.headers.get("Content-Disposition"),
                 policy: r.headers.get("Content-Security-Policy"), exif: text.includes("Exif") || text.includes("TallyCam"),
                 size: bytes.length });
        }, (e) => done({ status: String(e) }));""", url)


def loaded(driver, image):
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)


def test_a_photo_taken_with_the_expense_shows_in_its_row_and_on_its_page(server, browser, unique_name, tmp_path):
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    load(driver, server + "/spending")
    ledger_url = create_ledger(driver, "Flat")

    # The quick entry's camera opens the camera on a phone.
    camera = driver.find_element(By.ID, "add-receipt")
    assert camera.get_attribute("accept") == "image/*"
    assert camera.get_attribute("capture") == "environment"
    label = driver.find_element(By.CSS_SELECTOR, 'label[for="add-receipt"]')
    assert label.is_displayed() and label.size["height"] >= 44, "the camera is no finger-sized button"

    # act: a photo is taken, then the expense added
    before = len(history(driver))
    mark(driver)
    fill(driver, "#amount", "12.50")
    fill(driver, "#description", "Lunch at Cafe\u0301 <b>")
    camera.send_keys(str(RECEIPTS / "gps.jpg"))
    wait(driver, lambda d: "chosen" in d.find_element(By.CSS_SELECTOR, 'label[for="add-receipt"]').get_attribute("class"),
         message="the camera did not show that a photo waits")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    wait(driver, lambda d: len(history(d)) == before + 1, timeout=15,
         message=lambda: "the expense was not added: " + driver.find_element(By.TAG_NAME, "main").text[:600])
    assert same_page(driver), "the page was loaded again instead of swapped"

    # check: the row's small copy, with the description as its text
    thumb = driver.find_element(By.CSS_SELECTOR, ".ledger-entries li img.receipt-thumb")
    # The description as it is kept (composed), markup as text.
    assert thumb.get_attribute("alt") == "Receipt: Lunch at Caf\u00e9 <b>"
    wait(driver, lambda d: loaded(d, thumb), message="the row's small copy did not load")
    shown = fetched(driver, thumb.get_attribute("src"))
    assert shown["status"] == 200 and shown["type"] == "image/jpeg" and not shown["exif"], shown
    check_page(driver, "phone-ledger-receipt")

    # act: the entry's page
    entry_url = driver.find_element(By.CSS_SELECTOR, ".ledger-entries li a.edit").get_attribute("href")
    load(driver, entry_url)
    photo = driver.find_element(By.CSS_SELECTOR, ".card.receipt img.receipt-photo")
    wait(driver, lambda d: loaded(d, photo), message="the receipt did not load")
    whole = driver.find_element(By.CSS_SELECTOR, ".card.receipt a.receipt-link").get_attribute("href")
    served = fetched(driver, whole)
    assert served["status"] == 200 and served["type"] == "image/jpeg" and not served["exif"], served
    assert served["disposition"].startswith("inline") and served["policy"].startswith("sandbox"), served
    assert served["size"] > fetched(driver, photo.get_attribute("src"))["size"], "the whole photo is no bigger than its small copy"
    check_page(driver, "phone-entry-receipt")

    # act: another photo chosen replaces it at once (no second tap)
    driver.find_element(By.ID, "receipt").send_keys(str(RECEIPTS / "note.png"))
    wait(driver, lambda d: fetched(d, whole)["type"] == "image/png", timeout=15, message="the PNG did not replace the photo")

    # act: a page sent as a photo is refused at the field, and the receipt stays
    disguised = tmp_path / "receipt.jpg"
    disguised.write_text("<html><script>alert(1)</script></html>")
    load(driver, entry_url)
    driver.find_element(By.ID, "receipt").send_keys(str(disguised))
    wait(driver, lambda d: d.find_element(By.ID, "receipt-error").text != "", timeout=15, message="the disguised file was not refused")
    assert "JPEG, PNG, WebP or HEIC" in driver.find_element(By.ID, "receipt-error").text
    assert driver.find_element(By.ID, "receipt").get_attribute("aria-invalid") == "true"
    assert fetched(driver, whole)["type"] == "image/png"

    # act: removed, after a question
    click(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Remove the receipt']"))
    driver.switch_to.alert.accept()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".card.receipt img"), timeout=15, message="the receipt was not removed")
    assert fetched(driver, whole)["status"] == 404
    load(driver, ledger_url)
    assert not driver.find_elements(By.CSS_SELECTOR, ".ledger-entries img.receipt-thumb")
