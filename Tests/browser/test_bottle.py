"""The water bottle (H10) in a real browser, at a desktop and a phone viewport.

A new person opens the bottle from the Today page: a full 1000 ml bottle, drawn full. Three taps
on the bottle sip 3 × 30 ml (the level drops, in the text and in the drawing, and Today counts the
90 ml); the slider sets the level to 20 ml (its output follows the slider; nothing is logged); the
last sip takes the 20 ml that are left; a sip from the empty bottle is refused (HTTP 409) with its
message and logs nothing; "Fill it up" refills it; the capacity is changed in the settings, and an
impossible one is refused. Then the same sips without JavaScript, through plain forms. Every
bottle page visited goes through test_web's accessibility and sideways-overflow check, with a
screenshot into Tests/browser/screenshots/ ({desktop,phone}-bottle-*.png: look at them). The last
tests are bugs found here, kept so that they stay fixed.
"""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from conftest import screenshot
from test_spending import button, load, mark, on_screen, same_page, without_javascript
from test_web import check_page, click, dark, fill, sign_up, text, wait

EMPTY = "The bottle is empty: refill it (or set its level) before the next sip."
TOO_BIG = "A bottle holds at most 5000 ml."
# The drawing: viewBox 0 0 120 260, the water from y = 250 (empty) up to y = 50 (full).
TOP, BOTTOM, VIEW_HEIGHT = 50.0, 250.0, 260.0


# ---------------------------------------------------------------------------------------------
# Helpers


def left(driver):
    """What the page says is left ("970 ml left of 1000 ml")."""
    return " ".join(text(driver, "#left").split())


def wait_left(driver, expected):
    try:
        wait(driver, lambda d: left(d) == expected)
    except Exception:
        raise AssertionError(f"the page says {left(driver)!r}, not {expected!r}")


def assert_drawn(driver, fraction):
    """The bottle is drawn `fraction` full: its data-fraction, the water rect's y and height, and
    where the browser really puts the water's top inside the drawing."""
    svg = driver.find_element(By.CSS_SELECTOR, "button.bottle-tap svg.bottle")
    assert svg.get_dom_attribute("viewBox") == "0 0 120 260"
    assert svg.get_dom_attribute("data-fraction") == f"{fraction:.4f}", \
        f"data-fraction is {svg.get_dom_attribute('data-fraction')!r}, not {fraction:.4f}"
    water = svg.find_element(By.CSS_SELECTOR, "rect.water")
    y, height = float(water.get_dom_attribute("y")), float(water.get_dom_attribute("height"))
    expected = BOTTOM - fraction * (BOTTOM - TOP)
    assert y == pytest.approx(expected, abs=0.01), f"the water's top is at y = {y}, not {expected}"
    assert y + height >= BOTTOM, f"the water (y {y}, height {height}) does not reach the bottom"
    # The rendered drawing: the water's top, in viewBox units, where the attribute says (no CSS
    # or transition moving it elsewhere).
    shown = driver.execute_script("""
        const svg = arguments[0].getBoundingClientRect(), water = arguments[1].getBoundingClientRect();
        return (water.top - svg.top) / svg.height * arguments[2];""", svg, water, VIEW_HEIGHT)
    assert shown == pytest.approx(expected, abs=1.5), f"the water is drawn at y ≈ {shown:.1f}, not {expected}"


def tap_label(driver):
    return text(driver, "button.bottle-tap .tap-label")


def tap(driver, javascript=True):
    """One tap on the bottle: with JavaScript the form posts in the background and <main> is
    swapped (the page stays the same); without it, a plain post and redirect."""
    before = left(driver)
    if javascript:
        mark(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.bottle-tap"))
    wait(driver, lambda d: left(d) != before or d.find_elements(By.CSS_SELECTOR, "main .message.error"),
         message="the tap changed nothing on the page")
    if javascript:
        assert same_page(driver), "the sip loaded the page again instead of swapping <main>"


def today_total(driver, server):
    load(driver, server + "/")
    return text(driver, "#total")


def open_bottle(driver, server):
    """From the Today page, by its link."""
    load(driver, server + "/")
    click(driver, driver.find_element(By.LINK_TEXT, "Drink from your bottle →"))
    wait(driver, lambda d: d.current_url.endswith("/bottle"), message="the link did not lead to /bottle")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Bottle"


def set_slider(driver, ml):
    """Moves the range like a finger would: its value, then an input event."""
    slider = driver.find_element(By.ID, "level")
    driver.execute_script("""
        arguments[0].value = arguments[1];
        arguments[0].dispatchEvent(new Event("input", { bubbles: true }));""", slider, str(ml))
    return slider


def post_status(driver):
    """The HTTP status of the sip form's post, sent from the page as the form would send it."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const form = document.querySelector("form[action='/bottle/sip']");
        fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin" })
          .then((r) => done(r.status), (e) => done(String(e)));""")


# ---------------------------------------------------------------------------------------------
# With JavaScript


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_bottle(server, browser, unique_name, viewport):
    shot = lambda page: f"{viewport}-bottle-{page}"
    driver = browser(viewport)
    sign_up(driver, server, unique_name)

    # A new bottle: 1000 ml, full, 30 ml a sip.
    open_bottle(driver, server)
    assert left(driver) == "1000 ml left of 1000 ml"
    assert_drawn(driver, 1.0)
    assert tap_label(driver) == "Tap to sip 30 ml"
    slider = driver.find_element(By.ID, "level")
    assert (slider.get_attribute("type"), slider.get_attribute("name")) == ("range", "levelMl")
    # Any step, so that the slider reaches a full bottle in any unit and keeps an odd level.
    assert [slider.get_dom_attribute(a) for a in ("min", "max", "step", "value")] == ["0", "1000", "any", "1000"]
    assert text(driver, "#level-value") == "1000 ml"
    assert driver.find_element(By.ID, "capacity").get_attribute("value") == "1000"
    assert driver.find_element(By.ID, "sip-size").get_attribute("value") == "30"
    check_page(driver, shot("full"))
    dark(driver, True)
    check_page(driver, shot("full-dark"))
    dark(driver, False)

    # Three taps: 3 sips of 30 ml.
    for remaining in (970, 940, 910):
        tap(driver)
        wait_left(driver, f"{remaining} ml left of 1000 ml")
    assert_drawn(driver, 0.91)  # y = 250 − 0.91 × 200 = 68
    assert not driver.find_elements(By.CSS_SELECTOR, "main .message.error")
    check_page(driver, shot("sipped"))

    # Today counts them: 90 ml of water.
    assert today_total(driver, server) == "90 ml"

    # The slider: its output follows it; "Set the level" sets it and logs nothing.
    open_bottle(driver, server)
    set_slider(driver, 20)
    assert text(driver, "#level-value") == "20 ml", "the slider's output did not follow it"
    mark(driver)
    click(driver, button(driver, "Set the level"))
    wait_left(driver, "20 ml left of 1000 ml")
    assert same_page(driver), "setting the level loaded the page again"
    assert_drawn(driver, 0.02)
    assert driver.find_element(By.ID, "level").get_attribute("value") == "20"
    assert text(driver, "#level-value") == "20 ml"
    check_page(driver, shot("low"))

    # The last sip takes what is left: 20 ml, not 30.
    tap(driver)
    wait_left(driver, "0 ml left of 1000 ml")
    assert_drawn(driver, 0.0)
    assert tap_label(driver) == "Empty: refill it below"

    # A sip from the empty bottle is refused with its message; nothing is logged.
    tap(driver)
    wait(driver, lambda d: text(d, "main .message.error") == EMPTY,
         message="no refusal for a sip from the empty bottle")
    assert driver.find_element(By.CSS_SELECTOR, "main .message.error").is_displayed()
    assert left(driver) == "0 ml left of 1000 ml"
    assert_drawn(driver, 0.0)
    check_page(driver, shot("empty-refused"))
    top = driver.execute_script("return document.querySelector('main .message.error').getBoundingClientRect().top")
    assert top < driver.execute_script("return innerHeight"), "the refusal is below the fold"
    assert post_status(driver) == 409
    assert today_total(driver, server) == "110 ml", "the refused sip was logged (or the last one was not)"

    # "Fill it up": full again, nothing logged.
    open_bottle(driver, server)
    assert left(driver) == "0 ml left of 1000 ml"
    mark(driver)
    click(driver, button(driver, "Fill it up"))
    wait_left(driver, "1000 ml left of 1000 ml")
    assert same_page(driver)
    assert_drawn(driver, 1.0)
    assert tap_label(driver) == "Tap to sip 30 ml"

    # The settings: a 500 ml bottle keeps what fits in it.
    fill(driver, "#capacity", "500")
    click(driver, button(driver, "Save"))
    wait_left(driver, "500 ml left of 500 ml")
    assert_drawn(driver, 1.0)
    assert float(driver.find_element(By.ID, "level").get_dom_attribute("max")) == 500
    assert driver.find_element(By.ID, "capacity").get_attribute("value") == "500"

    # An impossible capacity is refused with its message; the bottle stays as it was.
    fill(driver, "#capacity", "6000")
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main .message.error"), message="6000 ml was not refused")
    assert text(driver, "main .message.error") == TOO_BIG
    assert left(driver) == "500 ml left of 500 ml"
    check_page(driver, shot("capacity-refused"))
    load(driver, server + "/bottle")
    assert left(driver) == "500 ml left of 500 ml"
    assert today_total(driver, server) == "110 ml"


# ---------------------------------------------------------------------------------------------
# Without JavaScript: plain forms


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_bottle_without_javascript(server, browser, unique_name, viewport):
    shot = lambda page: f"{viewport}-bottle-nojs-{page}"
    driver = without_javascript(browser, viewport)
    sign_up(driver, server, unique_name)
    open_bottle(driver, server)
    assert left(driver) == "1000 ml left of 1000 ml"

    # A sip through the form: a post and a redirect back to the bottle.
    tap(driver, javascript=False)
    wait_left(driver, "970 ml left of 1000 ml")
    assert driver.current_url.endswith("/bottle")
    assert_drawn(driver, 0.97)
    check_page(driver, shot("sipped"))

    # The slider's form sets the level (its value as the form sends it); a sip empties it.
    set_slider(driver, 20)
    click(driver, button(driver, "Set the level"))
    wait_left(driver, "20 ml left of 1000 ml")
    tap(driver, javascript=False)
    wait_left(driver, "0 ml left of 1000 ml")

    # The empty bottle refuses, with its message, and nothing is logged.
    tap(driver, javascript=False)
    wait(driver, lambda d: text(d, "main .message.error") == EMPTY, message="no refusal without JavaScript")
    assert left(driver) == "0 ml left of 1000 ml"
    assert_drawn(driver, 0.0)
    check_page(driver, shot("empty-refused"))
    assert today_total(driver, server) == "50 ml"


# ---------------------------------------------------------------------------------------------
# Bugs these tests found once, kept so that they stay fixed.


def settled_scroll(driver):
    """scrollY once a smooth scroll has come to rest."""
    readings = [driver.execute_script("return scrollY")]

    def still(d):
        readings.append(d.execute_script("return scrollY"))
        return readings[-1] == readings[-2]
    wait(driver, still)
    return readings[-1]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_bottle_stays_under_the_finger(server, browser, unique_name, viewport):
    driver = browser(viewport)
    sign_up(driver, server, unique_name)
    open_bottle(driver, server)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, "button.bottle-tap").send_keys(Keys.ENTER)
    wait_left(driver, "970 ml left of 1000 ml")
    scrolled = settled_scroll(driver)
    screenshot(driver, f"{viewport}-bottle-after-tap", full=False)
    tap_button = driver.find_element(By.CSS_SELECTOR, "button.bottle-tap")
    assert on_screen(driver, tap_button), f"the bottle is off screen after a sip (the page scrolled by {scrolled} px)"
    assert driver.switch_to.active_element == tap_button, "the focus left the bottle: Enter cannot sip again"


def test_setting_the_level_untouched_keeps_it(server, browser, unique_name):
    # Without JavaScript (the browser snaps the range either way): each click is a whole page load.
    driver = without_javascript(browser, "desktop")
    sign_up(driver, server, unique_name)
    open_bottle(driver, server)
    fill(driver, "#sip-size", "25")
    page = driver.find_element(By.TAG_NAME, "html")
    click(driver, button(driver, "Save"))
    # The typed 25 is already in the field of this page: wait for the saved page to replace it.
    wait(driver, EC.staleness_of(page), message="the settings were not saved")
    wait(driver, lambda d: d.find_element(By.ID, "sip-size").get_attribute("value") == "25")
    tap(driver, javascript=False)
    wait_left(driver, "975 ml left of 1000 ml")
    # The page before the answer is complete too: wait for the answer to replace it.
    page = driver.find_element(By.TAG_NAME, "html")
    click(driver, button(driver, "Set the level"))
    wait(driver, EC.staleness_of(page), message="setting the level did not answer")
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert left(driver) == "975 ml left of 1000 ml", f"the untouched slider set the level to {left(driver)!r}"


def test_the_slider_reaches_full_in_ounces(server, browser, unique_name):
    driver = browser("desktop")
    sign_up(driver, server, unique_name)
    load(driver, server + "/settings/unit-zone")
    click(driver, driver.find_element(By.CSS_SELECTOR, "label[for='unit-oz']"))
    click(driver, driver.find_element(By.XPATH, "//section[@aria-labelledby='general-title']//button"))
    # The saved page, not the tapped radio of the page before it (that is checked at once).
    wait(driver, lambda d: "saved" in d.current_url and d.find_elements(By.CSS_SELECTOR, "#unit-oz:checked"))
    load(driver, server + "/bottle")
    slider = driver.find_element(By.ID, "level")
    driver.execute_script("""
        arguments[0].value = arguments[0].max;
        arguments[0].dispatchEvent(new Event("input", { bubbles: true }));""", slider)
    assert float(slider.get_property("value")) == pytest.approx(1000, abs=0.5), \
        f"the slider's right end is {slider.get_property('value')} ml (the output says {text(driver, '#level-value')!r})"


def test_refused_capacity_is_marked_at_the_field(server, browser, unique_name):
    driver = browser("desktop")
    sign_up(driver, server, unique_name)
    open_bottle(driver, server)
    fill(driver, "#capacity", "6000")
    click(driver, button(driver, "Save"))
    wait(driver, lambda d: text(d, "main .message.error") == TOO_BIG)
    capacity = driver.find_element(By.ID, "capacity")
    assert capacity.get_attribute("value") == "6000", f"the field says {capacity.get_attribute('value')!r}"
    assert capacity.get_attribute("aria-invalid") == "true"
