"""What a killed server leaves of the uploads it was receiving: their temporary files stay in its
own upload folder (tally-uploads-PORT in its temporary folder), and the next server on that port
empties it as it starts listening, however recent the files are. Before, they waited an hour in
the temporary folder, 4 to 26 MB each.
"""

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)


def start(database, port, log, env):
    process = subprocess.Popen([str(tally_process.binary()), "serve", "--host", "127.0.0.1", "--port", str(port),
                                "--database", str(database)], stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("tally serve did not answer /health")


def test_a_killed_upload_is_removed_by_the_next_start(tmp_path):
    database = tmp_path / "tally.sqlite"
    ada = tally_process.person(database, "ada")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = tally_process.environment(TMPDIR=str(temporary))
    port = tally_process.free_port()
    folder = temporary / f"tally-uploads-{port}"
    other = temporary / "tally-uploads-1"  # another server's, on another port
    other.mkdir()
    (other / "tally-health-theirs").write_bytes(b"x")
    with open(tmp_path / "first.log", "wb") as log:
        server = start(database, port, log, env)
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"POST /api/v1/import/apple-health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ada}\r\n"
                     f"Content-Type: application/zip\r\nContent-Length: 50000000\r\n\r\n".encode() + b"PK\x03\x04" + b"\x00" * (4 << 20))
        deadline = time.monotonic() + 10
        while not any(folder.glob("tally-health-*")) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = list(folder.glob("tally-health-*"))
        assert left, f"the upload was not being written to {folder}: {list(temporary.rglob('*'))}"
        server.send_signal(signal.SIGKILL)
        server.wait()
        sock.close()
    assert all(file.exists() for file in left), "a killed server removed its files itself"
    with open(tmp_path / "second.log", "wb") as log:
        server = start(database, port, log, env)
        try:
            assert not any(folder.iterdir()), list(folder.iterdir())
            assert (other / "tally-health-theirs").exists(), "another server's upload was removed"
            assert oct(folder.stat().st_mode & 0o777) == "0o700"
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=15)
    assert "unfinished upload(s) left by an earlier run" in (tmp_path / "second.log").read_text()
