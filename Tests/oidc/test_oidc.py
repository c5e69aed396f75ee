"""Signing in to Tally through an OpenID Connect provider (the tests' own, provider.py, built on
authlib), step by step as a browser without JavaScript goes: every redirect is looked at, with
its address and its cookies.

What is checked: the authorization request (PKCE with S256, state, nonce, the scopes), the token
request (the code's verifier, HTTP Basic, no secret in the address), where each sign-in lands and
as whom; that accounts are found by the provider's `sub`, never by name; that an ID token with a
forged signature, another audience, an expiry in the past, another nonce or another issuer is
refused with 401, and a replayed or forged callback with 400, without a session or an account;
sign-up by invite, a ledger's invite, linking an account from its page and unlinking it, local
passwords turned off; and that the server's log keeps none of the flow's secrets.
"""

import re
import secrets
import urllib.parse

import pytest
from joserfc import jws

from provider import Provider
from oidc_browser import (ADMIN, CALLBACK, PROVIDER_NAME, TODAY, excerpt, location, path_of, query_of, s256, set_cookies,
                          start_tally)
# The fixtures, by name (see oidc_fixtures.py for why they are not in a conftest.py).
from oidc_fixtures import (closed_server, invite_server, open_server, passwordless_server, person,  # noqa: F401
                           provider, use)

SIGN_IN_BUTTON = f"Sign in with {PROVIDER_NAME}"


def linked(browser):
    """Whether the account page says the account is linked to the provider: it offers to
    unlink it and no longer to link it."""
    page = browser.get("/account")
    assert page.status_code == 200, excerpt(page)
    unlink = 'action="/account/oidc/unlink"' in page.text
    link = 'action="/account/oidc"' in page.text
    assert unlink != link, f"the account page offers both or neither: {excerpt(page, 2000)}"
    return unlink


def provider_links(page):
    """The links of `page` to /signin/oidc: href (unescaped) → text."""
    links = {}
    for href, text in re.findall(r'<a\s[^>]*?href="(/signin/oidc[^"]*)"[^>]*>(.*?)</a>', page.text, flags=re.S):
        links[href.replace("&amp;", "&")] = re.sub(r"<[^>]+>|\s+", " ", text).strip()
    return links


def assert_signed_in(flow, landing):
    """The callback signed the browser in and sent it to `landing` (a path, or a tuple of them)."""
    answer = flow.callback
    assert answer.status_code == 303, excerpt(answer)
    where = path_of(location(answer))
    assert where in (landing if isinstance(landing, tuple) else (landing,)), excerpt(answer)
    cookies = set_cookies(answer)
    assert cookies.get("tally_session", ("",))[0], f"no session cookie: {answer.raw.headers.getlist('Set-Cookie')}"


def assert_refused(browser, flow, status, users_before, words=()):
    """The callback answered `status` with the sign-in page (HTML), set no session cookie, and
    made no account."""
    answer = flow.callback
    assert answer.status_code == status, excerpt(answer)
    assert answer.headers.get("Content-Type", "").startswith("text/html"), excerpt(answer)
    session = set_cookies(answer).get("tally_session", ("",))[0]
    assert not session, f"a session cookie was set on a refusal: {answer.raw.headers.getlist('Set-Cookie')}"
    assert browser.me() is None, "signed in after a refusal"
    assert browser.tally.users() == users_before, "an account was made on a refusal"
    for word in words:
        assert word in answer.text, excerpt(answer)


# -- 1, 2: a first sign-in makes an account; the next one finds it ----------------------------

def test_first_sign_in_makes_an_account_and_the_next_finds_it(provider, open_server, use, person):
    tally = use(open_server)
    sub, username = person(name="First Person", email="first@example.org")
    before = tally.users()
    browser = tally.browser()

    # Both pages offer the provider.
    for page in ("/signin", "/signup"):
        answer = browser.get(page)
        assert answer.status_code == 200, excerpt(answer)
        assert provider_links(answer).get("/signin/oidc") == SIGN_IN_BUTTON, f"{page}: {provider_links(answer)}"

    flow = browser.sign_in_with_provider()

    # Tally's start: to the provider's authorization endpoint, with PKCE (S256), state and nonce.
    assert flow.authorize_url.startswith(provider.issuer + "/authorize?"), excerpt(flow.start)
    sent = query_of(flow.authorize_url)
    assert sent["response_type"] == "code"
    assert sent["client_id"] == provider.client_id
    assert sent["redirect_uri"] == tally.callback
    assert set(sent["scope"].split()) == {"openid", "profile", "email"}
    assert sent["code_challenge_method"] == "S256"
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", sent["code_challenge"]), sent
    assert len(sent["state"]) >= 16 and len(sent["nonce"]) >= 16 and sent["state"] != sent["nonce"], sent
    assert provider.client_secret not in flow.authorize_url
    assert [r["query"] for r in provider.authorize_requests] == [sent]
    # The flow's cookie: HttpOnly, for /signin/oidc only, not the flow in clear.
    assert "tally_oidc" in set_cookies(flow.start), flow.start.raw.headers.getlist("Set-Cookie")
    value, attributes = set_cookies(flow.start)["tally_oidc"]
    assert value and "httponly" in attributes and "path=/signin/oidc" in attributes, (value, attributes)
    assert sent["state"] not in value and sent["nonce"] not in value
    # The provider sent the browser back with a code and the state.
    back = query_of(flow.callback_url)
    assert flow.callback_url.startswith(tally.callback + "?") and back["state"] == sent["state"] and back["code"]

    # The callback: a new account, onboarding first; the flow's cookie is gone.
    assert_signed_in(flow, "/onboarding")
    assert browser.cookie("tally_oidc") is None, set_cookies(flow.callback)
    me = browser.me()
    assert me and me["name"] == username and not me["isAdmin"], me
    assert tally.users() == sorted(before + [username])

    # The token request: the code, its verifier, the same redirect URI; the client
    # authenticated with HTTP Basic, its secret nowhere in the address.
    assert len(provider.token_requests) == 1, provider.token_requests
    token = provider.token_requests[0]
    assert token["status"] == 200, token
    form = token["form"]
    assert form["grant_type"] == "authorization_code" and form["code"] == back["code"]
    assert form["redirect_uri"] == tally.callback
    assert s256(form["code_verifier"]) == sent["code_challenge"]
    assert token["basic"] and token["basic_client_id"] == provider.client_id, token
    assert "client_secret" not in form and token["query"] == {} and provider.client_secret not in token["url"]
    assert token["content_type"].startswith("application/x-www-form-urlencoded")

    # Signed out and in again: the same account, to today's page.
    browser.sign_out()
    again = browser.sign_in_with_provider()
    assert_signed_in(again, TODAY)
    assert browser.me()["id"] == me["id"]
    assert tally.users() == sorted(before + [username])
    # A second browser of the same person finds the same account too.
    other = tally.browser()
    assert_signed_in(other.sign_in_with_provider(), TODAY)
    assert other.me()["id"] == me["id"]


def test_an_es256_id_token_signs_in(provider, open_server, use, person):
    tally = use(open_server)
    provider.alg = "ES256"
    _, username = person()
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert_signed_in(flow, "/onboarding")
    assert browser.me()["name"] == username
    header = jws.extract_compact(provider.issued[-1]["id_token"].encode()).protected
    assert header["alg"] == "ES256" and header["kid"] == provider.keys["ES256"].kid


# -- 3: accounts are found by sub, never by name ------------------------------------------------

def test_a_provider_user_named_like_a_local_account_gets_an_account_of_their_own(provider, open_server, use, person):
    tally = use(open_server)
    assert ADMIN[0] in tally.users()
    first_sub, _ = person(username=ADMIN[0], email=f"{ADMIN[0]}@example.org")
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert_signed_in(flow, "/onboarding")
    me = browser.me()
    assert me["name"] == f"{ADMIN[0]}-2" and not me["isAdmin"], me

    # Another provider user of the same name: yet another account, not the first one's.
    person(username=ADMIN[0])
    second = tally.browser()
    assert_signed_in(second.sign_in_with_provider(), "/onboarding")
    assert second.me()["name"] == f"{ADMIN[0]}-3"

    # The first one, again: their own account, found by sub.
    provider.next_user(first_sub, preferred_username=ADMIN[0])
    third = tally.browser()
    assert_signed_in(third.sign_in_with_provider(), TODAY)
    assert third.me()["id"] == me["id"]


@pytest.mark.parametrize("claims, expected", [
    ({"preferred_username": None, "name": "Grace Hopper", "email": "grace@example.org"}, "Grace"),
    ({"preferred_username": None, "name": None, "email": "hopper.g@example.org"}, "hopper.g"),
    ({"preferred_username": "  ü x!", "name": None, "email": "x@example.org"}, None),
], ids=["from-name", "from-email", "reduced"])
def test_the_new_accounts_name_comes_from_the_claims(provider, open_server, use, claims, expected):
    tally = use(open_server)
    sub = "sub-" + secrets.token_hex(8)
    provider.next_user(sub, **claims)
    browser = tally.browser()
    assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
    name = browser.me()["name"]
    assert re.fullmatch(r"[A-Za-z0-9._-]{3,32}", name), name
    if expected:
        assert name.startswith(expected), name


# -- 4–8: ID tokens refused ---------------------------------------------------------------------

@pytest.mark.parametrize("tamper, alg", [
    ("forge", "RS256"), ("forge", "ES256"), ("audience", "RS256"), ("expired", "RS256"),
    ("nonce", "RS256"), ("issuer", "RS256")])
def test_a_bad_id_token_is_refused(provider, open_server, use, person, tamper, alg):
    tally = use(open_server)
    provider.alg, provider.tamper = alg, tamper
    _, username = person()
    before = tally.users()
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert_refused(browser, flow, 401, before)
    assert provider.token_requests and provider.token_requests[-1]["status"] == 200, "the refusal is Tally's"

    # The same person with an honest token gets in; refused again once the token is bad again.
    provider.tamper = None
    honest = tally.browser()
    assert_signed_in(honest.sign_in_with_provider(), "/onboarding")
    assert honest.me()["name"] == username
    provider.tamper = tamper
    again = tally.browser()
    assert_refused(again, again.sign_in_with_provider(), 401, tally.users())


# -- 9–11: callbacks refused ---------------------------------------------------------------------

def test_a_replayed_callback_is_refused(provider, open_server, use, person):
    tally = use(open_server)
    person()
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert_signed_in(flow, "/onboarding")
    before = tally.users()

    # The same callback address in another browser, first without the flow's cookie, then with
    # the one Tally had set for that flow.
    thief = tally.browser()
    replay = thief.get(flow.callback_url)
    assert replay.status_code == 400, excerpt(replay)
    assert not set_cookies(replay).get("tally_session", ("",))[0] and thief.me() is None
    thief.session.cookies.set("tally_oidc", flow.flow_cookie, domain="127.0.0.1", path="/signin/oidc")
    assert thief.cookie("tally_oidc") == flow.flow_cookie
    replay = thief.get(flow.callback_url)
    assert 400 <= replay.status_code < 500, excerpt(replay)
    assert not set_cookies(replay).get("tally_session", ("",))[0] and thief.me() is None
    assert tally.users() == before
    # Whatever reached the provider again was refused there too: a code is good once.
    assert [r["status"] for r in provider.token_requests][0] == 200
    assert all(r["status"] == 400 for r in provider.token_requests[1:]), provider.token_requests

    # The browser that signed in, with its old flow cookie put back: no second sign-in.
    browser.session.cookies.set("tally_oidc", flow.flow_cookie, domain="127.0.0.1", path="/signin/oidc")
    replay = browser.get(flow.callback_url)
    assert 400 <= replay.status_code < 500, excerpt(replay)
    assert not set_cookies(replay).get("tally_session", ("",))[0]


def test_a_callback_with_another_state_is_refused(provider, open_server, use, person):
    tally = use(open_server)
    person()
    before = tally.users()
    browser = tally.browser()
    flow = browser.sign_in_with_provider(follow=False)
    back = query_of(flow.callback_url)
    forged = tally.callback + "?" + urllib.parse.urlencode({"code": back["code"], "state": back["state"][:-4] + "AAAA"})
    flow.callback = browser.get(forged)
    assert_refused(browser, flow, 400, before)
    assert provider.token_requests == [], "the code was exchanged for a callback whose state does not match"

    # Without the flow's cookie (another browser), the right state is refused as well.
    flow = browser.sign_in_with_provider(follow=False)
    stranger = tally.browser()
    flow.callback = stranger.get(flow.callback_url)
    assert_refused(stranger, flow, 400, before)
    assert provider.token_requests == []


def test_an_error_from_the_provider_is_shown(provider, open_server, use, person):
    tally = use(open_server)
    person()
    provider.error = "access_denied"
    before = tally.users()
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert query_of(flow.callback_url)["error"] == "access_denied"
    assert_refused(browser, flow, 400, before, words=["access_denied"])
    assert provider.token_requests == []


# -- 12: who may sign up -------------------------------------------------------------------------

def test_invite_mode_needs_a_server_invite(provider, invite_server, use, person):
    tally = use(invite_server)
    _, username = person()
    before = tally.users()
    browser = tally.browser()
    flow = browser.sign_in_with_provider()
    assert_refused(browser, flow, 403, before)

    # With an invite: the sign-up page's button carries it, and it lets this person in.
    code = tally.server_invite()
    page = browser.get("/signup?" + urllib.parse.urlencode({"invite": code}))
    links = provider_links(page)
    assert any(query_of(href).get("invite") == code for href in links), links
    flow = browser.sign_in_with_provider({"invite": code})
    assert_signed_in(flow, "/onboarding")
    assert browser.me()["name"] == username
    assert tally.users() == sorted(before + [username])

    # The invite was for one account: the next new person is refused again.
    person()
    late = tally.browser()
    assert_refused(late, late.sign_in_with_provider({"invite": code}), 403, tally.users())


def test_a_closed_server_takes_nobody_new_but_lets_a_linked_account_in(provider, closed_server, use, person):
    tally = use(closed_server)
    person()
    before = tally.users()
    stranger = tally.browser()
    assert_refused(stranger, stranger.sign_in_with_provider(), 403, before)
    # A ledger's invite does not open a closed server either.
    assert_refused(stranger, stranger.sign_in_with_provider({"join": "ABCD-EFGH-JKLM"}), 403, before)

    # The admin links the provider's user to their account: it signs in from then on.
    admin = tally.browser()
    admin.sign_in_with_password(*ADMIN)
    flow = admin.through_provider(admin.post("/account/oidc", {"csrf": admin.page_csrf("/account")}))
    assert flow.callback.status_code == 303 and path_of(location(flow.callback)) == "/account", excerpt(flow.callback)
    admin.sign_out()
    assert_signed_in(admin.sign_in_with_provider(), TODAY)
    assert admin.me()["name"] == ADMIN[0] and admin.me()["isAdmin"]
    assert tally.users() == before


@pytest.mark.parametrize("server", ["open_server", "invite_server"])
def test_a_ledger_invite_signs_up_into_the_ledger(provider, use, person, request, server):
    tally = use(request.getfixturevalue(server))
    owner = tally.browser()
    owner.sign_in_with_password(*ADMIN)
    ledger = owner.api("POST", "/api/v1/ledgers", {"name": "Flat " + secrets.token_hex(3), "currency": "EUR"})
    code = owner.api("POST", f"/api/v1/ledgers/{ledger['id']}/invite")["inviteCode"]

    _, username = person()
    browser = tally.browser()
    flow = browser.sign_in_with_provider({"join": code})
    assert_signed_in(flow, tuple(f"/join/{c}" for c in {code, code.upper(), re.sub(r"[^A-Za-z0-9]", "", code)}))
    assert browser.me()["name"] == username
    landing = browser.get(location(flow.callback))
    assert landing.status_code == 200, excerpt(landing)
    assert ledger["name"] in landing.text, excerpt(landing)


def test_signing_in_from_a_ledger_invite_comes_back_to_it(provider, open_server, use, person):
    tally = use(open_server)
    owner = tally.browser()
    owner.sign_in_with_password(*ADMIN)
    ledger = owner.api("POST", "/api/v1/ledgers", {"name": "Trip " + secrets.token_hex(3), "currency": "EUR"})
    code = owner.api("POST", f"/api/v1/ledgers/{ledger['id']}/invite")["inviteCode"]
    invitation = f"/join/{code}"

    # Someone with an account already (made through the provider), signed out.
    _, username = person()
    browser = tally.browser()
    assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
    browser.sign_out()

    # The sign-in page that the invite's page links to: its button keeps the invite (as
    # next=/join/CODE or join=CODE), and following it comes back to the invite, signed in.
    page = browser.get("/signin?" + urllib.parse.urlencode({"next": invitation}))
    links = provider_links(page)
    kept = [href for href in links
            if query_of(href).get("next") == invitation or query_of(href).get("join") == code]
    assert kept, links
    flow = browser.through_provider(browser.get(kept[0]))
    assert_signed_in(flow, invitation)
    assert browser.me()["name"] == username

    # A next that is not a ledger's invite goes nowhere: today's page.
    browser.sign_out()
    flow = browser.sign_in_with_provider({"next": "https://evil.example/"})
    assert_signed_in(flow, TODAY)


# -- 13: linking an account ----------------------------------------------------------------------

def test_linking_from_the_account_page(provider, open_server, use, person):
    tally = use(open_server)
    name, password = f"linker-{secrets.token_hex(3)}", "correct horse linking staple"
    browser = tally.browser()
    browser.sign_up_with_password(name, password)
    mine = browser.me()
    assert not linked(browser)

    # Without the form's CSRF token: refused, not sent to the provider.
    refused = browser.post("/account/oidc", {})
    assert refused.status_code == 403, excerpt(refused)

    sub, _ = person()
    before = tally.users()
    start = browser.post("/account/oidc", {"csrf": browser.page_csrf("/account")})
    assert start.status_code == 303 and location(start).startswith(provider.issuer + "/authorize?"), excerpt(start)
    assert query_of(location(start))["redirect_uri"] == tally.callback
    flow = browser.through_provider(start)
    assert flow.callback.status_code == 303 and path_of(location(flow.callback)) == "/account", excerpt(flow.callback)
    assert browser.me()["id"] == mine["id"]
    assert tally.users() == before, "linking made an account"
    assert linked(browser)
    assert PROVIDER_NAME in browser.get("/account").text

    # Signing in through the provider now lands in this account.
    browser.sign_out()
    assert_signed_in(browser.sign_in_with_provider(), TODAY)
    assert browser.me()["id"] == mine["id"]

    # The same sub for another account: refused, and that account stays unlinked.
    other = tally.browser()
    other.sign_up_with_password(f"other-{secrets.token_hex(3)}", password)
    theirs = other.me()
    flow = other.through_provider(other.post("/account/oidc", {"csrf": other.page_csrf("/account")}))
    assert flow.callback.status_code == 409, excerpt(flow.callback)
    assert other.me()["id"] == theirs["id"]
    assert not linked(other)

    # Unlinked: the account page says so, and the provider's user is a stranger again.
    unlink = browser.post("/account/oidc/unlink", {"csrf": browser.page_csrf("/account")})
    assert unlink.status_code == 200 and "no longer linked" in unlink.text, excerpt(unlink)
    assert not linked(browser)
    browser.sign_out()
    stranger = browser.sign_in_with_provider()
    assert_signed_in(stranger, "/onboarding")
    assert browser.me()["id"] != mine["id"]
    # And the password still works.
    browser.sign_out()
    browser.sign_in_with_password(name, password)
    assert browser.me()["id"] == mine["id"]


def test_an_account_the_provider_made_sets_a_first_password_before_it_can_unlink(provider, open_server, use, person):
    tally = use(open_server)
    person()
    browser = tally.browser()
    assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
    name = browser.me()["name"]
    page = browser.get("/account")
    # No password yet: no "current password" to give, and no way to cut the only way in.
    assert "no password yet" in page.text and 'name="current"' not in page.text, excerpt(page, 2000)
    assert 'action="/account/oidc/unlink"' not in page.text
    refused = browser.post("/account/oidc/unlink", {"csrf": browser.page_csrf("/account")})
    assert refused.status_code == 409 and "Set a password first" in refused.text, excerpt(refused)
    still = browser.get("/account").text
    assert "You sign in with" in still and 'action="/account/oidc"' not in still, "the link stays"
    # Nobody signs in to it with a password meanwhile, not even an empty one.
    stranger = tally.browser()
    assert stranger.post("/signin", {"name": name, "password": "", "csrf": stranger.page_csrf("/signin")}).status_code != 303

    first = browser.post("/account/password", {"new": "a first password here", "csrf": browser.page_csrf("/account")})
    assert first.status_code == 200 and "password is changed" in first.text, excerpt(first)
    unlink = browser.post("/account/oidc/unlink", {"csrf": browser.page_csrf("/account")})
    assert unlink.status_code == 200 and "no longer linked" in unlink.text, excerpt(unlink)
    browser.sign_out()
    browser.sign_in_with_password(name, "a first password here")
    assert browser.me()["name"] == name


# -- 14: local passwords off ---------------------------------------------------------------------

def test_with_local_passwords_off_only_the_provider_signs_in(provider, passwordless_server, use, person):
    tally = use(passwordless_server)
    browser = tally.browser()
    page = browser.get("/signin")
    assert page.status_code == 200, excerpt(page)
    assert 'type="password"' not in page.text, excerpt(page)
    assert provider_links(page).get("/signin/oidc") == SIGN_IN_BUTTON, provider_links(page)

    csrf = browser.cookie("tally_csrf")
    answer = browser.post("/signin", {"name": ADMIN[0], "password": ADMIN[1], "csrf": csrf})
    assert answer.status_code == 403, excerpt(answer)
    assert not set_cookies(answer).get("tally_session", ("",))[0] and browser.me() is None

    before = tally.users()
    answer = browser.post("/signup", {"name": "with-a-password", "password": "correct horse battery", "csrf": csrf,
                                      "timeZone": "Europe/Berlin"})
    assert answer.status_code == 403, excerpt(answer)
    assert not set_cookies(answer).get("tally_session", ("",))[0] and browser.me() is None
    assert tally.users() == before

    _, username = person()
    assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
    assert browser.me()["name"] == username


# -- 15: the log ---------------------------------------------------------------------------------

def test_the_log_keeps_no_secret_of_the_flow(provider, use, person, tmp_path):
    with start_tally(tmp_path, provider) as tally:
        use(tally)
        person()
        browser = tally.browser()
        assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
        browser.sign_out()
        replay = tally.browser().sign_in_with_provider(follow=False)  # a flow left half-way,
        ok = browser.sign_in_with_provider()                       # a second sign-in,
        assert_signed_in(ok, TODAY)
        tally.browser().get(ok.callback_url)                       # a replay,
        provider.tamper = "nonce"
        assert tally.browser().sign_in_with_provider().callback.status_code == 401  # a refused token,
        provider.tamper = None
        bad_state = tally.browser()
        half = bad_state.sign_in_with_provider(follow=False)
        bad_state.get(half.callback_url.replace("state=", "state=x"))  # a state that does not match,
        provider.error = "access_denied"
        tally.browser().sign_in_with_provider()                    # and an error from the provider.
        assert replay.callback_url
        authorizations = [r["query"] for r in provider.authorize_requests]
        issued = list(provider.issued)
        verifiers = [r["form"].get("code_verifier") for r in provider.token_requests]
        codes = list(provider.codes_issued)
    log = tally.log.read_text(errors="replace")
    assert "/signin/oidc/callback" in log, "the log does not show the requests: is it the server's?"

    secrets_of_the_flow = {"the client secret": provider.client_secret}
    for number, query in enumerate(authorizations):
        secrets_of_the_flow[f"state {number}"] = query["state"]
        secrets_of_the_flow[f"nonce {number}"] = query["nonce"]
    for number, code in enumerate(codes):
        secrets_of_the_flow[f"code {number}"] = code
    for number, token in enumerate(issued):
        secrets_of_the_flow[f"access token {number}"] = token["access_token"]
        secrets_of_the_flow[f"ID token {number}"] = token["id_token"]
        secrets_of_the_flow[f"ID token {number}'s signature"] = token["id_token"].rsplit(".", 1)[1]
    for number, verifier in enumerate(v for v in verifiers if v):
        secrets_of_the_flow[f"code verifier {number}"] = verifier
    leaked = [what for what, value in secrets_of_the_flow.items() if value and value in log]
    assert not leaked, f"serve.log holds: {', '.join(leaked)}"


def test_an_issuer_that_ends_in_a_slash_is_matched_to_the_character(tmp_path):
    """Auth0's and Authentik's issuers end in "/": discovery is read beside it, and the ID
    token's iss must equal it as configured."""
    with Provider(client_secret="slash-" + secrets.token_urlsafe(16), redirect_uri="http://127.0.0.1:1" + CALLBACK,
                  issuer_suffix="/") as slashed:
        assert slashed.issuer.endswith("/")
        with start_tally(tmp_path, slashed) as tally:
            slashed.redirect_uri = tally.callback
            slashed.next_user("sub-slash", preferred_username="slash-person")
            browser = tally.browser()
            assert_signed_in(browser.sign_in_with_provider(), "/onboarding")
            assert browser.me()["name"] == "slash-person"
