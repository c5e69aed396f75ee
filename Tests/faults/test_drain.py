"""The last requests before SIGTERM (A6): a request a client sent on an open keep-alive
connection just before the signal, or in the moment after it, gets its answer, with
`Connection: close`, instead of a reset; the server still exits at once with code 0.
"""

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally)

HEALTH = b"GET /health HTTP/1.1\r\nHost: tally\r\n\r\n"


def answer(connection):
    """The first line and headers of the answer on `connection`, or what went wrong instead."""
    received = b""
    try:
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                return "closed with no answer"
            received += chunk
    except OSError as error:
        return type(error).__name__
    return received.split(b"\r\n\r\n")[0].decode().lower()


def test_requests_sent_at_the_signal_are_answered(tmp_path):
    port = tally_process.free_port()
    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(
            [str(tally_process.binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--database", str(tmp_path / "t.sqlite")],
            stdout=log, stderr=subprocess.STDOUT, env=tally_process.environment())
    try:
        connections = []
        deadline = time.monotonic() + 30
        while len(connections) < 12:
            assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            except OSError:
                time.sleep(0.1)
                continue
            connection.sendall(HEALTH)
            assert answer(connection).startswith("http/1.1 200"), "a keep-alive connection is opened"
            connections.append(connection)
        time.sleep(0.2)
        # A third are sent just before the signal, a third with it, a third a tenth of a second
        # after it (without the grace, their connections were closed by then).
        for connection in connections[:4]:
            connection.sendall(HEALTH)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        for connection in connections[4:8]:
            connection.sendall(HEALTH)
        time.sleep(0.1)
        for connection in connections[8:]:
            connection.sendall(HEALTH)
        answers = [answer(connection) for connection in connections]
        code = process.wait(timeout=15)
        took = time.monotonic() - signalled
    finally:
        if process.poll() is None:
            process.kill()
    unanswered = [text for text in answers if not text.startswith("http/1.1 200")]
    assert not unanswered, f"{len(unanswered)} of {len(answers)} requests sent around SIGTERM got no answer: {unanswered[:3]}"
    assert all("connection: close" in text for text in answers[8:]), "an answer after the signal says the connection closes"
    assert code == 0, (tmp_path / "serve.log").read_text()
    assert took < 2, f"the server took {took:.2f} s to exit"
