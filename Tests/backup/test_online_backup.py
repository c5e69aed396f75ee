"""`tally backup` while the server runs and writes: drinks are logged through the API by several
threads without pause, a backup is taken in the middle, and the copy must open, pass SQLite's
integrity check, hold every drink that was acknowledged before the backup began, and be
consistent in itself (each day's kept total equals the sum of its drinks). A second backup to the
same file is refused and leaves it as it was; a PostgreSQL address is sent to pg_dump.
"""

import json
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

PASSWORD = "correct horse battery staple"


def tally(*arguments, database, stdin=None, check=True):
    done = subprocess.run([str(tally_process.binary()), *arguments, "--database", str(database)], input=stdin,
                          capture_output=True, text=True, timeout=120, env=tally_process.environment())
    if check:
        assert done.returncode == 0, f"tally {' '.join(arguments)}: {done.stderr}"
    return done


def test_a_backup_taken_under_load_holds_every_acknowledged_drink(tmp_path):
    live = tmp_path / "live.sqlite"
    copy = tmp_path / "backups" / "tally-copy.sqlite"
    tally("user", "create", "ada", "--time-zone", "UTC", database=live, stdin=PASSWORD + "\n")
    secret = json.loads(tally("token", "create", "--user", "ada", "--json", database=live).stdout)["secret"]

    acknowledged = []  # (monotonic time of the answer, drink id)
    lock = threading.Lock()
    stop = threading.Event()

    def log_drinks(base):
        while not stop.is_set():
            identifier = str(uuid.uuid4())
            request = urllib.request.Request(
                base + "/api/v1/intakes", method="POST", data=json.dumps({"volumeMl": 100, "id": identifier}).encode(),
                headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 201
            with lock:
                acknowledged.append((time.monotonic(), identifier))

    with tally_process.serve(live, tmp_path / "serve.log", tally_process.environment()) as base:
        writers = [threading.Thread(target=log_drinks, args=(base,)) for _ in range(4)]
        for writer in writers:
            writer.start()
        time.sleep(1.5)
        began = time.monotonic()
        backup = tally("backup", str(copy), "--json", database=live)
        ended = time.monotonic()
        time.sleep(0.5)  # writes go on after the backup too
        stop.set()
        for writer in writers:
            writer.join()

    report = json.loads(backup.stdout)
    assert report["integrity"] == "ok" and report["bytes"] == copy.stat().st_size
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    before = {identifier for at, identifier in acknowledged if at < began}
    during_or_after = [identifier for at, identifier in acknowledged if at > ended]
    assert len(before) > 20 and during_or_after, "the load did not run on both sides of the backup"

    with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as database:
        assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {str(uuid.UUID(bytes=row[0])) for row in database.execute("SELECT id FROM intake")}
        kept = dict(database.execute("SELECT day, totalMl FROM dayTotal"))
        summed = dict(database.execute("SELECT day, sum(effectiveMl) FROM intake GROUP BY day"))
    assert before <= stored, f"{len(before - stored)} acknowledged drinks are missing from the backup"
    assert kept == summed
    # The copy is a whole Tally database: it opens as one and shows the same day.
    day = json.loads(tally("today", "--json", "--user", "ada", database=copy).stdout)
    assert day["totalMl"] == 100 * len(stored)

    # A second backup to the same file is refused and leaves it alone.
    unchanged = copy.read_bytes()
    again = tally("backup", str(copy), database=live, check=False)
    assert again.returncode == 3 and "exists already" in again.stderr
    assert copy.read_bytes() == unchanged


def test_a_backup_names_what_it_cannot_copy(tmp_path):
    missing = tally("backup", str(tmp_path / "copy.sqlite"), database=tmp_path / "none.sqlite", check=False)
    assert missing.returncode == 2 and "There is no database at" in missing.stderr
    assert not (tmp_path / "none.sqlite").exists() and not (tmp_path / "copy.sqlite").exists()
    postgres = tally("backup", str(tmp_path / "copy.sqlite"), database="postgres://tally:secret@127.0.0.1/tally", check=False)
    assert postgres.returncode == 1 and "pg_dump" in postgres.stderr and "secret" not in postgres.stderr


def test_a_backup_is_restored_only_while_no_server_runs(tmp_path):
    live = tmp_path / "live.sqlite"
    backup = tmp_path / "backup.sqlite"
    tally("drink", "300", database=live)
    tally("backup", str(backup), database=live)
    tally("drink", "200", database=live)  # after the backup: the restore takes it away

    with tally_process.serve(live, tmp_path / "serve.log", tally_process.environment()):
        refused = tally("restore-server", str(backup), database=live, check=False)
        assert refused.returncode == 3 and "A server is running on" in refused.stderr
    assert json.loads(tally("today", "--json", database=live).stdout)["totalMl"] == 500

    restored = json.loads(tally("restore-server", str(backup), "--json", database=live).stdout)
    assert json.loads(tally("today", "--json", database=live).stdout)["totalMl"] == 300
    kept = Path(restored["keptAside"])
    assert kept.name.startswith("live.sqlite.before-restore-")
    assert json.loads(tally("today", "--json", database=kept).stdout)["totalMl"] == 500
    assert stat.S_IMODE(live.stat().st_mode) == 0o600
    assert backup.exists()


def test_what_is_not_a_tally_backup_is_refused_and_nothing_moves(tmp_path):
    live = tmp_path / "live.sqlite"
    tally("drink", "300", database=live)
    before = sorted(path.name for path in tmp_path.iterdir())
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list: water\n")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as database:
        database.execute("CREATE TABLE t (x)")
    for bad in (notes, other):
        done = tally("restore-server", str(bad), database=live, check=False)
        assert done.returncode == 1 and "is not a Tally database" in done.stderr, done.stderr
    missing = tally("restore-server", str(tmp_path / "none.sqlite"), database=live, check=False)
    assert missing.returncode == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(before + ["notes.txt", "other.sqlite"])
    assert json.loads(tally("today", "--json", database=live).stdout)["totalMl"] == 300
