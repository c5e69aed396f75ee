"""What the OpenID Connect tests drive Tally with: `tally serve` set to sign people in through the
tests' provider (provider.py), and a browser made of `requests` that follows no redirect by
itself, so that every address and every cookie on the way can be looked at.

Nothing is built here: the tests use the binary that TALLY_BIN names (scripts/test sets it to the
debug build's `tally`), by default .build/debug/tally of this repository.
"""

import base64
import hashlib
import json
import re
import subprocess
import sys
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

CALLBACK = "/signin/oidc/callback"
PROVIDER_NAME = "Test ID"
# The server's first account, made with a password before it starts (its admin).
ADMIN = ("ada", "correct horse battery staple")
# Where the server sends someone it knows after signing in: its today page, which is "/" (the
# contract of the sign-in calls it /today).
TODAY = ("/", "/today")


class Tally:
    """One `tally serve` of the tests, with its database, log and environment."""

    def __init__(self, base, database, log, env):
        self.base, self.database, self.log, self.env = base, database, log, env

    @property
    def callback(self):
        return self.base + CALLBACK

    def cli(self, *args, input=None):
        done = subprocess.run([str(tally_process.binary()), *args, "--database", str(self.database)],
                              input=input, text=True, capture_output=True, env=tally_process.environment())
        assert done.returncode == 0, f"tally {' '.join(args)} exited with {done.returncode}:\n{done.stdout}{done.stderr}"
        return done.stdout

    def users(self):
        """The names of the accounts, as `tally user list` gives them."""
        return sorted(user["name"] for user in json.loads(self.cli("user", "list", "--json")))

    def server_invite(self):
        return json.loads(self.cli("server", "invite", "--json"))["code"]

    def browser(self):
        return Browser(self)


def start_tally(folder, provider, signup="open", password_signin=True, oidc=True):
    """`tally serve` (a context manager yielding a `Tally`) on a new database whose admin is
    ADMIN, sign-up as `signup` says, signing in through `provider`."""
    database = folder / "t.sqlite"
    plain = tally_process.environment()
    tally = str(tally_process.binary())
    subprocess.run([tally, "user", "create", ADMIN[0], "--database", str(database)], input=ADMIN[1] + "\n",
                   text=True, check=True, capture_output=True, env=plain)
    subprocess.run([tally, "server", "signup", signup, "--database", str(database)],
                   check=True, capture_output=True, env=plain)
    settings = {}
    if oidc:
        settings.update(TALLY_OIDC_ISSUER=provider.issuer, TALLY_OIDC_CLIENT_ID=provider.client_id,
                        TALLY_OIDC_CLIENT_SECRET=provider.client_secret, TALLY_OIDC_NAME=PROVIDER_NAME)
    if not password_signin:
        settings["TALLY_PASSWORD_SIGNIN"] = "off"
    env = tally_process.environment(**settings)

    @contextmanager
    def running():
        with tally_process.serve(database, folder / "serve.log", env) as base:
            yield Tally(base, database, folder / "serve.log", env)

    return running()


# -- a browser that steps through redirects itself ------------------------------------------------

def set_cookies(response):
    """The Set-Cookie headers of `response`: name → (value, attributes in lower case)."""
    found = {}
    for header in response.raw.headers.getlist("Set-Cookie"):
        first, _, rest = header.partition(";")
        name, _, value = first.strip().partition("=")
        found[name] = (value, rest.lower())
    return found


def location(response):
    return response.headers.get("Location", "")


def path_of(url):
    """The path of `url` (absolute or not), with its query when it has one."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True))


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def excerpt(response, size=600):
    """Status and body of `response` for an assertion's message: of a page, its main part
    (where a refusal's sentence is) without tags."""
    text = response.text
    main = re.search(r"<main\b.*?</main>", text, flags=re.S)
    if main:
        text = re.sub(r"<[^>]+>", " ", main.group(0))
    text = re.sub(r"\s+", " ", text).strip()
    return f"{response.request.method} {response.url} → {response.status_code} {location(response)}: {text[:size]}"


class Flow:
    """One sign-in through the provider, step by step: `start` (Tally's answer to the start),
    `authorize` (the provider's), `callback` (Tally's answer to the callback) and their
    addresses, and the flow cookie Tally set at the start."""
    start = authorize = callback = None
    authorize_url = callback_url = flow_cookie = None


class Browser:
    """A `requests.Session` as a browser without JavaScript: cookies kept, redirects not followed."""

    def __init__(self, tally):
        self.tally = tally
        self.session = requests.Session()
        self.session.headers.update({
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) tally-oidc-tests",
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        })

    def url(self, path):
        return path if path.startswith("http") else self.tally.base + path

    def get(self, path, **kwargs):
        return self.session.get(self.url(path), allow_redirects=False, timeout=30, **kwargs)

    def post(self, path, data=None, **kwargs):
        headers = {"Origin": self.tally.base, **kwargs.pop("headers", {})}
        return self.session.post(self.url(path), data=data, headers=headers, allow_redirects=False, timeout=30, **kwargs)

    def cookie(self, name):
        return next((c.value for c in self.session.cookies if c.name == name and c.value), None)

    def page_csrf(self, path):
        """The CSRF token that the page at `path` puts in its forms."""
        page = self.get(path)
        assert page.status_code == 200, excerpt(page)
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found, f"no csrf field on {path}: {excerpt(page)}"
        return found.group(1)

    def me(self):
        """The signed-in user as /api/v1/me answers (None when it answers 401)."""
        response = self.session.get(self.url("/api/v1/me"), headers={"Accept": "application/json"},
                                    allow_redirects=False, timeout=30)
        if response.status_code == 401:
            return None
        assert response.status_code == 200, excerpt(response)
        return response.json()

    def api(self, method, path, body=None):
        """An API call with the session cookie and the session's CSRF token."""
        csrf = self.page_csrf("/account")
        response = self.session.request(method, self.url(path), json=body, timeout=30, allow_redirects=False,
                                        headers={"Accept": "application/json", "X-CSRF-Token": csrf})
        assert response.status_code in (200, 201), excerpt(response)
        return response.json()

    def sign_in_with_password(self, name, password):
        self.get("/signin")
        response = self.post("/signin", {"name": name, "password": password, "csrf": self.cookie("tally_csrf") or ""})
        assert response.status_code == 303, excerpt(response)
        return response

    def sign_up_with_password(self, name, password):
        self.get("/signup")
        response = self.post("/signup", {"name": name, "password": password, "csrf": self.cookie("tally_csrf") or "",
                                         "timeZone": "Europe/Berlin"})
        assert response.status_code == 303, excerpt(response)
        return response

    def sign_out(self):
        response = self.post("/signout", {"csrf": self.page_csrf("/account")})
        assert response.status_code == 303, excerpt(response)
        assert self.me() is None

    def through_provider(self, start, follow=True):
        """`start` is Tally's answer that sends the browser to the provider: the provider's
        answer is followed to Tally's callback (unless `follow` is false), whose answer ends the
        flow."""
        flow = Flow()
        flow.start = start
        assert start.status_code == 303, excerpt(start)
        flow.authorize_url = location(start)
        flow.flow_cookie = set_cookies(start).get("tally_oidc", (None, ""))[0]
        flow.authorize = self.session.get(flow.authorize_url, allow_redirects=False, timeout=30)
        assert flow.authorize.status_code == 302, excerpt(flow.authorize)
        flow.callback_url = location(flow.authorize)
        if follow:
            flow.callback = self.get(flow.callback_url)
        return flow

    def sign_in_with_provider(self, query=None, follow=True):
        """GET /signin/oidc (with `query`) and on through the provider back to Tally."""
        start = self.get("/signin/oidc" + (f"?{urllib.parse.urlencode(query)}" if query else ""))
        return self.through_provider(start, follow)
