"""deploy/nginx-tally.conf, run: nginx with TLS (a certificate made here) in front of `tally serve`
on loopback, trusted as the README says (TALLY_TRUSTED_PROXY). Through it:
plain HTTP is sent to HTTPS; its log keeps no query and no secret path; answers carry HSTS and a session cookie that is Secure (Tally
believes the X-Forwarded-Proto the site file sends); and an open page's live updates arrive at
once, not when the stream ends a minute later (Tally's X-Accel-Buffering says so, and the site
file too).
"""

import json
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
import urllib3

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402

SITE = tally_process.REPO / "deploy" / "nginx-tally.conf"
USER = ("ada", "correct horse battery staple")

urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)


def nginx():
    command = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if not command:
        pytest.fail("nginx is missing: apt-get install nginx-light")
    return command


def site(tally_port, https_port, http_port, certificate, key, log):
    """The README's site file with this test's names, ports and certificate."""
    text = SITE.read_text()
    text = re.sub(r"\n\s*listen \[::\]:\d+[^\n]*", "", text)
    text = text.replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl").replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    text = text.replace("/etc/letsencrypt/live/tally.example.com/fullchain.pem", str(certificate))
    text = text.replace("/etc/letsencrypt/live/tally.example.com/privkey.pem", str(key))
    text = text.replace("/var/log/nginx/tally.access.log", str(log))
    text = text.replace("tally.example.com", "localhost").replace("127.0.0.1:8080", f"127.0.0.1:{tally_port}")
    assert f"127.0.0.1:{tally_port}" in text and str(certificate) in text, text
    return text


@contextmanager
def running_nginx(folder, site_text):
    folder.chmod(0o755)
    temporary = folder / "nginx-temp"
    temporary.mkdir(mode=0o777)
    temporary.chmod(0o777)
    (folder / "site.conf").write_text(site_text)
    (folder / "nginx.conf").write_text(f"""
        pid {folder}/nginx.pid;
        error_log {folder}/nginx-error.log;
        worker_processes 1;
        events {{}}
        http {{
            access_log off;
            client_body_temp_path {temporary}/body;
            proxy_temp_path {temporary}/proxy;
            fastcgi_temp_path {temporary}/fastcgi;
            uwsgi_temp_path {temporary}/uwsgi;
            scgi_temp_path {temporary}/scgi;
            include {folder}/site.conf;
        }}
    """)
    check = subprocess.run([nginx(), "-t", "-c", str(folder / "nginx.conf")], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen([nginx(), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proxy")
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    https_port, http_port = tally_process.free_port(), tally_process.free_port()
    database = folder / "t.sqlite"
    tally = str(tally_process.binary())
    plain = tally_process.environment()
    subprocess.run([tally, "user", "create", USER[0], "--database", str(database)], input=USER[1] + "\n",
                   text=True, check=True, capture_output=True, env=plain)
    made = subprocess.run([tally, "token", "create", "--user", USER[0], "--database", str(database), "--json"],
                          text=True, check=True, capture_output=True, env=plain)
    token = json.loads(made.stdout)["secret"]
    # No TALLY_PUBLIC_URL: that the answers know they went out over HTTPS comes from the headers
    # the site file makes nginx send.
    env = tally_process.environment(TALLY_TRUSTED_PROXY="127.0.0.1")
    with tally_process.serve(database, folder / "serve.log", env) as base:
        tally_port = int(base.rsplit(":", 1)[1])
        with running_nginx(folder, site(tally_port, https_port, http_port, certificate, key, folder / "access.log")):
            front = f"https://localhost:{https_port}"
            deadline = time.monotonic() + 10
            while True:
                try:
                    requests.get(front + "/health", verify=False, timeout=1)
                    break
                except requests.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            yield front, f"http://localhost:{http_port}", token, folder / "access.log"


def test_plain_http_goes_to_https_and_answers_say_https_only(proxied):
    front, plain, _, _ = proxied
    moved = requests.get(plain + "/signin", allow_redirects=False, timeout=5)
    assert moved.status_code == 301 and moved.headers["Location"] == "https://localhost/signin"
    health = requests.get(front + "/health", verify=False, timeout=5)
    assert health.status_code == 200
    assert health.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_the_session_cookie_is_secure_and_works_through_the_proxy(proxied):
    front, _, _, _ = proxied
    browser = requests.Session()
    page = browser.get(front + "/signin", verify=False, timeout=5)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    signed = browser.post(front + "/signin", data={"name": USER[0], "password": USER[1], "csrf": csrf},
                          allow_redirects=False, verify=False, timeout=10)
    assert signed.status_code == 303, signed.text[:300]
    cookie = next(c for c in signed.raw.headers.getlist("Set-Cookie") if c.startswith("tally_session="))
    assert "Secure" in cookie and "HttpOnly" in cookie
    # The session works through the proxy (the page of a signed-in person, not the sign-in page).
    account = browser.get(front + "/account", verify=False, allow_redirects=False, timeout=5)
    assert account.status_code == 200 and "Your account" in account.text


def test_live_updates_pass_through_at_once(proxied):
    front, _, token, _ = proxied
    started = time.monotonic()
    with requests.get(front + "/api/v1/days/2025-01-01/changes", verify=False, stream=True, timeout=10,
                      headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        received = b""
        for chunk in stream.iter_content(chunk_size=None):
            received += chunk
            if b"data:" in received:
                break
    assert b"revision" in received
    assert time.monotonic() - started < 5, "the stream's first event waited in the proxy"


def test_the_proxy_log_keeps_no_code_state_or_secret_path(proxied):
    front, _, _, log = proxied
    for path in ["/signin/oidc/callback?code=THE-CODE-123&state=THE-STATE-456", "/join/SECRETINVITE", "/calendar/SECRET-FEED.ics"]:
        requests.get(front + path, verify=False, allow_redirects=False, timeout=5)
    deadline = time.monotonic() + 5
    while "/calendar/" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    written = log.read_text()
    assert "/signin/oidc/callback" in written and "/join/-" in written and "/calendar/-" in written, written
    for secret in ["THE-CODE-123", "THE-STATE-456", "SECRETINVITE", "SECRET-FEED"]:
        assert secret not in written, written
