"""Text at 200 % on a phone (WCAG 1.4.4 and 1.4.10): every page reflows into the window, none
scrolls sideways, the header included."""

from conftest import screenshot
from test_spending import load
from test_web import sign_up

PAGES = ["/", "/history", "/settings", "/settings/reminders", "/settings/your-data", "/spending", "/bottle", "/account"]


def overflowing(driver):
    """The elements that reach past the window's right edge, as "tag.class" names."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll("body *")]
            .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > width + 1; })
            .filter(e => !e.closest(".visually-hidden"))
            .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " " + (e.textContent || "").trim().slice(0, 20));""")


def test_pages_reflow_at_200_percent_text(server, browser, unique_name):
    driver = browser("phone")
    sign_up(driver, server, unique_name)
    for page in PAGES:
        load(driver, server + page)
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        wide = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert wide <= 1 and not overflowing(driver), f"{page} scrolls sideways by {wide}px: {overflowing(driver)}"
        screenshot(driver, "phone-text-200" + (page.replace("/", "-") if page != "/" else "-today"), full=False)
