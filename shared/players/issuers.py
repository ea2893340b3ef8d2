"""Bring your own identity: JWTs from issuers the operator trusts name players.

PLAYER_ISSUERS (shared/config.py) is a JSON list, one object per issuer:

    [{"issuer": "https://auth.example.com", "audience": "my-app", "hs256_secret": "..."},
     {"issuer": "https://securetoken.google.com/my-app", "audience": "my-app",
      "jwks_file": "/etc/tablestream/firebase-keys.json"}]

An HS256 issuer shares a secret; a JWKS issuer's public keys (RSA: RS256, P-256: ES256)
are read from a JWKS file the operator keeps current. PyJWT checks the signature, `exp`
(required), `nbf`, `aud` and `iss`; the algorithm comes from the issuer's configuration,
never from the token's header, so `alg: none` and an HS256 token "signed" with an RS256
issuer's public key are refused.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

import jwt

LEEWAY = 10  # seconds of clock skew allowed on exp and nbf
MAX_TOKEN = 8192  # bytes: a JWT longer than this is refused before it is parsed


class BadToken(ValueError):
    """Why a JWT was refused."""


@dataclass(frozen=True)
class Issuer:
    issuer: str
    audience: str
    secret: str | None = None
    keys: dict = field(default_factory=dict)  # kid -> (PyJWK, algorithm)


def parse(raw):
    """The issuers PLAYER_ISSUERS describes ({issuer: Issuer}); {} when it is empty.
    Raises ValueError naming what is wrong."""
    if not raw or not raw.strip():
        return {}
    entries = json.loads(raw)
    if not isinstance(entries, list):
        raise ValueError("PLAYER_ISSUERS is a JSON list of issuers")
    issuers = {}
    for entry in entries:
        name, audience = entry.get("issuer"), entry.get("audience")
        if not isinstance(name, str) or not name or not isinstance(audience, str) or not audience:
            raise ValueError("each of PLAYER_ISSUERS has an issuer and an audience")
        secret, jwks_file = entry.get("hs256_secret"), entry.get("jwks_file")
        if (secret is None) == (jwks_file is None):
            raise ValueError(f"issuer {name}: give either hs256_secret or jwks_file")
        if secret is not None:
            if len(secret) < 32:
                raise ValueError(f"issuer {name}: an hs256_secret of at least 32 characters")
            issuers[name] = Issuer(name, audience, secret=secret)
        else:
            issuers[name] = Issuer(name, audience, keys=_jwks(Path(jwks_file).read_text()))
    return issuers


def _jwks(text):
    """{kid: (PyJWK, algorithm)} of a JWKS document's RSA and P-256 keys."""
    keys = {}
    for key in jwt.PyJWKSet.from_json(text).keys:
        algorithm = _algorithm(key)
        if algorithm is not None:
            keys[key.key_id] = (key, algorithm)
    if not keys:
        raise ValueError("the JWKS file holds no RSA or P-256 key")
    return keys


def _algorithm(key):
    """RS256 for an RSA key, ES256 for a P-256 key; None for any other (skipped)."""
    kind = key.key_type
    if kind == "RSA":
        return "RS256"
    if kind == "EC" and key.algorithm_name == "ES256":
        return "ES256"
    return None


def verify(issuers, token):
    """(issuer, subject) a JWT from a trusted issuer names; raises BadToken."""
    if len(token) > MAX_TOKEN:
        raise BadToken("the token is too long")
    try:
        header = jwt.get_unverified_header(token)
        claimed = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        raise BadToken("the token is not a JWT") from None
    issuer = issuers.get(claimed.get("iss")) if isinstance(claimed.get("iss"), str) else None
    if issuer is None:
        raise BadToken("the token's issuer is not one this server trusts")
    if issuer.secret is not None:
        key, algorithm = issuer.secret, "HS256"
    else:
        found = issuer.keys.get(header.get("kid"))
        if found is None and header.get("kid") is None and len(issuer.keys) == 1:
            found = next(iter(issuer.keys.values()))
        if found is None:
            raise BadToken("the token's key is not one of its issuer's")
        key, algorithm = found[0].key, found[1]
    try:
        claims = jwt.decode(
            token,
            key,
            algorithms=[algorithm],
            audience=issuer.audience,
            issuer=issuer.issuer,
            leeway=LEEWAY,
            options={"require": ["exp", "iss", "sub", "aud"]},
        )
    except jwt.ExpiredSignatureError:
        raise BadToken("the token has expired") from None
    except jwt.PyJWTError as error:
        raise BadToken(f"the token was refused: {error}") from None
    subject = claims["sub"]
    if not isinstance(subject, str) or not 0 < len(subject) <= 255:
        raise BadToken("the token's sub is a string of 1 to 255 characters")
    return issuer.issuer, subject


def looks_like(token):
    """Whether a bearer token is shaped as a JWT (three base64url parts, a JSON header)."""
    return token.startswith("eyJ") and token.count(".") == 2
