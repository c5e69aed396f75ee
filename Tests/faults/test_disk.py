"""A full disk and a database that cannot be written, met by a running `tally serve` (A5): each
write is answered 507 (full) or 503 (cannot write) with a sentence that says nothing was saved,
reads keep working, the failures are counted in /metrics and logged at most once a minute, and
writes resume by themselves once the cause is gone. A file system that fails under two writers
loses none of the drinks that were acknowledged (synchronous = FULL). All need root (mount,
chattr, losetup), as CI has.
"""

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

PASSWORD = "correct horse battery staple"
METRICS = "metrics for the fault tests"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: mount and chattr (CI runs as root)")


def tally(*arguments, database, stdin=None):
    done = subprocess.run([str(tally_process.binary()), *arguments, "--database", str(database)], input=stdin,
                          capture_output=True, text=True, timeout=120, env=tally_process.environment())
    assert done.returncode == 0, f"tally {' '.join(arguments)}: {done.stderr}"
    return done


def account(database):
    """A user with a token, on a new database."""
    tally("user", "create", "ada", "--time-zone", "UTC", database=database, stdin=PASSWORD + "\n")
    return json.loads(tally("token", "create", "--user", "ada", "--json", database=database).stdout)["secret"]


def call(base, secret, method, path, body=None):
    """(status, headers, parsed JSON body or text) of one API request."""
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, error.headers, error.read()
    try:
        return status, headers, json.loads(raw)
    except ValueError:
        return status, headers, raw.decode()


def drink(base, secret):
    return call(base, secret, "POST", "/api/v1/intakes", {"volumeMl": 100, "id": str(uuid.uuid4())})


def failures(base, kind):
    request = urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {METRICS}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("tally_storage_failures_total") and f'kind="{kind}"' in line)


@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB tmpfs, unmounted at the end."""
    folder = tmp_path / "disk"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_is_answered_507_and_writes_resume_once_there_is_room(tmp_path, small_disk):
    database = small_disk / "tally.sqlite"
    secret = account(database)
    environment = tally_process.environment(TALLY_METRICS_TOKEN=METRICS)
    log = tmp_path / "serve.log"
    with tally_process.serve(database, log, environment) as base:
        assert drink(base, secret)[0] == 201
        # Fill what is left of the disk.
        filler = small_disk / "filler"
        try:
            with open(filler, "wb", buffering=0) as out:
                while True:
                    out.write(b"\0" * 4096)
        except OSError:
            pass
        answers = [drink(base, secret) for _ in range(40)]
        full = [answer for answer in answers if answer[0] == 507]
        assert full, f"no write was refused on a full disk: {[answer[0] for answer in answers]}"
        assert all(answer[0] in (201, 507) for answer in answers), [answer[:1] + answer[2:] for answer in answers if answer[0] not in (201, 507)]
        status, headers, problem = full[0]
        assert "disk is full" in problem["detail"] and "nothing was saved" in problem["detail"], problem
        assert problem["title"] == "Insufficient Storage", problem
        assert headers["Retry-After"] == "60"
        # Reads go on; the failures are counted, and logged once.
        status, _, today = call(base, secret, "GET", "/api/v1/today")
        assert status == 200
        saved = len(today["entries"])
        assert saved == 1 + sum(1 for answer in answers if answer[0] == 201)
        assert failures(base, "full") >= len(full)
        # Room again: the next write goes through, with nothing else to do.
        filler.unlink()
        assert drink(base, secret)[0] == 201
        assert len(call(base, secret, "GET", "/api/v1/today")[2]["entries"]) == saved + 1
    logged = [line for line in log.read_text().splitlines() if "disk is full" in line]
    assert len(logged) == 1, logged


def test_a_database_that_cannot_be_written_is_answered_503_and_writes_resume(tmp_path):
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed (e2fsprogs)")
    database = tmp_path / "tally.sqlite"
    secret = account(database)
    environment = tally_process.environment(TALLY_METRICS_TOKEN=METRICS)
    with tally_process.serve(database, tmp_path / "serve.log", environment) as base:
        assert drink(base, secret)[0] == 201
        files = [str(path) for path in (database, Path(str(database) + "-wal")) if path.exists()]
        attributes = subprocess.run(["chattr", "+i", *files], capture_output=True, text=True)
        if attributes.returncode != 0:
            pytest.skip(f"this file system takes no immutable flag: {attributes.stderr}")
        try:
            status, headers, problem = drink(base, secret)
            assert status == 503, (status, problem)
            assert "cannot write to its database" in problem["detail"] and "nothing was saved" in problem["detail"], problem
            assert headers["Retry-After"] == "60"
            assert call(base, secret, "GET", "/api/v1/today")[0] == 200
            assert failures(base, "unavailable") >= 1
        finally:
            subprocess.run(["chattr", "-i", *files], check=True)
        assert drink(base, secret)[0] == 201
        assert len(call(base, secret, "GET", "/api/v1/today")[2]["entries"]) == 2


@pytest.fixture
def loop_disk(tmp_path):
    """A 64 MB ext4 file system on a loop device, mounted errors=remount-ro: (folder, device)."""
    if not Path("/sys/fs/ext4").exists() or shutil.which("losetup") is None or shutil.which("mkfs.ext4") is None:
        pytest.skip("needs ext4, losetup and mkfs.ext4")
    image = tmp_path / "disk.img"
    with open(image, "wb") as out:
        out.truncate(64 * 1024 * 1024)
    attached = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True)
    if attached.returncode != 0:
        pytest.skip(f"no loop device here: {attached.stderr}")
    device = attached.stdout.strip()
    folder = tmp_path / "loop"
    folder.mkdir()
    try:
        subprocess.run(["mkfs.ext4", "-q", device], check=True)
        subprocess.run(["mount", "-o", "errors=remount-ro", device, str(folder)], check=True)
        yield folder, device
    finally:
        subprocess.run(["umount", str(folder)], check=False)
        subprocess.run(["losetup", "-d", device], check=False)


def test_a_file_system_error_under_two_writers_loses_no_acknowledged_drink(tmp_path, loop_disk):
    folder, device = loop_disk
    database = folder / "tally.sqlite"
    secret = account(database)
    acknowledged, statuses, lock = set(), [], threading.Lock()
    failed = threading.Event()

    def writer(base):
        while not failed.is_set() or len([s for s in statuses if s != 201]) < 20:
            drink_id = str(uuid.uuid4())
            status, _, body = call(base, secret, "POST", "/api/v1/intakes", {"volumeMl": 100, "id": drink_id})
            with lock:
                statuses.append(status)
                if status == 201:
                    acknowledged.add(body["entry"]["id"])

    with tally_process.serve(database, tmp_path / "serve.log", tally_process.environment()) as base:
        writers = [threading.Thread(target=writer, args=(base,)) for _ in range(2)]
        for thread in writers:
            thread.start()
        time.sleep(2)
        # The kernel's own test of a failing disk: the file system goes read-only at once, and
        # what was only in the page cache never reaches the disk.
        Path(f"/sys/fs/ext4/{Path(device).name}/trigger_fs_error").write_text("1")
        failed.set()
        for thread in writers:
            thread.join(timeout=60)
    assert len(acknowledged) > 50, f"too few writes before the error: {len(acknowledged)}"
    assert set(statuses) <= {201, 503}, sorted(set(statuses))
    assert 503 in statuses
    # Unmounting drops the page cache: what is read after is what reached the disk.
    subprocess.run(["umount", str(folder)], check=True)
    subprocess.run(["e2fsck", "-fy", device], capture_output=True)
    subprocess.run(["mount", device, str(folder)], check=True)
    with tally_process.serve(database, tmp_path / "after.log", tally_process.environment()) as base:
        status, _, today = call(base, secret, "GET", "/api/v1/today")
    assert status == 200
    stored = {entry["id"] for entry in today["entries"]}
    lost = acknowledged - stored
    assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged drinks were lost"
