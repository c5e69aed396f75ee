"""Graceful shutdown (A6): SIGTERM lets the requests in flight finish, then the server exits 0.

A sign-up is the slow request: bcrypt at cost 12 takes a noticeable time on purpose.
"""

import http.client
import json
import signal
import subprocess
import threading
import time
import urllib.parse

import tally_process


def _start(tmp_path):
    port = tally_process.free_port()
    log = open(tmp_path / "serve.log", "wb")
    process = subprocess.Popen(
        [str(tally_process.binary()), "serve", "--port", str(port), "--database", str(tmp_path / "t.sqlite")],
        stdout=log, stderr=subprocess.STDOUT, env=tally_process.environment())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("tally serve did not start:\n" + (tmp_path / "serve.log").read_text())


def test_sigterm_finishes_the_request_in_flight(tmp_path):
    process, port = _start(tmp_path)
    try:
        # setup: the page's CSRF cookie, for the sign-up form.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/signup")
        response = connection.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie").split(";")[0]
        csrf = cookie.split("=", 1)[1]
        body = urllib.parse.urlencode({"csrf": csrf, "name": "ada", "password": "correct horse", "timeZone": "UTC"})

        # act: SIGTERM while the sign-up is hashing its password.
        answer = {}

        def sign_up():
            slow = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            slow.request("POST", "/signup", body=body,
                         headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
            reply = slow.getresponse()
            answer["status"] = reply.status
            answer["location"] = reply.getheader("Location")
            answer["at"] = time.monotonic()

        request = threading.Thread(target=sign_up)
        request.start()
        time.sleep(0.15)
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        request.join(timeout=30)
        code = process.wait(timeout=30)

        # check: the request got its full answer, and the server stopped cleanly after it.
        assert answer.get("status") == 303, answer
        assert answer.get("location") == "/onboarding", answer
        assert code == 0, (tmp_path / "serve.log").read_text()
        # The answer came after the signal: the request was still in flight when it arrived.
        assert answer["at"] > signalled, answer
    finally:
        if process.poll() is None:
            process.kill()


def test_sigterm_ends_the_open_streams_of_changes(tmp_path):
    """A page's stream of changes (a long answer) does not hold the server up: on SIGTERM it
    ends at its next look at the database, and the server exits 0 at once, not a minute later."""
    database = str(tmp_path / "t.sqlite")
    tally = str(tally_process.binary())
    subprocess.run([tally, "user", "create", "ada", "--database", database], input="correct horse\n",
                   text=True, check=True, capture_output=True, env=tally_process.environment())
    token = subprocess.run([tally, "token", "create", "--user", "ada", "--name", "shutdown", "--database", database, "--json"],
                           text=True, check=True, capture_output=True, env=tally_process.environment())
    secret = json.loads(token.stdout)["secret"]
    process, port = _start(tmp_path)
    try:
        # setup: an open stream, its first event read
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        stream.request("GET", "/api/v1/days/2025-01-01/changes", headers={"Authorization": f"Bearer {secret}", "Accept": "text/event-stream"})
        response = stream.getresponse()
        assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
        assert response.readline() == b"retry: 1000\n"

        # act
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        rest = response.read()
        code = process.wait(timeout=30)

        # check: the stream ended with its events whole, and the server stopped cleanly, at once
        assert rest.startswith(b"\ndata: {\"revision\":"), rest
        assert time.monotonic() - signalled < 5, "the open stream held the server up"
        assert code == 0, (tmp_path / "serve.log").read_text()
    finally:
        if process.poll() is None:
            process.kill()
