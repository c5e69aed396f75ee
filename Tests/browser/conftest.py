"""Fixtures of the browser tests: one `tally serve` for the session, and Chromium drivers.

Nothing is built here: the tests use the binary that TALLY_BIN names (scripts/test sets it to the
debug build's `tally`), by default .build/debug/tally of this repository.

Every driver records the Content-Security-Policy violations of every page it opens, and a test
fails when any happened (see `csp_violations`): the server's policy allows no inline script or
style, and nothing may need it.
"""

import base64
import itertools
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

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


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The base URL of a `tally serve` on a fresh database; stopped with SIGTERM at the end."""
    binary = Path(os.environ.get("TALLY_BIN", REPO / ".build" / "debug" / "tally"))
    if not binary.is_absolute():
        binary = REPO / binary
    if not binary.exists():
        pytest.fail(f"{binary} does not exist: build Tally first (swift build), or set TALLY_BIN.")
    folder = tmp_path_factory.mktemp("tally")
    port = _free_port()
    log = open(folder / "serve.log", "wb")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TALLY_")}
    # The push test's push service runs on 127.0.0.1, which a real server never posts to.
    environment["TALLY_TEST_PUSH_TO_LOOPBACK"] = "1"
    # The server's admin comes first (ADMIN, for the admin page's tests); then sign-up is open,
    # since the tests sign many people up through the pages.
    database = str(folder / "t.sqlite")
    subprocess.run([str(binary), "user", "create", ADMIN[0], "--database", database], input=ADMIN[1] + "\n",
                   text=True, check=True, capture_output=True, env=environment)
    subprocess.run([str(binary), "server", "signup", "open", "--database", database],
                   check=True, capture_output=True, env=environment)
    process = subprocess.Popen(
        [str(binary), "serve", "--host", "127.0.0.1", "--port", str(port), "--database", str(folder / "t.sqlite")],
        stdout=log, stderr=subprocess.STDOUT, env=environment)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            pytest.fail(f"tally serve exited with {process.returncode}:\n{(folder / 'serve.log').read_text()}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"tally serve did not answer /health within 30 s:\n{(folder / 'serve.log').read_text()}")
        time.sleep(0.1)
    yield base
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("tally serve did not stop within 15 s of SIGTERM")
    log.close()
    assert code == 0, f"tally serve exited with {code} on SIGTERM:\n{(folder / 'serve.log').read_text()}"


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


def csp_violations(driver):
    """The violations reported since the driver opened, as sentences naming the page, the
    directive and what was blocked. Reading the log empties it: what is read is kept on the driver."""
    seen = driver.__dict__.setdefault("csp_seen", [])
    for entry in driver.get_log("browser"):
        message = entry.get("message", "")
        if CSP_MARK in message:
            # The console line is the message as a JSON string literal: 'url line:col "text"'.
            literal = message[message.index('"'):]
            try:
                text = json.loads(literal)
            except ValueError:
                text = literal.strip('"').replace('\\"', '"')
            report = json.loads(text[text.index(CSP_MARK) + len(CSP_MARK):])
            where = f" at {report['source']}:{report['line']}" if report.get("source") else ""
            seen.append(f"{report['page']}: {report['directive']} blocked {report['blocked'] or '?'}"
                        f" (sample {report['sample']!r}){where}")
        elif "Content Security Policy" in message:
            seen.append(f"(Chrome's console) {message}")
    return list(seen)


def make_driver(viewport, javascript=True):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", "--lang=en-US", "--hide-scrollbars"):
        options.add_argument(argument)
    size = VIEWPORTS[viewport]
    if viewport == "phone":
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": size["width"], "height": size["height"], "pixelRatio": 3.0, "touch": True},
            "userAgent": IPHONE_UA,
        })
    else:
        options.add_argument(f"--window-size={size['width']},{size['height']}")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_LISTENER})
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
    """Opens Chromium drivers (make(viewport, javascript=True)); quits them all after the test,
    and fails the test if any page of any of them violated the Content-Security-Policy."""
    drivers = []

    def make(viewport, javascript=True):
        driver = make_driver(viewport, javascript)
        drivers.append(driver)
        return driver

    yield make
    violations = []
    for driver in drivers:
        try:
            violations += csp_violations(driver)
        except WebDriverException:
            pass  # a browser that died has failed the test already
        finally:
            driver.quit()
    if violations:
        pytest.fail("Content-Security-Policy violations:\n  " + "\n  ".join(dict.fromkeys(violations)), pytrace=False)


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
