"""The tests' OpenID Connect provider on its own, driven as a relying party would drive it (no
Tally): what its discovery says, that its ID tokens verify against its JWKS with each algorithm,
and that each way of tampering breaks exactly what it should. Should Tally's tests fail, these
say whether the provider is to blame."""

import base64
import hashlib
import secrets
import time
import urllib.parse

import pytest
import requests
from joserfc import jwt
from joserfc.errors import BadSignatureError, ExpiredTokenError, InvalidClaimError
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry

from provider import Provider

REDIRECT = "http://127.0.0.1:9/signin/oidc/callback"
SECRET = "provider-test-secret-" + secrets.token_urlsafe(8)


@pytest.fixture(scope="module")
def op():
    with Provider(client_secret=SECRET, redirect_uri=REDIRECT) as provider:
        yield provider


@pytest.fixture(autouse=True)
def fresh(op):
    op.reset()
    op.next_user("sub-1", preferred_username="ada", name="Ada Lovelace", email="ada@example.org")


def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorize(op, **overrides):
    """The redirect /authorize answers with, its query, and the verifier and nonce sent."""
    verifier, challenge = pkce()
    query = {"response_type": "code", "client_id": "tally", "redirect_uri": REDIRECT, "scope": "openid profile email",
             "state": secrets.token_urlsafe(16), "nonce": secrets.token_urlsafe(16),
             "code_challenge": challenge, "code_challenge_method": "S256", **overrides}
    query = {k: v for k, v in query.items() if v is not None}
    response = requests.get(op.issuer + "/authorize", params=query, allow_redirects=False, timeout=10)
    location = response.headers.get("Location", "")
    back = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    return response, back, verifier, query


def exchange(op, code, verifier, basic=True, secret=SECRET, redirect_uri=REDIRECT):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri}
    if verifier is not None:
        form["code_verifier"] = verifier
    if basic:
        return requests.post(op.issuer + "/token", data=form, auth=("tally", secret), timeout=10)
    return requests.post(op.issuer + "/token", data={**form, "client_id": "tally", "client_secret": secret}, timeout=10)


def verify(op, id_token, nonce):
    """The ID token's claims, checked as a relying party checks them: against the JWKS that
    /jwks serves, then iss, aud, exp and nonce."""
    keys = KeySet.import_key_set(requests.get(op.issuer + "/jwks", timeout=10).json())
    token = jwt.decode(id_token, keys, algorithms=["RS256", "ES256"])
    JWTClaimsRegistry(iss={"essential": True, "value": op.issuer}, aud={"essential": True, "value": "tally"},
                      exp={"essential": True}, iat={"essential": True}, sub={"essential": True},
                      nonce={"essential": True, "value": nonce}).validate(token.claims)
    return token


def test_discovery_and_jwks(op):
    config = requests.get(op.issuer + "/.well-known/openid-configuration", timeout=10).json()
    assert config["issuer"] == op.issuer and not op.issuer.endswith("/")
    assert config["authorization_endpoint"] == op.issuer + "/authorize"
    assert config["token_endpoint"] == op.issuer + "/token"
    assert config["jwks_uri"] == op.issuer + "/jwks"
    assert config["code_challenge_methods_supported"] == ["S256"]
    assert config["id_token_signing_alg_values_supported"] == ["RS256", "ES256"]
    assert set(config["token_endpoint_auth_methods_supported"]) == {"client_secret_basic", "client_secret_post"}
    keys = requests.get(op.issuer + "/jwks", timeout=10).json()["keys"]
    assert sorted((k["kty"], k["alg"], k["use"]) for k in keys) == [("EC", "ES256", "sig"), ("RSA", "RS256", "sig")]
    assert all(k["kid"] for k in keys) and not any("d" in k for k in keys)
    rsa = next(k for k in keys if k["kty"] == "RSA")
    assert len(base64.urlsafe_b64decode(rsa["n"] + "==")) * 8 == 2048
    assert next(k for k in keys if k["kty"] == "EC")["crv"] == "P-256"


@pytest.mark.parametrize("alg", ["RS256", "ES256"])
@pytest.mark.parametrize("basic", [True, False], ids=["basic", "post"])
def test_code_flow(op, alg, basic):
    op.alg = alg
    response, back, verifier, sent = authorize(op)
    assert response.status_code == 302 and back["state"] == sent["state"] and back["code"]
    answer = exchange(op, back["code"], verifier, basic=basic)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    token = verify(op, body["id_token"], sent["nonce"])
    assert token.header["alg"] == alg and token.header["kid"] == op.keys[alg].kid
    assert token.claims["sub"] == "sub-1" and token.claims["preferred_username"] == "ada"
    assert token.claims["email"] == "ada@example.org" and token.claims["name"] == "Ada Lovelace"
    assert body["access_token"] and body["token_type"].lower() == "bearer"
    assert op.token_requests[-1]["basic"] is basic and op.token_requests[-1]["form"]["code_verifier"] == verifier
    # Single use: the same code again is refused.
    again = exchange(op, back["code"], verifier, basic=basic)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


@pytest.mark.parametrize("alg", ["RS256", "ES256"])
@pytest.mark.parametrize("tamper, refused", [
    ("forge", BadSignatureError), ("audience", InvalidClaimError), ("expired", ExpiredTokenError),
    ("nonce", InvalidClaimError), ("issuer", InvalidClaimError)])
def test_tampered_id_tokens(op, alg, tamper, refused):
    op.alg, op.tamper = alg, tamper
    _, back, verifier, sent = authorize(op)
    body = exchange(op, back["code"], verifier).json()
    token = body["id_token"]
    header = jwt.decode(token, op.forged_keys[alg] if tamper == "forge" else op.keys[alg], algorithms=[alg]).header
    assert header["alg"] == alg and header["kid"] == op.keys[alg].kid
    with pytest.raises(refused):
        verify(op, token, sent["nonce"])
    claims = jwt.decode(token, op.forged_keys[alg] if tamper == "forge" else op.keys[alg], algorithms=[alg]).claims
    expected = {"audience": ("aud", "someone-else"), "nonce": ("nonce", "not-the-one-sent"),
                "issuer": ("iss", "http://evil.example")}
    if tamper in expected:
        name, value = expected[tamper]
        assert claims[name] == value
    if tamper == "expired":
        assert claims["exp"] <= time.time() - 7000 and claims["iat"] <= time.time() - 7000
    if tamper == "forge":
        assert claims["nonce"] == sent["nonce"] and claims["aud"] == ["tally"]


def test_refusals(op):
    # PKCE is required, with S256.
    response, back, _, _ = authorize(op, code_challenge=None, code_challenge_method=None)
    assert back.get("error") == "invalid_request"
    response, back, _, _ = authorize(op, code_challenge_method="plain")
    assert back.get("error") == "invalid_request"
    # A nonce is required.
    _, back, _, _ = authorize(op, nonce=None)
    assert back.get("error") == "invalid_request"
    # Another redirect URI: no redirect at all, an error page.
    response, _, _, _ = authorize(op, redirect_uri="http://127.0.0.1:9/elsewhere")
    assert response.status_code == 400 and "Location" not in response.headers
    # A wrong verifier, a wrong secret, another redirect_uri at the token endpoint.
    _, back, verifier, _ = authorize(op)
    assert exchange(op, back["code"], "x" * 50).json()["error"] == "invalid_grant"
    _, back, verifier, _ = authorize(op)
    assert exchange(op, back["code"], verifier, secret="wrong").status_code == 401
    assert exchange(op, back["code"], None).json()["error"] == "invalid_request"
    assert exchange(op, back["code"], verifier, redirect_uri=REDIRECT + "x").json()["error"] == "invalid_grant"
    # The nonce of an earlier authorization is not taken again.
    _, back, verifier, sent = authorize(op)
    _, again, _, _ = authorize(op, nonce=sent["nonce"])
    assert again.get("error") == "invalid_request"


def test_error_setting_and_logs(op):
    op.error = "access_denied"
    response, back, _, sent = authorize(op)
    # authlib's own answer, with its error_description.
    assert response.status_code == 302 and back["error"] == "access_denied" and back["state"] == sent["state"]
    assert "code" not in back
    op.error = "temporarily_unavailable"
    _, back, _, sent = authorize(op)
    assert back == {"error": "temporarily_unavailable", "state": sent["state"]}
    assert [r["query"]["state"] for r in op.authorize_requests][-1] == sent["state"]
    assert op.token_requests == []


def test_codes_expire(op, monkeypatch):
    import provider as module
    _, back, verifier, _ = authorize(op)
    monkeypatch.setattr(module, "CODE_LIFETIME", -1)
    assert exchange(op, back["code"], verifier).json()["error"] == "invalid_grant"
