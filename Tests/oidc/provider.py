"""An OpenID Connect provider for the tests, built on authlib's own server: the authorization code
flow with OpenID Connect's ID token (a nonce required) and PKCE (S256 required), one confidential
client, and everything kept in memory.

It runs in a thread of the test process (werkzeug on 127.0.0.1, a free port); its issuer is
`http://127.0.0.1:PORT`. There is no sign-in page: /authorize signs in, without asking, the user
that the test named with `next_user`, and sends the browser back with a code, as authlib does.

What the tests control, as plain Python (no HTTP):

- `next_user(sub, preferred_username=None, name=None, email=None)`: who /authorize signs in from
  now on.
- `alg`: "RS256" or "ES256", the key that signs the ID token (the JWKS has both).
- `tamper`: None, or how the ID token of the token response is re-made after authlib made it:
  "forge" (the same header and claims, signed with another key of the same type and the same kid,
  which the JWKS does not have), "audience" (aud "someone-else"), "expired" (exp two hours ago),
  "nonce" (a nonce that was not sent) or "issuer" (iss "http://evil.example"); all but "forge"
  are signed with the real key.
- `error`: None, or an error (e.g. "access_denied") that /authorize answers with, through the
  redirect URI, instead of a code.
- `redirect_uri`: the client's one redirect URI (settable, since the relying party's port is
  known only once it runs).

What it saw: `authorize_requests` (each one's query and how it was answered) and
`token_requests` (each one's form fields, query, whether HTTP Basic authentication was used and
the answer's status); `issued` holds what the token endpoint gave out, and `codes_issued` every
code, for the tests that look for them where they must not be.
"""

import base64
import copy
import hmac
import logging
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field

from authlib.common.urls import add_params_to_uri
from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749.errors import InvalidRequestError
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import AuthorizationCodeMixin, UserInfo
from authlib.oidc.core.grants import OpenIDCode
from flask import Flask, jsonify, request
from joserfc import jwt
from joserfc.jwk import ECKey, KeySet, RSAKey
from werkzeug.serving import make_server

SCOPES = ["openid", "profile", "email"]
AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
ALGORITHMS = ["RS256", "ES256"]
TAMPERS = (None, "forge", "audience", "expired", "nonce", "issuer")
CODE_LIFETIME = 60  # seconds


@dataclass
class User:
    sub: str
    preferred_username: str | None = None
    name: str | None = None
    email: str | None = None


@dataclass
class Client(ClientMixin):
    """The one client (the relying party under test), confidential."""
    provider: "Provider"
    client_id: str
    client_secret: str

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.provider.redirect_uri

    def get_allowed_scope(self, scope):
        if not scope:
            return ""
        return " ".join(s for s in scope.split() if s in SCOPES)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri == self.provider.redirect_uri

    def check_client_secret(self, client_secret):
        return hmac.compare_digest(client_secret.encode(), self.client_secret.encode())

    def check_endpoint_auth_method(self, method, endpoint):
        return endpoint == "token" and method in AUTH_METHODS

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


@dataclass
class AuthorizationCode(AuthorizationCodeMixin):
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    user: User
    nonce: str | None
    code_challenge: str | None
    code_challenge_method: str | None
    auth_time: int = field(default_factory=lambda: int(time.time()))
    issued_at: float = field(default_factory=time.monotonic)

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def is_expired(self):
        return time.monotonic() - self.issued_at > CODE_LIFETIME


class _CodeGrant(grants.AuthorizationCodeGrant):
    """Codes kept in the provider's memory: bound to the client, single use, 60 s."""
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

    @property
    def provider(self):
        return self.server.provider

    def save_authorization_code(self, code, request):
        payload = request.payload
        item = AuthorizationCode(
            code=code, client_id=request.client.get_client_id(), redirect_uri=payload.redirect_uri,
            scope=request.scope or "", user=request.user, nonce=payload.data.get("nonce"),
            code_challenge=payload.data.get("code_challenge"),
            code_challenge_method=payload.data.get("code_challenge_method"))
        with self.provider.lock:
            self.provider.codes[code] = item
            self.provider.codes_issued.append(code)
            if item.nonce:
                self.provider.nonces_seen.add(item.nonce)
        return item

    def query_authorization_code(self, code, client):
        with self.provider.lock:
            item = self.provider.codes.get(code)
        if item and item.client_id == client.get_client_id() and not item.is_expired():
            return item
        return None

    def delete_authorization_code(self, authorization_code):
        with self.provider.lock:
            self.provider.codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return authorization_code.user


class _S256Required(CodeChallenge):
    """PKCE with S256 only, and required of every authorization request, the confidential
    client's too (authlib's own `required` covers public clients)."""
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("Missing 'code_challenge'", state=grant.request.payload.state,
                                      redirect_uri=redirect_uri)
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("'code_challenge_method' must be S256", state=grant.request.payload.state,
                                      redirect_uri=redirect_uri)
        return super().validate_code_challenge(grant, redirect_uri)

    def validate_code_verifier(self, grant, result):
        if not grant.request.form.get("code_verifier"):
            raise InvalidRequestError("Missing 'code_verifier'")
        return super().validate_code_verifier(grant, result)


class _OpenIDCode(OpenIDCode):
    """OpenID Connect on the code grant: the ID token signed with the key the test chose, then
    re-made as the test's `tamper` says."""

    def __init__(self, provider):
        super().__init__(require_nonce=True)
        self.provider = provider

    def exists_nonce(self, nonce, request):
        with self.provider.lock:
            return nonce in self.provider.nonces_seen

    def get_client_algorithm(self, client):
        return self.provider.alg

    def resolve_client_private_key(self, client):
        return self.provider.keys[self.provider.alg]

    def get_encode_header(self, client):
        return {"alg": self.provider.alg, "kid": self.provider.keys[self.provider.alg].kid}

    def get_client_claims(self, client):
        return {"iss": self.provider.issuer, "aud": [client.get_client_id()]}

    def generate_user_info(self, user, scope):
        info = UserInfo(sub=user.sub)
        if user.preferred_username is not None:
            info["preferred_username"] = user.preferred_username
        if user.name is not None:
            info["name"] = user.name
        if user.email is not None:
            info["email"] = user.email
            info["email_verified"] = True
        return info.filter(scope)

    def process_token(self, grant, response):
        token = super().process_token(grant, response)
        if token.get("id_token") and self.provider.tamper:
            token["id_token"] = self.provider.remake(token["id_token"], self.provider.tamper)
        with self.provider.lock:
            self.provider.issued.append(copy.deepcopy(dict(token)))
        return token


def _key(kind, kid, alg):
    parameters = {"kid": kid, "use": "sig", "alg": alg}
    return RSAKey.generate_key(2048, parameters=parameters) if kind == "RSA" else ECKey.generate_key("P-256", parameters=parameters)


class Provider:
    """The provider; `start()` runs it in a thread, `stop()` ends it (or use it with `with`)."""

    def __init__(self, client_secret, redirect_uri, client_id="tally", issuer_suffix=""):
        # "/": an issuer that ends in a slash, as Auth0's and Authentik's do.
        self.issuer_suffix = issuer_suffix
        self.client = Client(self, client_id, client_secret)
        self.redirect_uri = redirect_uri
        self.lock = threading.RLock()
        self.keys = {"RS256": _key("RSA", "rsa-" + uuid.uuid4().hex[:8], "RS256"),
                     "ES256": _key("EC", "ec-" + uuid.uuid4().hex[:8], "ES256")}
        # Keys of the same type and kid that the JWKS never shows: a forger's.
        self.forged_keys = {alg: _key("RSA" if alg == "RS256" else "EC", key.kid, alg) for alg, key in self.keys.items()}
        self.codes = {}
        self.nonces_seen = set()
        self.port = None
        self._server = self._thread = None
        self.reset()
        self.app = self._make_app()

    # -- what the tests set and read ---------------------------------------------------------------

    def reset(self):
        """Back to signing with RS256, no tampering, no error, no user, and empty logs."""
        with self.lock:
            self.alg = "RS256"
            self.tamper = None
            self.error = None
            self.user = None
            self.authorize_requests = []
            self.token_requests = []
            self.issued = []
            self.codes_issued = []

    def next_user(self, sub, preferred_username=None, name=None, email=None):
        with self.lock:
            self.user = User(sub, preferred_username, name, email)

    @property
    def issuer(self):
        return f"http://127.0.0.1:{self.port}{self.issuer_suffix}"

    @property
    def client_id(self):
        return self.client.client_id

    @property
    def client_secret(self):
        return self.client.client_secret

    def jwks(self):
        return {"keys": [key.as_dict(private=False) for key in self.keys.values()]}

    def remake(self, id_token, tamper):
        """`id_token` (as authlib made it) re-made as `tamper` says, with joserfc."""
        if tamper not in TAMPERS:
            raise ValueError(f"unknown tamper {tamper!r}")
        made = jwt.decode(id_token, KeySet(list(self.keys.values())), algorithms=ALGORITHMS)
        header, claims = dict(made.header), dict(made.claims)
        key = self.keys[header["alg"]]
        now = int(time.time())
        if tamper == "forge":
            key = self.forged_keys[header["alg"]]
        elif tamper == "audience":
            claims["aud"] = "someone-else"
        elif tamper == "expired":
            claims["exp"] = now - 2 * 3600
            claims["iat"] = claims["auth_time"] = now - 3 * 3600
        elif tamper == "nonce":
            claims["nonce"] = "not-the-one-sent"
        elif tamper == "issuer":
            claims["iss"] = "http://evil.example"
        return jwt.encode(header, claims, key, algorithms=[header["alg"]])

    # -- running ---------------------------------------------------------------------------------

    def start(self):
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="oidc-provider", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(5)
            self._server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- the HTTP side ---------------------------------------------------------------------------

    def _make_app(self):
        provider = self
        app = Flask("oidc-provider")
        app.config.update(OAUTH2_SCOPES_SUPPORTED=SCOPES, OAUTH2_TOKEN_EXPIRES_IN={"authorization_code": 3600})
        server = AuthorizationServer(app, query_client=self._query_client, save_token=lambda token, req: None)
        server.provider = self
        server.register_grant(_CodeGrant, [_OpenIDCode(self), _S256Required(required=True)])
        logging.getLogger("werkzeug").setLevel(logging.WARNING)

        @app.get("/.well-known/openid-configuration")
        def discovery():
            issuer = provider.issuer
            base = f"http://127.0.0.1:{provider.port}"
            return jsonify({
                "issuer": issuer,
                "authorization_endpoint": base + "/authorize",
                "token_endpoint": base + "/token",
                "jwks_uri": base + "/jwks",
                "response_types_supported": ["code"],
                "response_modes_supported": ["query"],
                "grant_types_supported": ["authorization_code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ALGORITHMS,
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": AUTH_METHODS,
                "scopes_supported": SCOPES,
                "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash",
                                     "preferred_username", "name", "email", "email_verified"],
            })

        @app.get("/jwks")
        def jwks():
            return jsonify(provider.jwks())

        @app.get("/authorize")
        def authorize():
            record = {"query": request.args.to_dict(flat=True)}
            with provider.lock:
                provider.authorize_requests.append(record)
                user, error = provider.user, provider.error
            try:
                grant = server.get_consent_grant(end_user=user)
            except OAuth2Error as failure:
                response = server.handle_error_response(request, failure)
            else:
                if error and error != "access_denied":
                    params = [("error", error)] + ([("state", grant.request.payload.state)] if grant.request.payload.state else [])
                    response = app.response_class(status=302, headers={"Location": add_params_to_uri(grant.redirect_uri, params)})
                else:
                    # No user (or "access_denied"): authlib answers access_denied through the redirect URI.
                    response = server.create_authorization_response(grant_user=None if error else user, grant=grant)
            record["status"] = response.status_code
            record["location"] = response.headers.get("Location")
            return response

        @app.post("/token")
        def token():
            authorization = request.headers.get("Authorization", "")
            basic_client = None
            if authorization.lower().startswith("basic "):
                try:
                    basic_client = urllib.parse.unquote(base64.b64decode(authorization[6:]).decode().split(":", 1)[0])
                except (ValueError, UnicodeDecodeError):
                    basic_client = ""
            record = {
                "form": request.form.to_dict(flat=True),
                "query": request.args.to_dict(flat=True),
                "url": request.url,
                "basic": basic_client is not None,
                "basic_client_id": basic_client,
                "content_type": request.headers.get("Content-Type", ""),
            }
            with provider.lock:
                provider.token_requests.append(record)
            response = server.create_token_response()
            record["status"] = response.status_code
            body = response.get_json(silent=True) or {}
            record["error"] = body.get("error")
            return response

        return app

    def _query_client(self, client_id):
        return self.client if client_id == self.client.client_id else None
