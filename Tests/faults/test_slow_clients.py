"""Clients that send slowly, met by a running `tally serve`: a request's head that arrives a byte
at a time is cut off 10 seconds after the connection opened (the idle timeout never comes, as
the connection is never idle), while /health keeps answering; a kept-alive connection that asks
again within that time is served. Before, a thousand such sockets kept /health from answering.
"""

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
