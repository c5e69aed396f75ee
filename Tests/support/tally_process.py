"""The built `tally` for the Python tests: which binary (TALLY_BIN, by default the debug build of
this repository), an environment without the caller's TALLY_ settings, `tally serve` on a
free loopback port, stopped with SIGTERM as a service manager would, and a fresh database on the
PostgreSQL server that scripts/test starts."""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def binary():
    path = Path(os.environ.get("TALLY_BIN", REPO / ".build" / "debug" / "tally"))
    path = path if path.is_absolute() else REPO / path
    if not path.exists():
        pytest.fail(f"{path} does not exist: build Tally first (swift build), or set TALLY_BIN.")
    return path


def environment(**extra):
    """This process's environment without TALLY_ variables (a developer's own server, token or
    database must not leak into a test), plus `extra`."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("TALLY_")}, **extra}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serve(database, log_path, env):
    """`tally serve` on `database`; yields its base URL once /health answers. At the end it must
    stop within 15 s of SIGTERM, with exit code 0."""
    port = free_port()
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--database", str(database)],
            stdout=log, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"tally serve exited with {process.returncode}:\n{Path(log_path).read_text()}")
            try:
                with urllib.request.urlopen(base + "/health", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"tally serve did not answer /health within 30 s:\n{Path(log_path).read_text()}")
            time.sleep(0.1)
        try:
            yield base
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                pytest.fail("tally serve did not stop within 15 s of SIGTERM")
    assert code == 0, f"tally serve exited with {code} on SIGTERM:\n{Path(log_path).read_text()}"


def psql(url, sql):
    binary = shutil.which("psql") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))), None)
    if not binary:
        pytest.fail("psql is missing: apt-get install postgresql-15")
    subprocess.run([str(binary), url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], check=True, capture_output=True, text=True)


@contextmanager
def postgres_database(prefix):
    """The address of a new database on the PostgreSQL server of the tests (TALLY_TEST_POSTGRES_URL,
    which scripts/test sets), dropped at the end."""
    server = os.environ.get("TALLY_TEST_POSTGRES_URL")
    if not server:
        pytest.fail("The PostgreSQL tests need a server: run scripts/test, which starts one when PostgreSQL 15 is "
                    "installed (apt-get install postgresql-15), or set TALLY_TEST_POSTGRES_URL.")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    psql(server, f"CREATE DATABASE {name}")
    try:
        yield urllib.parse.urlunsplit(urllib.parse.urlsplit(server)._replace(path="/" + name))
    finally:
        psql(server, f"DROP DATABASE {name} WITH (FORCE)")


def command(*arguments, database, stdin=None):
    """`tally ARGUMENTS --database DATABASE`, which must succeed."""
    done = subprocess.run([str(binary()), *arguments, "--database", str(database)], input=stdin,
                          capture_output=True, text=True, timeout=120, env=environment())
    assert done.returncode == 0, f"tally {' '.join(arguments)}: {done.stderr}"
    return done


def person(database, name, password="correct horse battery staple"):
    """An account `name` on `database`, and a token of theirs."""
    command("user", "create", name, "--time-zone", "UTC", database=database, stdin=password + "\n")
    return json.loads(command("token", "create", "--user", name, "--json", database=database).stdout)["secret"]


def send(base, secret, method, path, body, content_type="application/json"):
    """(status, parsed JSON answer) of one API request whose body is `body` (bytes)."""
    request = urllib.request.Request(base + path, method=method, data=body,
                                     headers={"Authorization": f"Bearer {secret}", "Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def receipt_path(base, secret):
    """A receipt's address: an expense in a new ledger of the token's owner."""
    _, ledger = send(base, secret, "POST", "/api/v1/ledgers", json.dumps({"name": "Home", "currency": "EUR"}).encode())
    _, entry = send(base, secret, "POST", f"/api/v1/ledgers/{ledger['id']}/expenses",
                    json.dumps({"amount": "5.00", "description": "Lunch"}).encode())
    return f"/api/v1/ledgers/{ledger['id']}/entries/{entry['id']}/receipt"
