"""Notifications on this device (H11) in a real browser, at a desktop and a phone viewport: the
"Turn on notifications" and "Send a test reminder" buttons of Settings → Reminders, end to end
except for the browser's own push service.

Headless Chromium cannot reach Google's push service, so the page's PushManager is stubbed
(before any page loads, through DevTools): subscribe() records what it was asked for and answers
with a subscription shaped like a real one, whose endpoint is a little HTTP server of this test on
127.0.0.1 and whose keys are a real P-256 key pair and auth secret made here. Everything else is
real: the permission prompt (granted through DevTools), the service worker's registration, the
server's VAPID key, the subscription posted to the API, and the server's push request, which this
test reads as a push service would: the VAPID header (its JWT verified against the key the page
subscribed with), aes128gcm, a TTL, and a body that decrypts with the subscription's private key
(RFC 8291) to the reminder. A screenshot of the "On this device" block goes into
Tests/browser/screenshots/ ({desktop,phone}-push-on.png, -push-on-page.png, -push-sent.png: look
at them). The last test is about where the buttons' answer is shown.
"""

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_spending import load, on_screen
from test_web import check_page, click, sign_up, wait

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:  # only the decryption and the JWT's signature need it
    ec = None

# RFC 8291 appendix A: the user agent's public key, a valid P-256 point (without `cryptography`
# its private half is of no use here: the body is then not decrypted).
RFC8291_UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
DEVICE_PATH = "/push/test-device"
TURNED_ON = "Notifications are on for this device."
SENT = "Sent to 1 of 1 device."
NO_DEVICE = "No device of yours has notifications turned on: turn them on in Settings first."
REMINDER = {"title": "Tally", "body": "Time for a glass of water.", "url": "/"}


# ---------------------------------------------------------------------------------------------
# A push service on 127.0.0.1: records every request and accepts it (201, as FCM and Mozilla do)


class PushService:
    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # answers "Expect: 100-continue" should a client send it

            def handle_one(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with service.lock:
                    service.requests.append({"method": self.command, "path": self.path,
                                             "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                self.send_response(201)
                self.send_header("Location", self.path + "/message/1")
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = do_PUT = do_DELETE = handle_one

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def received(self):
        with self.lock:
            return list(self.requests)

    def close(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


# ---------------------------------------------------------------------------------------------
# The device's keys, and the stub of its PushManager


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def device_keys():
    """(private key or None, p256dh: 65 bytes uncompressed, auth: 16 bytes)."""
    auth = os.urandom(16)
    if ec is None:
        return None, unb64url(RFC8291_UA_PUBLIC), auth
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return private, public, auth


STUB = r"""
(() => {
  if (!("PushManager" in window)) return;
  const device = __DEVICE__;
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const text = (source) => {
    const view = source instanceof ArrayBuffer ? new Uint8Array(source)
      : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return btoa(String.fromCharCode(...view)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  window.__push = { subscribeCalls: [], apiCalls: [] };
  let current = null;
  const subscription = (options) => ({
    endpoint: device.endpoint,
    expirationTime: null,
    options,
    getKey: (name) => name === "p256dh" ? bytes(device.p256dh).buffer : name === "auth" ? bytes(device.auth).buffer : null,
    toJSON: () => ({ endpoint: device.endpoint, expirationTime: null, keys: { p256dh: device.p256dh, auth: device.auth } }),
    unsubscribe: async () => { current = null; return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = options && options.applicationServerKey;
    window.__push.subscribeCalls.push({
      userVisibleOnly: options ? options.userVisibleOnly : undefined,
      keyType: Object.prototype.toString.call(key),
      applicationServerKey: key && typeof key !== "string" ? text(key) : key,
    });
    current = subscription(options);
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
  // What the page sends to the push API, and what it is answered.
  const original = window.fetch;
  window.fetch = async (resource, init) => {
    const url = String(resource instanceof Request ? resource.url : resource);
    if (!url.includes("/api/v1/push/")) return original(resource, init);
    const call = { method: (init && init.method) || "GET", path: new URL(url, location.href).pathname,
                   body: init && init.body ? String(init.body) : null, status: null };
    window.__push.apiCalls.push(call);
    const response = await original(resource, init);
    call.status = response.status;
    return response;
  };
})();
"""


def stub_push(driver, server, endpoint, p256dh, auth):
    """For every page loaded from now on: notifications allowed, and PushManager stubbed."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": server})
    device = {"endpoint": endpoint, "p256dh": b64url(p256dh), "auth": b64url(auth)}
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STUB.replace("__DEVICE__", json.dumps(device))})


def in_page(driver, script, *arguments):
    """Runs an async script in the page: `done` is its callback."""
    driver.set_script_timeout(15)
    return driver.execute_async_script("const done = arguments[arguments.length - 1];\n" + script, *arguments)


def vapid_key(driver):
    answer = in_page(driver, """
        fetch("/api/v1/push/key", { headers: { Accept: "application/json" }, credentials: "same-origin" })
          .then(async (r) => done({ status: r.status, body: await r.json() }), (e) => done({ error: String(e) }));""")
    assert answer.get("status") == 200, f"GET /api/v1/push/key: {answer}"
    return answer["body"]["publicKey"]


def message(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "[data-push] .message")
    if not found or not found[0].is_displayed():
        return None
    return found[0].get_attribute("class").split()[-1], " ".join(found[0].text.split())


def wait_message(driver, expected, what):
    try:
        wait(driver, lambda d: message(d) == expected, timeout=15)
    except Exception:
        raise AssertionError(f"after {what} the page says {message(driver)!r}, not {expected!r}") from None


def push_block(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-push]")


# ---------------------------------------------------------------------------------------------
# Reading the push request as a push service and the browser would


def hkdf_expand(prk, info, length):
    output, block, counter = b"", b"", 1
    while len(output) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        output += block
        counter += 1
    return output[:length]


def hkdf_extract(salt, ikm):
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def decrypt(body, private, p256dh, auth):
    """RFC 8291 section 3.4 and RFC 8188, from the browser's side: the plaintext of the one record."""
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    server_public = body[21:21 + id_length]
    ciphertext = body[21 + id_length:]
    assert id_length == 65 and server_public[0] == 4, f"the keyid is not an uncompressed P-256 key ({id_length} bytes)"
    assert len(ciphertext) <= record_size, f"{len(ciphertext)} bytes in one record of {record_size}"
    shared = private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), server_public))
    ikm = hkdf_expand(hkdf_extract(auth, shared), b"WebPush: info\x00" + p256dh + server_public, 32)
    prk = hkdf_extract(salt, ikm)
    key = hkdf_expand(prk, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf_expand(prk, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(key).decrypt(nonce, ciphertext, None)
    content = padded.rstrip(b"\x00")
    assert content.endswith(b"\x02"), "the record does not end with the last record's delimiter 0x02"
    return content[:-1]


def check_vapid(authorization, public_key, audience):
    """The Authorization header of RFC 8292: "vapid t=JWT, k=KEY"; the JWT's claims and signature."""
    assert authorization.startswith("vapid t="), f"Authorization: {authorization!r}"
    assert ", k=" in authorization, f"Authorization: {authorization!r}"
    token, key = authorization[len("vapid t="):].split(", k=", 1)
    assert key == public_key, f"the header's k= is {key!r}, not the key the page subscribed with, {public_key!r}"
    header, claims, signature = token.split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(unb64url(claims))
    assert claims["aud"] == audience, f"aud {claims['aud']!r}, not the push service's origin {audience!r}"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600 + 60, f"exp {claims['exp']} (RFC 8292: at most 24 h ahead)"
    assert claims["sub"].startswith(("mailto:", "https:")), f"sub {claims['sub']!r}"
    if ec is None:
        return
    raw = unb64url(signature)
    assert len(raw) == 64, f"an ES256 signature is r ‖ s, 64 bytes, not {len(raw)}"
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        verifier.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                        f"{token.rsplit('.', 1)[0]}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID JWT's signature does not verify with the server's public key") from None


# ---------------------------------------------------------------------------------------------
# The buttons


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_turn_on_notifications_and_send_a_test(server, browser, unique_name, push_service, viewport):
    shot = lambda page: f"{viewport}-push-{page}"
    endpoint = push_service.base + DEVICE_PATH
    private, p256dh, auth = device_keys()
    driver = browser(viewport)
    stub_push(driver, server, endpoint, p256dh, auth)
    sign_up(driver, server, unique_name)
    load(driver, server + "/settings/reminders")

    # The block is shown by the script (push is supported), with its two buttons.
    block = push_block(driver)
    wait(driver, lambda d: push_block(d).is_displayed(), message="the 'On this device' block stays hidden")
    assert block.find_element(By.TAG_NAME, "h2").text == "On this device"
    turn_on = block.find_element(By.CSS_SELECTOR, "button[data-push-on]")
    send_test = block.find_element(By.CSS_SELECTOR, "button[data-push-test]")
    assert (turn_on.text, send_test.text) == ("Turn on notifications", "Send a test reminder")
    assert driver.execute_script("return Notification.permission") == "granted"
    assert driver.execute_script("return window.__push && window.__push.subscribeCalls.length") == 0, \
        "the stub is not in the page, or something subscribed before the button was pressed"
    public_key = vapid_key(driver)
    assert len(unb64url(public_key)) == 65 and unb64url(public_key)[0] == 4, f"the VAPID key {public_key!r} is not a P-256 point"

    # A test before any device is on: refused, with what to do; nothing is sent.
    click(driver, send_test)
    wait_message(driver, ("error", NO_DEVICE), "a test reminder with no device on")
    assert push_service.received() == []

    # Turn on: subscribed with the server's key, and the subscription posted to the server.
    click(driver, turn_on)
    wait(driver, lambda d: message(d) and message(d)[1] != NO_DEVICE, timeout=15,
         message="the page said nothing after 'Turn on notifications'")
    # Before judging the answer: the block as it is now, and the whole page with the answer on top.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", push_block(driver))
    screenshot(driver, shot("on"), full=False)
    screenshot(driver, shot("on-page"))
    wait_message(driver, ("notice", TURNED_ON), "'Turn on notifications'")
    calls = driver.execute_script("return window.__push.subscribeCalls")
    assert len(calls) == 1, f"subscribe() was called {len(calls)} times"
    assert calls[0]["userVisibleOnly"] is True, calls[0]
    assert calls[0]["keyType"] in ("[object Uint8Array]", "[object ArrayBuffer]"), calls[0]
    assert calls[0]["applicationServerKey"] == public_key, \
        f"subscribed with {calls[0]['applicationServerKey']!r}, not the server's key {public_key!r}"
    posted = [c for c in driver.execute_script("return window.__push.apiCalls") if c["path"] == "/api/v1/push/subscriptions"]
    assert [(c["method"], c["status"]) for c in posted] == [("POST", 201)], posted
    assert json.loads(posted[0]["body"]) == {"endpoint": endpoint, "expirationTime": None,
                                             "keys": {"p256dh": b64url(p256dh), "auth": b64url(auth)}}
    confirmation = driver.find_element(By.CSS_SELECTOR, "[data-push] .message")
    assert confirmation.get_attribute("role") == "status"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", push_block(driver))
    check_page(driver, shot("on"), full=False)
    assert push_service.received() == [], "turning notifications on already pushed something"

    # The test reminder: one push to the device's endpoint, as RFC 8030/8291/8292 want it.
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-test]"))
    wait_message(driver, ("notice", SENT), "'Send a test reminder'")
    wait(driver, lambda d: push_service.received(), message="the push service received nothing")
    received = push_service.received()
    assert [(r["method"], r["path"]) for r in received] == [("POST", DEVICE_PATH)], received
    push = received[0]
    headers, body = push["headers"], push["body"]
    check_vapid(headers.get("authorization", ""), public_key, push_service.base)
    assert headers.get("content-encoding") == "aes128gcm", headers
    assert headers.get("ttl", "").isdigit() and int(headers["ttl"]) > 0, f"TTL: {headers.get('ttl')!r}"
    assert int(headers.get("content-length", -1)) == len(body)
    # 86 bytes of header (16 salt, 4 record size, 1 key length, 65 key), then the sealed record.
    assert len(body) > 86 + 16, f"a body of {len(body)} bytes holds no message"
    if private is not None:
        reminder = json.loads(decrypt(body, private, p256dh, auth))
        assert {key: reminder.get(key) for key in REMINDER} == REMINDER, reminder
        # The test reminder comes as a real one does, with its two buttons (test_reminder_actions.py).
        assert [action["action"] for action in reminder["actions"]] == ["log", "snooze"], reminder
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", push_block(driver))
    check_page(driver, shot("sent"), full=False)

    # Turning on again (same device) replaces the subscription: a test still reaches one device.
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-on]"))
    wait(driver, lambda d: len(d.execute_script("return window.__push.subscribeCalls")) == 2)
    wait_message(driver, ("notice", TURNED_ON), "'Turn on notifications' a second time")
    click(driver, push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-test]"))
    wait(driver, lambda d: len(push_service.received()) == 2, message="the second test reminder was not pushed")
    wait_message(driver, ("notice", SENT), "the second test reminder")
    assert [(r["method"], r["path"]) for r in push_service.received()] == [("POST", DEVICE_PATH)] * 2


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_push_answer_is_on_screen(server, browser, unique_name, push_service, viewport):
    # The buttons are below the reminders' form: what they did must be seen without scrolling.
    driver = browser(viewport)
    _, p256dh, auth = device_keys()
    stub_push(driver, server, push_service.base + DEVICE_PATH, p256dh, auth)
    sign_up(driver, server, unique_name)
    load(driver, server + "/settings/reminders")
    wait(driver, lambda d: push_block(d).is_displayed())
    turn_on = push_block(driver).find_element(By.CSS_SELECTOR, "button[data-push-on]")
    click(driver, turn_on)
    # Whatever the answer (the other test judges what it says): where it is.
    wait(driver, lambda d: message(d), timeout=15, message="the page said nothing after 'Turn on notifications'")
    time.sleep(0.5)  # a smooth scroll, if the page makes one, comes to rest
    answer = driver.find_element(By.CSS_SELECTOR, "[data-push] .message")
    assert on_screen(driver, answer), \
        f"the answer to 'Turn on notifications' ({message(driver)}) is off screen (top {answer.rect['y']:.0f} px, " \
        f"scrolled to {driver.execute_script('return scrollY')} px, the button at {turn_on.rect['y']:.0f} px)"
