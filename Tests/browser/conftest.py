"""Fixtures of the browser tests: one `tally serve` for the session, and Chromium drivers.

Nothing is built here: the tests use the binary that TALLY_BIN names (scripts/test sets it to the
debug build's `tally`), by default .build/debug/tally of this repository.

Every driver records the Content-Security-Policy violations of every page it opens, and a test
fails when any happened (see `csp_violations`): the server's policy allows no inline script or
style, and nothing may need it. In the same way, axe-core checks every page a driver opens against
the WCAG 2.1 A and AA rules, and a test fails on any violation (see `axe_violations`).
"""

import base64
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import axe_selenium_python
import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webelement import WebElement

# Tests/support: the built tally and `tally serve`, shared with Tests/contract.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

IPHONE_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
             "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")

# The two ways the web app is used: a desktop window and a phone (iPhone 12–15 size).
VIEWPORTS = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The base URL of a `tally serve` on a fresh database; stopped with SIGTERM at the end."""
    folder = tmp_path_factory.mktemp("tally")
    # The push test's push service runs on 127.0.0.1, which a real server never posts to.
    environment = tally_process.environment(TALLY_TEST_PUSH_TO_LOOPBACK="1")
    # The server's admin comes first (ADMIN, for the admin page's tests); then sign-up is open,
    # since the tests sign many people up through the pages.
    database = str(folder / "t.sqlite")
    tally = str(tally_process.binary())
    subprocess.run([tally, "user", "create", ADMIN[0], "--database", database], input=ADMIN[1] + "\n",
                   text=True, check=True, capture_output=True, env=environment)
    subprocess.run([tally, "server", "signup", "open", "--database", database],
                   check=True, capture_output=True, env=environment)
    with tally_process.serve(database, folder / "serve.log", environment) as base:
        yield base


# The first account of the tests' server: its admin (name, password).
ADMIN = ("admin", "correct horse admin")

_names = itertools.count(1)


@pytest.fixture
def unique_name(request):
    """A user name no other test uses (3–32 of [A-Za-z0-9._-])."""
    return f"u{os.getpid() % 10000}-{next(_names)}-{request.node.callspec.id if hasattr(request.node, 'callspec') else 'x'}"[:32]


# Runs before any script of each page: reports each violation on the console, where chromedriver
# keeps it across navigations. Chrome's own console line says less (no sample), and is all there
# is for pages without JavaScript, so both are read.
CSP_MARK = "tally-csp-violation "
CSP_LISTENER = """
(() => {
  const report = console.error.bind(console);
  document.addEventListener("securitypolicyviolation", (event) => report("%s" + JSON.stringify({
    page: event.documentURI, directive: event.effectiveDirective, blocked: event.blockedURI,
    sample: event.sample, source: event.sourceFile, line: event.lineNumber,
  })));
})();
""" % CSP_MARK


# axe-core, as the axe-selenium-python package bundles it.
AXE_SOURCE = (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()
AXE_MARK = "tally-axe-violation "
# axe runs in an isolated world, where the page's Content-Security-Policy does not forbid the
# `new Function` axe needs, and nothing axe defines meets the page's own script. With JavaScript
# off, timers never fire, so axe's pauses between rules become promise callbacks: the check is
# then one task, over a page that cannot change under it.
AXE_SETUP = AXE_SOURCE + """;
window.setTimeout = (callback, delay, ...values) => { Promise.resolve().then(() => callback(...values)); return 0; };
window.clearTimeout = () => {};
"""
# Runs axe on the document as it is and resolves to its violations as a JSON string: an empty
# list for what is not one of the server's HTML pages (a driver's blank page, a JSON answer).
AXE_RUN = """(() => {
  if (!location.protocol.startsWith("http") || document.contentType !== "text/html") return Promise.resolve("[]");
  // The WCAG 2.1 A and AA rules, and axe's best practices where their finding is critical; an
  // older axe, which lacks some of these tags, refuses unknown ones.
  const wanted = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
  const tags = wanted.filter((tag) => axe.getRules().some((rule) => rule.tags.includes(tag)));
  const page = {
    url: location.href, title: document.title,
    scheme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light", width: innerWidth,
  };
  return axe.run(document, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
    // The contrast rule scrolls to each text it measures: put the page back where the test had it.
    restoreScroll: true,
  })
    .then((results) => JSON.stringify(results.violations
      .filter((violation) => violation.tags.some((tag) => tag.startsWith("wcag")) || violation.impact === "critical")
      .flatMap((violation) => violation.nodes.map((node) => ({
      ...page, rule: violation.id, impact: node.impact || violation.impact, help: violation.help,
      element: node.target.join(" "), html: node.html.slice(0, 200),
      why: (node.failureSummary || "").replace(/\\s+/g, " ").slice(0, 300),
    })))));
})()"""
# Checks each document once it has loaded, with nothing to remember in the tests, and reports
# on the console, as the CSP listener does. Pages without JavaScript fire no load event for it:
# `_check_each_new_document` covers those.
AXE_ON_LOAD = AXE_SETUP + """
window.addEventListener("load", () => %s.then((found) => {
  if (found !== "[]") console.error("%s" + found);
}));
""" % (AXE_RUN, AXE_MARK)


def _read_console(driver):
    """Moves what the CSP listener and axe reported since the last read from the browser's
    console (reading empties it) to the driver's own lists."""
    csp = driver.__dict__.setdefault("csp_seen", [])
    driver.__dict__.setdefault("axe_seen", {})
    for entry in driver.get_log("browser"):
        message = entry.get("message", "")
        for mark in (CSP_MARK, AXE_MARK):
            if mark in message:
                # The console line is the message as a JSON string literal: 'url line:col "text"'.
                literal = message[message.index('"'):]
                try:
                    text = json.loads(literal)
                except ValueError:
                    text = literal.strip('"').replace('\\"', '"')
                report = json.loads(text[text.index(mark) + len(mark):])
                if mark == CSP_MARK:
                    where = f" at {report['source']}:{report['line']}" if report.get("source") else ""
                    csp.append(f"{report['page']}: {report['directive']} blocked {report['blocked'] or '?'}"
                               f" (sample {report['sample']!r}){where}")
                else:
                    _keep_axe(driver, report)
                break
        else:
            if "Content Security Policy" in message:
                csp.append(f"(Chrome's console) {message}")


def _keep_axe(driver, found):
    """Keeps axe's findings on the driver, each (page, colour scheme, rule, element) once."""
    seen = driver.__dict__.setdefault("axe_seen", {})
    for v in found:
        key = (v["url"], v["scheme"], v["rule"], v["element"], v["why"])
        seen.setdefault(key, f"{v['url']} \u201c{v['title']}\u201d ({v['scheme']}, {v['width']} px wide): "
                             f"{v['rule']} ({v['impact']}: {v['help']}) at {v['element']}: {v['html']}"
                             + (f"\n      {v['why']}" if v["why"] else ""))


def csp_violations(driver):
    """The violations reported since the driver opened, as sentences naming the page, the
    directive and what was blocked. What is read from the log is kept on the driver."""
    _read_console(driver)
    return list(driver.csp_seen)


def axe_check(driver):
    """Runs axe on the current document as it is now (any state a test reaches: a dialog open,
    a refusal shown, dark mode) and keeps what it finds with the rest of the driver's findings."""
    frame = driver.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
    world = driver.execute_cdp_cmd("Page.createIsolatedWorld", {"frameId": frame, "worldName": "tally-axe"})
    result = driver.execute_cdp_cmd("Runtime.evaluate", {
        "expression": AXE_SETUP + AXE_RUN, "contextId": world["executionContextId"], "awaitPromise": True, "returnByValue": True})
    if "exceptionDetails" in result:
        raise AssertionError(f"axe failed on {driver.current_url}: {result['exceptionDetails']}")
    _keep_axe(driver, json.loads(result["result"]["value"]))


def axe_violations(driver):
    """axe's findings on every page the driver opened, as sentences naming the page (address,
    title, colour scheme, width), the rule, its impact, and the element (selector and HTML)."""
    _read_console(driver)
    return list(driver.axe_seen.values())


# The commands that may leave the current document (a click or an Enter may submit a form).
_LEAVING = {"get", "refresh", "goBack", "goForward", "clickElement", "sendKeysToElement"}
_FIRST_LOOK = """
    if (window.__tallyAxeChecked || document.readyState !== "complete") return false;
    return window.__tallyAxeChecked = true;"""


def _check_each_new_document(driver):
    """For a driver without JavaScript, whose pages fire no load event for axe: checks each
    document once, before any command that may leave it, and (`check_last_document`) the one a
    test ends on. WebDriver's own scripts still run there, and mark a document as checked."""
    execute = driver.execute

    def check_once():
        if execute("w3cExecuteScript", {"script": _FIRST_LOOK, "args": []})["value"]:
            axe_check(driver)

    def checked_first(command, params=None):
        if command in _LEAVING:
            check_once()
        return execute(command, params)

    driver.execute = checked_first
    driver.check_last_document = check_once


def _click_in_sight(element):
    """A tap where a person would tap: on a phone the sections are a tab bar fixed at the bottom,
    and chromedriver scrolls a target only to the viewport's edge, under the bar. A person
    scrolls it into sight first; so does every click of the tests. An action folded into a row of
    a ledger's history is reached by a tap on the row first."""
    driver = element.parent
    # A page without JavaScript is checked before a click may leave it, and axe's run scrolls:
    # the check comes first, then the scroll.
    if hasattr(driver, "check_last_document"):
        driver.check_last_document()
    # What is folded in a history row opens with a tap on the row, as a person opens it.
    row = driver.execute_script(
        "const row = arguments[0].closest('details.entry:not([open])'); "
        "return row && !arguments[0].closest('summary') ? row.querySelector('summary') : null", element)
    if row is not None:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", row)
        _native_click(row)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    _native_click(element)


_native_click = WebElement.click
WebElement.click = _click_in_sight


def make_driver(viewport, javascript=True, language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--lang={language}", "--hide-scrollbars"):
        options.add_argument(argument)
    prefs = {"intl.accept_languages": language}
    size = VIEWPORTS[viewport]
    if viewport == "phone":
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": size["width"], "height": size["height"], "pixelRatio": 3.0, "touch": True},
            "userAgent": IPHONE_UA,
        })
    else:
        options.add_argument(f"--window-size={size['width']},{size['height']}")
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_LISTENER})
    if javascript:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AXE_ON_LOAD, "worldName": "tally-axe"})
    else:
        _check_each_new_document(driver)
    driver.set_page_load_timeout(20)
    driver.command_executor.client_config.timeout = 30  # a stuck command fails in 30 s, not 3 × 120 s
    if viewport == "desktop":
        # --window-size is the outer window: grow it so that the page gets 1280×900.
        driver.get("data:text/html,<title>size</title>")
        inner = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssLayoutViewport"]
        driver.set_window_size(2 * size["width"] - inner["clientWidth"], 2 * size["height"] - inner["clientHeight"])
    return driver


@pytest.fixture
def browser():
    """Opens Chromium drivers (make(viewport, javascript=True, language="en-US")); quits them all after the test,
    and fails the test if any page of any of them violated the Content-Security-Policy or
    broke a WCAG 2.1 A or AA rule that axe checks."""
    drivers = []

    def make(viewport, javascript=True, language="en-US"):
        driver = make_driver(viewport, javascript, language)
        drivers.append(driver)
        return driver

    yield make
    violations, inaccessible = [], []
    for driver in drivers:
        try:
            if hasattr(driver, "check_last_document"):
                driver.check_last_document()
            violations += csp_violations(driver)
            inaccessible += axe_violations(driver)
        except WebDriverException:
            pass  # a browser that died has failed the test already
        finally:
            driver.quit()
    failures = []
    if violations:
        failures.append("Content-Security-Policy violations:\n  " + "\n  ".join(dict.fromkeys(violations)))
    if inaccessible:
        failures.append("Accessibility violations (axe-core, WCAG 2.1 A and AA):\n  "
                        + "\n  ".join(dict.fromkeys(inaccessible)))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


def screenshot(driver, name, full=True):
    """Saves the whole page as Tests/browser/screenshots/NAME.png; with full=False only what the
    viewport shows (a modal dialog's backdrop covers the viewport, not the whole page)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    if not full:
        path = SCREENSHOTS / f"{name}.png"
        driver.save_screenshot(str(path))
        return path
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    content = metrics.get("cssContentSize") or metrics["contentSize"]
    viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
    width = max(content["width"], viewport["clientWidth"])
    height = max(content["height"], viewport["clientHeight"])
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
    })
    path = SCREENSHOTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path
