"""The systemd units in deploy/: each passes `systemd-analyze verify`; the service's exposure
(`systemd-analyze security`, read offline) stays low; and the server runs from the unit's own
ExecStart line and Environment (its /var/lib/tally in a folder of the test's), answers /health
and stops cleanly on the SIGTERM the unit sends. The backup service's own command line then
copies the database it serves. No systemd needs to run here: the units are read as systemd reads
them, and their commands run as the unit would start them.
"""

import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally)

DEPLOY = tally_process.REPO / "deploy"
INSTALLED = "/opt/tally/tally"
STATE = "/var/lib/tally"
# What `systemd-analyze security` may score the server: 0 is a service with no exposure, 10 one
# with no restriction at all; "OK" ends at 4.9.
MOST_EXPOSURE = 1.5


def analyze():
    command = shutil.which("systemd-analyze")
    if not command:
        pytest.fail("systemd-analyze is missing: apt-get install systemd")
    return command


def service(name):
    """The unit's [Service] settings: each key with its values in order (a key may repeat)."""
    settings, section = {}, None
    for line in (DEPLOY / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def installed_here(tmp_path, name):
    """A copy of the unit whose binary is the one under test: `verify` checks that it exists."""
    copy = tmp_path / name
    copy.write_text((DEPLOY / name).read_text().replace(INSTALLED, str(tally_process.binary())))
    return copy


@pytest.mark.parametrize("name", ["tally.service", "tally-backup.service", "tally-backup.timer"])
def test_each_unit_passes_systemd_analyze_verify(tmp_path, name):
    copy = installed_here(tmp_path, name)
    if name.endswith(".timer"):
        installed_here(tmp_path, "tally-backup.service")
    done = subprocess.run([analyze(), "verify", str(copy)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and not done.stderr.strip(), f"{name}: {done.stdout}{done.stderr}"


@pytest.mark.parametrize("name,most", [("tally.service", MOST_EXPOSURE), ("tally-backup.service", 1.0)])
def test_the_services_expose_little(tmp_path, name, most):
    done = subprocess.run([analyze(), "security", "--offline=yes", "--no-pager", str(installed_here(tmp_path, name))],
                          capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= most, f"{name} scores {found.group(1)}:\n{done.stdout}"


def environment_of(settings, state):
    """The unit's Environment= lines as the process gets them, with its state folder `state`."""
    variables = {}
    for line in settings.get("Environment", []):
        for pair in shlex.split(line):
            key, value = pair.split("=", 1)
            variables[key] = value.replace(STATE, str(state))
    return variables


def command_of(settings, key, state):
    """The unit's command line `key`, with the binary under test and the state folder `state`;
    `%%` is how a unit writes `%`."""
    (line,) = settings[key]
    return shlex.split(line.replace(INSTALLED, str(tally_process.binary())).replace(STATE, str(state)).replace("%%", "%"))


def test_the_server_runs_from_the_units_own_command_and_stops_on_its_signal(tmp_path):
    settings = service("tally.service")
    assert settings["DynamicUser"] == ["yes"] and settings["StateDirectory"] == ["tally"]
    assert settings["KillSignal"] == ["SIGTERM"]
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    port = tally_process.free_port()
    variables = environment_of(settings, state)
    assert variables["TALLY_DATABASE"] == f"{state}/tally.sqlite" and variables["TALLY_HOST"] == "127.0.0.1"
    variables["TALLY_PORT"] = str(port)
    log = tmp_path / "serve.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(command_of(settings, "ExecStart", state), stdout=output, stderr=subprocess.STDOUT,
                                   env=tally_process.environment(**variables))
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, f"the server stopped with {process.returncode}:\n{log.read_text()}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"no /health within 30 s:\n{log.read_text()}"
            time.sleep(0.1)
        assert (state / "tally.sqlite").exists(), "the database is not in the unit's state folder"

        # The backup service's own command, beside the running server.
        backup = service("tally-backup.service")
        done = subprocess.run(command_of(backup, "ExecStart", state), capture_output=True, text=True,
                              env=tally_process.environment(**environment_of(backup, state)), timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        (copy,) = (state / "backups").glob("tally-*.sqlite")
        with sqlite3.connect(copy) as database:
            assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert database.execute("SELECT count(*) FROM grdb_migrations").fetchone()[0] > 20
        pruned = subprocess.run(command_of(backup, "ExecStartPost", state), capture_output=True, text=True)
        assert pruned.returncode == 0 and copy.exists(), "a fresh backup was pruned"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=int(settings["TimeoutStopSec"][0]))
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("the server did not stop within the unit's TimeoutStopSec of SIGTERM")
    assert code == 0, f"the server stopped with {code} on SIGTERM:\n{log.read_text()}"
