"""What open pages' live updates cost a server: run by bench/streams.sh (see there)."""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

PASSWORD = "correct horse battery staple"
PEOPLE = 50


def api(origin, method, path, secret, body=None):
    request = urllib.request.Request(origin + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path}: {error.code} {error.read().decode()}")


def prepare(tally, database):
    """Fifty people with a token each, all members of one ledger: what the streams follow."""
    environment = dict(os.environ, TALLY_DATABASE=database)
    secrets = []
    for index in range(PEOPLE):
        subprocess.run([tally, "user", "create", f"person{index}", "--time-zone", "UTC"], input=PASSWORD + "\n", text=True,
                       env=environment, check=True, capture_output=True)
        token = subprocess.run([tally, "token", "create", "--user", f"person{index}", "--json"], env=environment, check=True,
                               capture_output=True, text=True)
        secrets.append(json.loads(token.stdout)["secret"])
    return secrets


class Server:
    def __init__(self, tally, database, port, log):
        environment = dict(os.environ, TALLY_DATABASE=database, TALLY_TEST_STREAMS_PER_PERSON="1000", LOG_LEVEL="info")
        self.log = open(log, "wb")
        self.process = subprocess.Popen([tally, "serve", "--host", "127.0.0.1", "--port", str(port)], env=environment,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.origin = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(self.origin + "/health", timeout=1)
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"{tally} serve does not answer")

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Stream:
    """One page's EventSource: opened again when the server ends it, as a browser does."""

    def __init__(self, port, path, secret):
        self.port, self.path, self.secret = port, path, secret
        self.revision = None
        self.heard = asyncio.Event()
        self.opened = 0

    async def run(self):
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                await asyncio.sleep(1)
                continue
            self.opened += 1
            writer.write(f"GET {self.path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                         f"Authorization: Bearer {self.secret}\r\n\r\n".encode())
            try:
                while line := await reader.readline():
                    if line.startswith(b"data: "):
                        self.revision = json.loads(line[6:])["revision"]
                        self.heard.set()
            except (OSError, asyncio.IncompleteReadError):
                pass
            writer.close()
            await asyncio.sleep(1)  # EventSource's retry


async def measure(tally, database, secrets, ledger, count, label):
    port = free_port()
    server = Server(tally, database, port, database + f".{label}.{count}.log")
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    streams = []
    for index in range(count):
        person = index % PEOPLE
        # Half follow the ledger, half their own day.
        path = f"/api/v1/ledgers/{ledger}/changes" if index % 2 else f"/api/v1/days/{today}/changes"
        streams.append((person, Stream(port, path, secrets[person])))
    tasks = [asyncio.create_task(stream.run()) for _, stream in streams]
    started = time.monotonic()
    while not all(stream.revision is not None for _, stream in streams):
        await asyncio.sleep(0.1)
        if time.monotonic() - started > 60:
            # A build from before TALLY_TEST_STREAMS_PER_PERSON refuses past 20 a person.
            print(f"{label:8} {count:6} streams: only {sum(s.revision is not None for _, s in streams)} opened")
            for task in tasks:
                task.cancel()
            server.stop()
            return None, None
    opened = time.monotonic() - started
    await asyncio.sleep(2)
    idle_seconds = 20
    cpu = server.cpu_seconds()
    await asyncio.sleep(idle_seconds)
    idle = (server.cpu_seconds() - cpu) / idle_seconds

    # One expense, followed by half the streams; then a drink for each person, by the other half.
    loop = asyncio.get_running_loop()
    ledger_streams = [s for i, (_, s) in enumerate(streams) if i % 2]
    day_streams = [(p, s) for i, (p, s) in enumerate(streams) if not i % 2]
    before = {id(s): s.revision for _, s in streams}
    for _, stream in streams:
        stream.heard.clear()
    sent = time.monotonic()
    await loop.run_in_executor(None, api, server.origin, "POST", f"/api/v1/ledgers/{ledger}/expenses", secrets[0], {"amount": "4.20"})
    while any(s.revision == before[id(s)] for s in ledger_streams) and time.monotonic() - sent < 30:
        await asyncio.sleep(0.005)
    ledger_seen = time.monotonic() - sent
    sent = time.monotonic()
    await asyncio.gather(*[loop.run_in_executor(None, api, server.origin, "POST", "/api/v1/intakes", secret, {"volumeMl": 250})
                           for secret in secrets])
    while any(s.revision == before[id(s)] for _, s in day_streams) and time.monotonic() - sent < 30:
        await asyncio.sleep(0.005)
    day_seen = time.monotonic() - sent
    missed = sum(s.revision == before[id(s)] for _, s in streams)
    for task in tasks:
        task.cancel()
    server.stop()
    print(f"{label:8} {count:6} streams  opened in {opened:5.1f} s   idle {idle * 100:5.1f} % of a core"
          f"   an expense seen by all {len(ledger_streams)} in {ledger_seen:5.2f} s"
          f"   50 drinks seen by all {len(day_streams)} in {day_seen:5.2f} s" + (f"   MISSED {missed}" if missed else ""))
    return idle, max(ledger_seen, day_seen)


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def main():
    tally, before = sys.argv[1], sys.argv[2] or None
    counts = [int(count) for count in sys.argv[3:]] or [1000, 10000]
    folder = tempfile.mkdtemp(prefix="tally-streams-")
    database = os.path.join(folder, "streams.sqlite")
    secrets = prepare(tally, database)
    # The ledger everyone is in.
    server = Server(tally, database, free_port(), database + ".setup.log")
    ledger = api(server.origin, "POST", "/api/v1/ledgers", secrets[0], {"name": "Everyone", "currency": "EUR"})["id"]
    code = api(server.origin, "POST", f"/api/v1/ledgers/{ledger}/invite", secrets[0], {"uses": PEOPLE - 1})["inviteCode"]
    for index, secret in enumerate(secrets[1:], start=1):
        # The first takes the ledger's second member; the others join as someone new.
        api(server.origin, "POST", "/api/v1/ledgers/join", secret, {"code": code} if index == 1 else {"code": code, "name": f"person{index}"})
    server.stop()
    print(f"{PEOPLE} people, each with streams of their day and of the ledger they all share; idle over 20 s,"
          " with EventSource's reopening every 60 s; target: 1,000 streams idle at ≤ 5 % of a core, a change seen by all within 2 s")
    for count in counts:
        for label, binary in [("Tally", tally), ("before", before)]:
            if binary:
                idle, seen = await measure(binary, database, secrets, ledger, count, label)
                if label == "Tally" and count == 1000:
                    verdict = "met" if idle <= 0.05 and seen <= 2 else "MISSED"
                    print(f"         target {verdict}")


asyncio.run(main())
