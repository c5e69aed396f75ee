"""Two `tally serve` processes on one PostgreSQL database, as behind a load balancer: nothing that
one instance knows may be missing from the other.

A session made through one instance works through the other; a token revoked through one is
refused by the other at once; drinks logged through both at once (each also sent again through
the other instance, as a client retrying after a timeout would) are all there, none twice; and a
reminder that falls due while both instances look for it every second goes out once. A stream of
changes held open on one instance names a change made through the other within a second.

The database is a fresh one on the PostgreSQL server that scripts/test starts
(TALLY_TEST_POSTGRES_URL); without that server the test fails and says what to install.
"""

import http.client
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import datetime, timedelta, timezone
from http.cookiejar import CookieJar
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

ADMIN, PASSWORD = "ada", "correct horse battery staple"
# RFC 8291 appendix A's user agent key: a valid P-256 point for the subscription.
UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"


# The tests' server trusts loopback, so any password gets in: this one must never reach a log.
PASSWORD_IN_URL = "hunter2-in-the-url"


@pytest.fixture(scope="module")
def database():
    """A new database on the test's PostgreSQL server, addressed with a password."""
    with tally_process.postgres_database("two_instances") as url:
        parts = urllib.parse.urlsplit(url)
        yield urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.replace("@", f":{PASSWORD_IN_URL}@", 1)))


class PushService:
    """A push service on 127.0.0.1 that records each request and accepts it."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service.lock:
                    service.requests.append((time.monotonic(), self.path))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}/push/ada-phone"

    def count(self):
        with self.lock:
            return len(self.requests)


@pytest.fixture(scope="module")
def instances(database, tmp_path_factory):
    """The base URLs of two `tally serve` on the database, with an admin account made before."""
    folder = tmp_path_factory.mktemp("instances")
    environment = tally_process.environment(TALLY_TEST_PUSH_TO_LOOPBACK="1", TALLY_TEST_REMINDER_TICK_SECONDS="1",
                                            TALLY_TEST_NOTICE_BURST_SECONDS="3")
    tally = str(tally_process.binary())
    subprocess.run([tally, "user", "create", ADMIN, "--database", database], input=PASSWORD + "\n",
                   text=True, check=True, capture_output=True, env=environment)
    with ExitStack() as stack:
        first = stack.enter_context(tally_process.serve(database, folder / "first.log", environment))
        second = stack.enter_context(tally_process.serve(database, folder / "second.log", environment))
        yield first, second
    for log in ("first.log", "second.log"):
        text = (folder / log).read_text()
        assert "•••@" in text, "the log names the database it serves from"
        assert PASSWORD_IN_URL not in text, f"{log} shows the database's password"


def request(base, method, path, body=None, token=None, opener=None, form=None):
    headers = {}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if form is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        data = urllib.parse.urlencode(form).encode()
    call = urllib.request.Request(base + path, method=method, data=data, headers=headers)
    try:
        with (opener or urllib.request.build_opener()).open(call, timeout=30) as response:
            text = response.read()
            return response.status, (json.loads(text) if text and "json" in response.headers.get("Content-Type", "") else None)
    except urllib.error.HTTPError as error:
        return error.code, None


def token(database, name):
    done = subprocess.run([str(tally_process.binary()), "token", "create", "--name", name, "--user", ADMIN,
                           "--database", database, "--json"],
                          check=True, capture_output=True, text=True, env=tally_process.environment())
    return json.loads(done.stdout)


def test_a_session_made_through_one_instance_works_through_the_other(instances):
    first, second = instances
    jar = CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    assert request(first, "GET", "/signin", opener=browser)[0] == 200
    csrf = next(cookie.value for cookie in jar if cookie.name == "tally_csrf")
    status, _ = request(first, "POST", "/signin", opener=browser, form={"name": ADMIN, "password": PASSWORD, "csrf": csrf})
    assert status == 200
    assert any(cookie.name == "tally_session" for cookie in jar)
    status, me = request(second, "GET", "/api/v1/me", opener=browser)
    assert status == 200 and me["name"] == ADMIN


def test_a_token_revoked_through_one_instance_is_refused_by_the_other_at_once(instances, database):
    first, second = instances
    created = token(database, "revoked")
    secret = created["secret"]
    assert request(second, "GET", "/api/v1/today", token=secret)[0] == 200
    assert request(first, "DELETE", f"/api/v1/tokens/{created['id']}", token=secret)[0] == 204
    assert request(second, "GET", "/api/v1/today", token=secret)[0] == 401
    assert request(first, "GET", "/api/v1/today", token=secret)[0] == 401


def test_drinks_logged_through_both_instances_at_once_are_all_there_once(instances, database):
    first, second = instances
    secret = token(database, "drinks")["secret"]
    before = request(first, "GET", "/api/v1/today", token=secret)[1]
    drinks = [(str(uuid.uuid4()), 10 + n % 7) for n in range(160)]

    def log(index_and_drink):
        index, (identifier, volume) = index_and_drink
        # Each drink through one instance, then again through the other, as a retry would.
        for base in ((first, second) if index % 2 else (second, first)):
            status, _ = request(base, "POST", "/api/v1/intakes", {"volumeMl": volume, "id": identifier}, token=secret)
            assert status in (200, 201), status

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(log, enumerate(drinks)))

    for base in (first, second):
        after = request(base, "GET", "/api/v1/today", token=secret)[1]
        assert len(after["entries"]) - len(before["entries"]) == len(drinks)
        assert after["totalMl"] - before["totalMl"] == sum(volume for _, volume in drinks)
        logged = {entry["id"].lower() for entry in after["entries"]}
        assert {identifier for identifier, _ in drinks} <= logged


def test_a_due_reminder_is_sent_once_by_two_instances(instances, database):
    first, second = instances
    secret = token(database, "reminders")["secret"]
    push = PushService()
    assert request(first, "PATCH", "/api/v1/settings", {"timeZone": "UTC"}, token=secret)[0] == 200
    status, _ = request(second, "POST", "/api/v1/push/subscriptions",
                        {"endpoint": push.endpoint, "keys": {"p256dh": UA_PUBLIC, "auth": "AAECAwQFBgcICQoLDA0ODw"}},
                        token=secret)
    assert status in (200, 201, 204)
    # One reminder a day, halfway through a two-minute window: at the start of the next minute
    # (or the one after, when this one is about to end).
    now = datetime.now(timezone.utc)
    wake = now.replace(second=0, microsecond=0) + timedelta(minutes=1 if now.second > 50 else 0)
    due = wake + timedelta(minutes=1)
    window = {"wake": wake.strftime("%H:%M"), "sleep": (wake + timedelta(minutes=2)).strftime("%H:%M")}
    status, _ = request(first, "PUT", "/api/v1/reminders",
                        {"enabled": True, "window": window, "frequency": 1, "useSleepRecords": False}, token=secret)
    assert status == 200
    wait = (due - datetime.now(timezone.utc)).total_seconds()
    deadline = time.monotonic() + wait + 20
    while push.count() == 0 and time.monotonic() < deadline:
        time.sleep(0.25)
    assert push.count() >= 1, "no reminder was sent"
    # Both instances keep looking every second: a second push would come within a few.
    time.sleep(4)
    assert push.count() == 1


def test_a_change_made_through_one_instance_is_named_by_the_others_stream_within_a_second(instances, database):
    """An open page's stream comes from the database: one held open on the second instance names
    an expense added through the first, and a drink of the day logged through the first."""
    first, second = instances
    secret = token(database, "streams")["secret"]
    status, ledger = request(first, "POST", "/api/v1/ledgers", {"name": "Flat", "currency": "EUR"}, token=secret)
    assert status == 201
    today = request(first, "GET", "/api/v1/today", token=secret)[1]["date"]
    for path, change in ((f"/api/v1/ledgers/{ledger['id']}/changes", (f"/api/v1/ledgers/{ledger['id']}/expenses", {"amount": "12.50"})),
                         (f"/api/v1/days/{today}/changes", ("/api/v1/intakes", {"volumeMl": 250}))):
        host, port = urllib.parse.urlsplit(second).netloc.split(":")
        stream = http.client.HTTPConnection(host, int(port), timeout=10)
        stream.request("GET", path, headers={"Authorization": f"Bearer {secret}", "Accept": "text/event-stream"})
        response = stream.getresponse()
        assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"

        def event():
            while True:
                line = response.readline().decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])["revision"]

        before = event()
        assert request(first, "POST", change[0], change[1], token=secret)[0] == 201
        changed = time.monotonic()
        after = event()
        took = time.monotonic() - changed
        stream.close()
        assert after != before and after == request(first, "GET", path, token=secret)[1]["revision"]
        assert took < 1, f"{path}: the second instance named the change after {took:.2f} s"


def test_a_ledgers_changes_are_told_once_by_two_instances(instances, database):
    # The instances run with bursts of 3 seconds (TALLY_TEST_NOTICE_BURST_SECONDS), looked for every second.
    first, second = instances
    ada = token(database, "ledger-notices")["secret"]
    subprocess.run([str(tally_process.binary()), "user", "create", "bob", "--database", database], input=PASSWORD + "\n",
                   text=True, check=True, capture_output=True, env=tally_process.environment())
    bob = json.loads(subprocess.run([str(tally_process.binary()), "token", "create", "--name", "phone", "--user", "bob",
                                     "--database", database, "--json"], check=True, capture_output=True, text=True,
                                    env=tally_process.environment()).stdout)["secret"]
    status, ledger = request(first, "POST", "/api/v1/ledgers", {"name": "Flat", "currency": "EUR", "members": ["Ada", "Bob"]}, token=ada)
    assert status == 201
    status, invite = request(first, "POST", f"/api/v1/ledgers/{ledger['id']}/invite", {}, token=ada)
    assert status in (200, 201), status
    status, _ = request(second, "POST", "/api/v1/ledgers/join", {"code": invite["inviteCode"], "memberName": "Bob"}, token=bob)
    assert status == 200, status
    push = PushService()
    status, _ = request(second, "POST", "/api/v1/push/subscriptions",
                        {"endpoint": push.endpoint.replace("ada-phone", "bob-phone"),
                         "keys": {"p256dh": UA_PUBLIC, "auth": "AAECAwQFBgcICQoLDA0ODw"}}, token=bob)
    assert status == 201
    # Ada's own device: she hears nothing of her own changes.
    assert request(first, "POST", "/api/v1/push/subscriptions",
                   {"endpoint": push.endpoint, "keys": {"p256dh": UA_PUBLIC, "auth": "AAECAwQFBgcICQoLDA0ODw"}}, token=ada)[0] == 201

    # Five expenses, through one instance and the other, within the burst.
    for number in range(5):
        base = first if number % 2 == 0 else second
        status, _ = request(base, "POST", f"/api/v1/ledgers/{ledger['id']}/expenses",
                            {"amount": "4.00", "description": f"Item {number}"}, token=ada)
        assert status == 201, status
    deadline = time.monotonic() + 10
    while push.count() < 2 and time.monotonic() < deadline:
        time.sleep(0.25)
    # Both instances look every second: another summary would come within a few.
    time.sleep(4)
    with push.lock:
        paths = [path for _, path in push.requests]
    assert paths == ["/push/bob-phone", "/push/bob-phone"], paths
