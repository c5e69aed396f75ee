"""PostgreSQL going away under two running `tally serve` instances (A5): killed three times under
load with `pg_ctl stop -m immediate` (as a crash or an OOM kill does), then started again.

Each time, no instance dies; every request is answered (no socket is left waiting), and while the
database is gone with a 503, a Retry-After and a sentence, within the query deadline; /health
answers 503 with the reason, and 200 again once the database is back; writes succeed again within
two seconds of its return; and every drink that was acknowledged with a 201 is in the database at
the end. Last, SIGTERM with the database gone stops an instance within the promised 30 seconds.

The test starts a PostgreSQL server of its own (the one of scripts/test is shared and must not be
killed); without PostgreSQL 15 it fails and says what to install.
"""

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

PASSWORD = "correct horse battery staple"
POSTGRES_BIN = next((path for path in [Path("/usr/lib/postgresql/15/bin"), *sorted(Path("/usr/lib/postgresql").glob("*/bin"))]
                     if (path / "pg_ctl").exists()), None)
# Short, so that the test sees a deadline pass: the default is 5 seconds.
DEADLINE = 3


class Postgres:
    """A throw-away PostgreSQL server on a loopback port that the test may kill and start again."""

    def __init__(self, folder):
        if POSTGRES_BIN is None:
            pytest.fail("PostgreSQL is not installed: apt-get install postgresql-15")
        self.folder = folder
        self.port = tally_process.free_port()
        if os.geteuid() == 0:
            subprocess.run(["chown", "postgres", str(folder)], check=True)
        self.owner(POSTGRES_BIN / "initdb", "-D", str(folder / "data"), "-U", "tally", "--auth=trust", "-E", "UTF8", "--no-locale")
        self.url = f"postgres://tally@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def owner(self, *command):
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *map(str, command)], check=True, capture_output=True, text=True, timeout=60)

    def start(self):
        # fsync is off for speed, but every commit still reaches the operating system before it
        # is acknowledged (synchronous_commit is on), so a killed server keeps it.
        self.owner(POSTGRES_BIN / "pg_ctl", "-D", self.folder / "data", "-l", self.folder / "log", "-w", "start", "-o",
                   f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c max_connections=200")

    def kill(self):
        self.owner(POSTGRES_BIN / "pg_ctl", "-D", self.folder / "data", "-m", "immediate", "stop")

    def restart(self):
        """A fast restart, as an administrator's: the connections are ended, the server back within a second."""
        self.owner(POSTGRES_BIN / "pg_ctl", "-D", self.folder / "data", "-l", self.folder / "log", "-m", "fast", "-w", "restart")

    def query(self, sql):
        done = subprocess.run([str(POSTGRES_BIN / "psql"), self.url, "-At", "-c", sql], check=True, capture_output=True, text=True)
        return done.stdout.split()


@pytest.fixture
def postgres():
    # Not under pytest's tmp_path: the postgres user cannot enter root's folders.
    folder = Path(tempfile.mkdtemp(prefix="tally-faults-"))
    server = Postgres(folder)
    server.start()
    try:
        yield server
    finally:
        try:
            server.kill()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(folder, ignore_errors=True)


class Instance:
    """`tally serve` on the database, with its log; its process is watched, not wrapped."""

    def __init__(self, url, log, deadline=DEADLINE):
        self.port = tally_process.free_port()
        self.log = log
        self.output = open(log, "wb")
        self.process = subprocess.Popen(
            [str(tally_process.binary()), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--database", url],
            stdout=self.output, stderr=subprocess.STDOUT,
            env=tally_process.environment(TALLY_POSTGRES_DEADLINE=str(deadline)))
        deadline = time.monotonic() + 30
        while request(self.port, "GET", "/health", timeout=1)[0] != 200:
            assert self.process.poll() is None, f"tally serve exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"tally serve did not answer /health:\n{log.read_text()}"
            time.sleep(0.1)

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.output.close()


def request(port, method, path, body=None, secret=None, timeout=15):
    """(status, headers, body) of one request; status 0 when nothing answered, -1 when the wait ran out."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = raw.decode(errors="replace")
        return response.status, dict(response.getheaders()), parsed
    except TimeoutError:
        return -1, {}, "no answer"
    except OSError as error:
        return 0, {}, str(error)
    finally:
        connection.close()


class Load:
    """Threads that log drinks and read today through both instances, remembering each answer."""

    def __init__(self, instances, secret, threads=6):
        self.instances, self.secret = instances, secret
        self.answers = []  # (monotonic start, seconds taken, status, headers, body)
        self.acknowledged = set()
        self.lock = threading.Lock()
        self.running = True
        self.threads = [threading.Thread(target=self.work, args=(index,), daemon=True) for index in range(threads)]
        for thread in self.threads:
            thread.start()

    def work(self, index):
        turn = 0
        while self.running:
            instance = self.instances[(index + turn) % len(self.instances)]
            turn += 1
            drink = str(uuid.uuid4())
            started = time.monotonic()
            if turn % 3:
                answer = request(instance.port, "POST", "/api/v1/intakes", {"volumeMl": 100, "id": drink}, self.secret)
            else:
                answer = request(instance.port, "GET", "/api/v1/history?days=7", secret=self.secret)
            taken = time.monotonic() - started
            with self.lock:
                self.answers.append((started, taken, *answer))
                if answer[0] == 201:
                    self.acknowledged.add(drink)
            if answer[0] != 201 and answer[0] != 200:
                time.sleep(0.05)

    def since(self, moment):
        with self.lock:
            return [answer for answer in self.answers if answer[0] >= moment]

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join(timeout=30)


def ada_token(postgres):
    """The secret of a token of Ada's, made with the command line on the database."""
    created = subprocess.run([str(tally_process.binary()), "user", "create", "ada", "--time-zone", "UTC", "--database", postgres.url],
                             input=PASSWORD + "\n", capture_output=True, text=True, env=tally_process.environment(), timeout=60)
    assert created.returncode == 0, created.stderr
    token = subprocess.run([str(tally_process.binary()), "token", "create", "--user", "ada", "--json", "--database", postgres.url],
                           capture_output=True, text=True, env=tally_process.environment(), timeout=60)
    return json.loads(token.stdout)["secret"]


def test_postgres_killed_under_load_three_times(tmp_path, postgres):
    secret = ada_token(postgres)
    instances = [Instance(postgres.url, tmp_path / f"serve{index}.log") for index in range(2)]
    load = Load(instances, secret)
    try:
        for round in range(3):
            time.sleep(1.5)
            assert load.since(time.monotonic() - 1.0), "no request was answered under load"
            postgres.kill()
            killed = time.monotonic()
            time.sleep(DEADLINE + 1)
            for instance in instances:
                assert instance.alive(), f"round {round + 1}: an instance died:\n{instance.log.read_text()[-3000:]}"
                status, headers, body = request(instance.port, "GET", "/health", timeout=DEADLINE + 2)
                assert status == 503, (status, body)
                assert "database" in body["detail"], body
                status, headers, body = request(instance.port, "POST", "/api/v1/intakes", {"volumeMl": 100}, secret, timeout=DEADLINE + 2)
                assert status == 503 and int(headers["Retry-After"]) > 0, (status, body)
                assert "nothing was saved" in body["detail"], body
            # A load request that began after the kill is answered within its deadline; on a busy
            # machine it may not have ended yet, so wait for one rather than find none.
            waited = time.monotonic()
            while not load.since(killed + 0.5) and time.monotonic() - waited < DEADLINE + 5:
                time.sleep(0.1)
            down = load.since(killed + 0.5)
            assert down and all(answer[2] == 503 for answer in down), sorted({answer[2] for answer in down})
            assert all(answer[1] <= DEADLINE + 1 for answer in down), max(answer[1] for answer in down)
            postgres.start()
            back = time.monotonic()
            while not [answer for answer in load.since(back) if answer[2] == 201]:
                assert time.monotonic() - back < 2.5, "no write succeeded within 2 seconds of the database's return"
                time.sleep(0.05)
            # Each instance is ready again once its own pool reconnected: the write above may
            # have gone through the other one.
            for instance in instances:
                while request(instance.port, "GET", "/health")[0] != 200:
                    assert time.monotonic() - back < 2.5, f"round {round + 1}: /health not ready within 2.5 s of the database's return"
                    time.sleep(0.05)
    finally:
        load.stop()
    try:
        answers = load.answers
        unanswered = [answer for answer in answers if answer[2] <= 0]
        assert not unanswered, f"{len(unanswered)} requests were never answered: {unanswered[:3]}"
        unexpected = sorted({answer[2] for answer in answers} - {200, 201, 503})
        assert not unexpected, [answer[2:] for answer in answers if answer[2] in unexpected][:3]
        for instance in instances:
            assert instance.alive(), instance.log.read_text()[-3000:]
        stored = set(postgres.query("SELECT id FROM intake"))
        lost = {drink for drink in load.acknowledged if drink.upper() not in stored and drink.lower() not in stored}
        assert load.acknowledged and not lost, f"{len(lost)} of {len(load.acknowledged)} acknowledged drinks are missing"
        # SIGTERM with the database gone: requests in flight are answered and the instance stops in time.
        postgres.kill()
        waiting = [threading.Thread(target=request, args=(instances[0].port, "GET", "/api/v1/today", None, secret)) for _ in range(4)]
        for thread in waiting:
            thread.start()
        time.sleep(0.2)
        started = time.monotonic()
        instances[0].process.send_signal(signal.SIGTERM)
        code = instances[0].process.wait(timeout=40)
        assert time.monotonic() - started < 30, "SIGTERM took longer than 30 seconds with the database gone"
        assert code == 0, instances[0].log.read_text()[-3000:]
    finally:
        for instance in instances:
            instance.stop()


def test_a_restart_under_load(tmp_path, postgres):
    """A fast restart (PostgreSQL back within a second) under load, twice: every request is
    answered 200, 201 or 503 (a query on a connection the restart ended was a 500), none later
    than 2.5 s (a query written as the restart closed its connection waited out the whole
    deadline, 5 s), and writes succeed again within 2.5 s of the database's return."""
    secret = ada_token(postgres)
    instances = [Instance(postgres.url, tmp_path / f"serve{index}.log", deadline=5) for index in range(2)]
    load = Load(instances, secret)
    try:
        for _ in range(2):
            time.sleep(1.5)
            restarted = time.monotonic()
            postgres.restart()
            back = time.monotonic()
            assert back - restarted < 1.5, f"the restart itself took {back - restarted:.2f} s"
            while not [answer for answer in load.since(back) if answer[2] == 201]:
                assert time.monotonic() - back < 2.5, "no write succeeded within 2.5 s of the database's return"
                time.sleep(0.05)
            # Long enough for a request that waits out the deadline to have been answered.
            time.sleep(6.5)
            around = [answer for answer in load.since(restarted - 0.5) if answer[0] < back + 1]
            assert around, "no request was made around the restart"
            longest = max(answer[1] for answer in around)
            assert longest <= 2.5, f"a request begun around the restart took {longest:.2f} s: {sorted({a[2] for a in around})}"
    finally:
        load.stop()
        for instance in instances:
            instance.stop()
    assert sorted({answer[2] for answer in load.answers} - {200, 201, 503}) == [], [a[2:] for a in load.answers if a[2] not in (200, 201, 503)][:3]


def test_sigterm_just_after_a_restart(tmp_path, postgres):
    """SIGTERM a moment after a fast restart of PostgreSQL, under load: what is in flight is
    answered at once (the requests whose connections the restart closed used to wait out the
    5-second deadline, and the instance with them), and both instances exit within 2.5 s."""
    secret = ada_token(postgres)
    instances = [Instance(postgres.url, tmp_path / f"serve{index}.log", deadline=5) for index in range(2)]
    load = Load(instances, secret)
    try:
        time.sleep(1.5)
        restarted = time.monotonic()
        postgres.restart()
        time.sleep(0.05)
        signalled = time.monotonic()
        for instance in instances:
            instance.process.send_signal(signal.SIGTERM)
        for instance in instances:
            assert instance.process.wait(timeout=40) == 0, instance.log.read_text()[-3000:]
        took = time.monotonic() - signalled
    finally:
        load.stop()
        for instance in instances:
            instance.stop()
    assert took < 2.5, f"SIGTERM just after a restart took {took:.2f} s"
    around = [answer for answer in load.since(restarted - 0.5)]
    assert around, "no request was made around the restart"
    longest = max(answer[1] for answer in around)
    assert longest <= 2.5, f"a request begun around the restart took {longest:.2f} s: {[a[2:] for a in around if a[1] > 2.5][:2]}"


def test_sigterm_after_an_outage_is_as_without_one(tmp_path, postgres):
    """An instance that lived through a restart of PostgreSQL stops on SIGTERM as one that saw
    none: the requests in flight are answered (never 503: the pool made after the outage is not
    shut down before them) and it exits within two seconds."""
    secret = ada_token(postgres)
    instance = Instance(postgres.url, tmp_path / "serve.log")
    # Under load, so that requests meet the outage and the instance makes a new pool after it.
    load = Load([instance], secret, threads=4)
    try:
        time.sleep(0.5)
        postgres.kill()
        time.sleep(DEADLINE + 0.5)
        postgres.start()
        back = time.monotonic()
        while not [answer for answer in load.since(back + 0.5) if answer[2] == 201]:
            assert time.monotonic() - back < 5, "no write succeeded within 5 s of the database's return"
            time.sleep(0.05)
        assert request(instance.port, "GET", "/health")[0] == 200
        assert any(answer[2] == 503 for answer in load.answers), "no request met the outage"
        time.sleep(1)
        since = time.monotonic()
        signalled = time.monotonic()
        instance.process.send_signal(signal.SIGTERM)
        code = instance.process.wait(timeout=40)
        took = time.monotonic() - signalled
    finally:
        load.stop()
        instance.stop()
    assert code == 0, instance.log.read_text()[-3000:]
    assert took < 2, f"SIGTERM after an outage took {took:.2f} s"
    # 0: the connection was refused, the listener being closed (no request was made).
    failed = [answer[2:] for answer in load.since(since) if answer[2] not in (0, 200, 201)]
    assert not failed, f"answers around SIGTERM after an outage: {failed[:3]}"


class Stream:
    """A day's stream of changes (server-sent events), read on a thread: the revisions it names."""

    def __init__(self, port, secret, day):
        self.revisions = []
        self.ended = threading.Event()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=90)
        self.connection.request("GET", f"/api/v1/days/{day}/changes",
                                headers={"Accept": "text/event-stream", "Authorization": f"Bearer {secret}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    self.revisions.append(json.loads(line[6:])["revision"])
        except (OSError, ValueError, AttributeError):  # closed by the test (http.client then has no socket)
            pass
        self.ended.set()

    def wait_for(self, count, seconds):
        deadline = time.monotonic() + seconds
        while len(self.revisions) < count and time.monotonic() < deadline and not self.ended.is_set():
            time.sleep(0.02)
        return len(self.revisions) >= count

    def close(self):
        self.connection.close()


def test_live_updates_cross_instances_and_survive_a_restart(tmp_path, postgres):
    """A drink logged through one instance reaches a stream open on the other within a second
    (PostgreSQL's NOTIFY, not a poll); after PostgreSQL restarts, the listener listens again, and
    a stream opened then hears the next drink as fast."""
    secret = ada_token(postgres)
    today = time.strftime("%Y-%m-%d", time.gmtime())
    writer, follower = [Instance(postgres.url, tmp_path / f"serve{index}.log") for index in range(2)]
    try:
        stream = Stream(follower.port, secret, today)
        assert stream.wait_for(1, 5), "the stream starts with the revision"
        logged = time.monotonic()
        assert request(writer.port, "POST", "/api/v1/intakes", {"volumeMl": 250}, secret)[0] == 201
        assert stream.wait_for(2, 5), "the other instance's stream heard the drink"
        assert time.monotonic() - logged < 1.0, f"heard after {time.monotonic() - logged:.2f} s"
        stream.close()

        postgres.kill()
        time.sleep(2)
        postgres.start()
        back = time.monotonic()
        for instance in (writer, follower):
            while request(instance.port, "GET", "/health")[0] != 200:
                assert time.monotonic() - back < 10, "/health not ready within 10 s of the database's return"
                time.sleep(0.05)
        # The listener connects again a second after it lost its connection, and retries each
        # second while the database is away.
        time.sleep(3)
        stream = Stream(follower.port, secret, today)
        assert stream.wait_for(1, 5)
        logged = time.monotonic()
        assert request(writer.port, "POST", "/api/v1/intakes", {"volumeMl": 250}, secret)[0] == 201
        assert stream.wait_for(2, 5), f"no change heard after the restart:\n{follower.log.read_text()[-3000:]}"
        assert time.monotonic() - logged < 1.0, f"heard after {time.monotonic() - logged:.2f} s"
        assert stream.revisions[1] > stream.revisions[0]
        stream.close()
    finally:
        writer.stop()
        follower.stop()
