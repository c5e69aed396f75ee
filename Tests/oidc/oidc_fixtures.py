"""Fixtures of the OpenID Connect tests: the tests' provider (provider.py), running in this
process, and a `tally serve` for each way of signing up (open, by invite, closed, and open with
local passwords off), each set to sign people in through the provider. What drives them is in
oidc_browser.py.

The test modules import these fixtures by name. They are not in a conftest.py: Tests/browser's
modules import helpers `from conftest`, and with a second conftest.py in the same pytest run that
name would be this folder's.
"""

import itertools
import secrets

import pytest

from oidc_browser import CALLBACK, start_tally
from provider import Provider


@pytest.fixture(scope="module")
def provider():
    """The provider, running for the module; its client's secret is made here, and its redirect
    URI is set to a Tally server's by each test (see `use`)."""
    with Provider(client_secret="oidc-client-secret-" + secrets.token_urlsafe(24),
                  redirect_uri="http://127.0.0.1:1" + CALLBACK) as running:
        yield running


@pytest.fixture(scope="module")
def open_server(provider, tmp_path_factory):
    """Sign-up open to anyone."""
    with start_tally(tmp_path_factory.mktemp("open"), provider) as tally:
        yield tally


@pytest.fixture(scope="module")
def invite_server(provider, tmp_path_factory):
    """Sign-up by invite only."""
    with start_tally(tmp_path_factory.mktemp("invite"), provider, signup="invite") as tally:
        yield tally


@pytest.fixture(scope="module")
def closed_server(provider, tmp_path_factory):
    """Sign-up closed: the admin's accounts only."""
    with start_tally(tmp_path_factory.mktemp("closed"), provider, signup="closed") as tally:
        yield tally


@pytest.fixture(scope="module")
def passwordless_server(provider, tmp_path_factory):
    """Sign-up open, local passwords off (TALLY_PASSWORD_SIGNIN=off)."""
    with start_tally(tmp_path_factory.mktemp("nopassword"), provider, password_signin=False) as tally:
        yield tally


@pytest.fixture
def use(provider):
    """`use(tally)`: the provider, reset (RS256, no tampering, no error, empty logs), with its
    client's redirect URI set to that server's callback; returns the server."""
    def pointed_at(tally):
        provider.reset()
        provider.redirect_uri = tally.callback
        return tally
    yield pointed_at
    provider.reset()


_numbers = itertools.count(1)


@pytest.fixture
def person(provider):
    """`person(username=None, **claims)`: a new provider user (a sub no one has) signed in by
    /authorize from now on; returns (sub, preferred_username)."""
    def make(username=None, **claims):
        number = next(_numbers)
        sub = f"sub-{secrets.token_hex(8)}"
        username = username or f"oidc-user-{number}"
        provider.next_user(sub, preferred_username=username, **claims)
        return sub, username
    return make


