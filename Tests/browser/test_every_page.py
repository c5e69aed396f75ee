"""Every page the web app serves, through the page checks and axe-core (see conftest), as a new
user, as the admin and signed out. The pages are the web controllers' `.get(SitePath.name, ...)`
routes, read from their source with the patterns of SitePath.swift, so that a page added later is
checked without anyone listing it here."""

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import ADMIN
from test_account import sign_in
from test_spending import button, create_ledger, load, without_javascript
from test_web import browser_today, check_page, click, dark, fill, sign_up, wait

CONTROLLERS = Path(__file__).resolve().parents[2] / "Sources" / "TallyServer" / "Web"
ROUTE = re.compile(r'\b\w+\.get\(SitePath\.(\w+)\b')
PATTERN = re.compile(r'static let (\w+) = Pattern<[^>]*>\("([^"]*)"\)')


def web_pages():
    """The paths of the web app's GET routes, with `:name` parameters; downloads (a path ending
    in an extension, such as export.csv) are files, not pages."""
    patterns = dict(PATTERN.findall((CONTROLLERS / "SitePath.swift").read_text()))
    paths = [patterns[name] for controller in sorted(CONTROLLERS.glob("*Controller.swift"))
             for name in ROUTE.findall(controller.read_text())]
    return ["/" + path.lstrip("/") for path in paths if not re.search(r"\.\w+$", path)]


def settings_sections():
    """The settings' sections, each a page (/settings/:section), as SettingsSection lists them."""
    source = (CONTROLLERS / "Pages" / "SettingsPages.swift").read_text()
    cases = source.split("enum SettingsSection", 1)[1].split("var description", 1)[0]
    return [raw or name for name, raw in re.findall(r'case (\w+)(?: = "([\w-]+)")?', cases)]


def test_the_page_list_comes_from_the_router():
    pages = web_pages()
    for known in ["/", "/history", "/signin", "/spending/:ledger/settings", "/join/:code", "/admin", "/settings/:section"]:
        assert known in pages, f"{known} is not among the routes read from the controllers: {pages}"
    assert settings_sections()[:3] == ["profile", "goal", "unit-zone"], settings_sections()


def fill_in(path, values):
    """The addresses of `path` with `values` for its parameters; a list of values gives one each."""
    names = re.findall(r":(\w+)", path)
    for name in names:
        if name not in values:
            pytest.fail(f"{path}: no value for :{name}; give this test one", pytrace=False)
    for name in names:
        choices = values[name] if isinstance(values[name], list) else [values[name]]
        return [address for choice in choices for address in fill_in(path.replace(":" + name, choice, 1), values)]
    return [path]


@pytest.mark.parametrize("viewport,scheme,javascript", [
    ("phone", "dark", True), ("desktop", "light", True), ("phone", "light", False)],
    ids=["phone-dark", "desktop-light", "phone-nojs"])
def test_every_page_passes_the_checks(server, browser, unique_name, viewport, scheme, javascript):
    driver = browser(viewport) if javascript else without_javascript(browser, viewport)
    dark(driver, scheme == "dark")

    # A ledger with an open invite, for the pages that need one.
    sign_up(driver, server, unique_name)
    load(driver, server + "/spending")
    ledger = create_ledger(driver, "Flat")
    # An expense, for the pages of an entry.
    fill(driver, "#amount", "12.50")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button.add"))
    edit = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "a.edit"))
    entry = re.search(r"/entries/([0-9A-Fa-f-]{36})/edit", edit.get_attribute("href")).group(1)
    load(driver, ledger + "/settings")
    click(driver, button(driver, "Create an invite"))
    code = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "strong.code")).text.strip()
    values = {"ledger": ledger.rsplit("/", 1)[1], "id": entry, "code": code, "date": browser_today(driver).isoformat(), "button": "1",
              "section": settings_sections()}
    routes = web_pages() + ["/no-such-page"]

    def visit_all(who):
        for route in routes:
            for address in fill_in(route, values):
                load(driver, server + address)
                slug = route.strip("/").replace("/", "-").replace(":", "") or "today"
                if ":section" in route:
                    slug = address.strip("/").replace("/", "-")
                check_page(driver, f"every-{viewport}-{scheme}{'' if javascript else '-nojs'}-{who}-{slug}")

    visit_all("user")
    driver.delete_all_cookies()
    sign_in(driver, server, *ADMIN)
    visit_all("admin")
    driver.delete_all_cookies()
    visit_all("nobody")
