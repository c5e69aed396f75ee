"""Clients that send slowly, met by a running `tally serve`: a request's head that arrives a byte
at a time is cut off 10 seconds after the connection opened (the idle timeout never comes, as
the connection is never idle), while /health keeps answering; a kept-alive connection that asks
again within that time is served. Before, a thousand such sockets kept /health from answering.
An upload's body that trickles in is cut off too, and holds no place meanwhile.
"""

import json
import socket
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

HEAD_TIMEOUT = 10


def connect(base):
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=30)


def closed_by_server(sock):
    """Whether the server has closed `sock` (a read gives nothing, or the connection is reset)."""
    try:
        sock.settimeout(0.05)
        return sock.recv(1024) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def test_a_slow_head_is_cut_off_and_health_answers(tmp_path):
    with tally_process.serve(tmp_path / "tally.sqlite", tmp_path / "serve.log", tally_process.environment()) as base:
        slow = []
        for _ in range(50):
            sock = connect(base)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        started = time.monotonic()
        # One header byte every second from each: never idle, never done.
        cut = {}
        while len(cut) < len(slow) and time.monotonic() - started < HEAD_TIMEOUT + 8:
            for index, sock in enumerate(slow):
                if index in cut:
                    continue
                try:
                    sock.sendall(b"X")
                except OSError:
                    cut[index] = time.monotonic() - started
                    continue
                if closed_by_server(sock):
                    cut[index] = time.monotonic() - started
            with urllib.request.urlopen(base + "/health", timeout=5) as answer:
                assert answer.status == 200
            time.sleep(1)
        assert len(cut) == len(slow), f"{len(slow) - len(cut)} slow heads were still open after {HEAD_TIMEOUT + 8} s"
        assert max(cut.values()) <= HEAD_TIMEOUT + 4, f"cut off after {max(cut.values()):.1f} s"
        assert min(cut.values()) >= HEAD_TIMEOUT - 1, f"cut off after {min(cut.values()):.1f} s, before its time"

        # A kept-alive connection that asks again soon is answered each time.
        sock = connect(base)
        for _ in range(3):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                answer += sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 200"), answer
            time.sleep(HEAD_TIMEOUT / 3)
        sock.close()






def test_trickled_uploads_hold_no_place(tmp_path):
    """Two people send a receipt of 10 MB a byte every 2 seconds: everyone else's receipts and
    imports go ahead meanwhile, and the trickles are cut off (408) once a 20-second window has
    brought less than 16 KiB. Before, they held the server's two upload places for as long as
    they liked, and every other upload got 429."""
    database = tmp_path / "tally.sqlite"
    tricklers = [tally_process.person(database, name) for name in ("mallory", "trudy")]
    ada = tally_process.person(database, "ada")
    with tally_process.serve(database, tmp_path / "serve.log", tally_process.environment()) as base:
        sockets = []
        for secret in tricklers:
            path = tally_process.receipt_path(base, secret)
            sock = connect(base)
            sock.sendall(f"PUT {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n"
                         f"Content-Type: image/jpeg\r\nContent-Length: 10000000\r\n\r\n".encode() + b"\xff\xd8\xff")
            sockets.append(sock)
        started = time.monotonic()
        photo = (Path(__file__).resolve().parents[1] / "TallyServerTests" / "Fixtures" / "Receipts" / "gps.jpg").read_bytes()
        bills = json.dumps([{"what": "Tea", "bill_type": "Expense", "amount": 4.0, "currency": "EUR", "date": "2024-05-01",
                             "payer_name": "Ana", "payer_weight": 1.0, "owers": ["Ana", "Bob"]}]).encode()
        answers = {}
        while len(answers) < len(sockets) and time.monotonic() - started < 60:
            for index, sock in enumerate(sockets):
                if index in answers:
                    continue
                try:
                    sock.sendall(b"\x00")
                    sock.settimeout(0.05)
                    answers[index] = (sock.recv(4096) or b"closed", time.monotonic() - started)
                except socket.timeout:
                    pass
                except OSError as error:
                    answers[index] = (str(error).encode(), time.monotonic() - started)
            if time.monotonic() - started < 15:
                status, entry = tally_process.send(base, ada, "PUT", tally_process.receipt_path(base, ada), photo, "image/jpeg")
                assert status == 200, entry
                status, report = tally_process.send(base, ada, "POST", "/api/v1/ledgers/import/ihatemoney", bills)
                assert status == 201, report
            time.sleep(2)
        for sock in sockets:
            sock.close()
        assert len(answers) == len(sockets), f"a trickle was still being read after {time.monotonic() - started:.0f} s"
        for answer, seconds in answers.values():
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
            assert seconds <= 45, f"cut off after {seconds:.0f} s"


def test_an_aborted_upload_is_no_server_error(tmp_path):
    """A person who goes away halfway through a receipt: the log says 400, never 500."""
    database = tmp_path / "tally.sqlite"
    ada = tally_process.person(database, "ada")
    log = tmp_path / "serve.log"
    with tally_process.serve(database, log, tally_process.environment()) as base:
        path = tally_process.receipt_path(base, ada)
        sock = connect(base)
        sock.sendall(f"PUT {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ada}\r\n"
                     f"Content-Type: image/jpeg\r\nContent-Length: 10000000\r\n\r\n".encode() + b"\xff\xd8\xff" + b"\x00" * (1 << 20))
        time.sleep(0.5)
        sock.close()
        deadline = time.monotonic() + 10
        while f"PUT {path}" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        lines = [line for line in log.read_text().splitlines() if f"PUT {path}" in line]
        assert lines, "the aborted upload was not logged"
        assert all(" 500 " not in line for line in lines), lines
        assert any(" 400 " in line for line in lines), lines
