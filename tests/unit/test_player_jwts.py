"""Bring-your-own-identity JWTs: what PLAYER_ISSUERS trusts, and every way a token is
refused (checked by PyJWT; the algorithm is the issuer's, never the token's)."""

import base64
import hashlib
import hmac
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from shared.players import issuers

HS_SECRET = "h" * 40
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())


def _jwks_file(tmp_path):
    keys = []
    for kid, key, algorithm in (
        ("r1", RSA_KEY, jwt.algorithms.RSAAlgorithm),
        ("e1", EC_KEY, jwt.algorithms.ECAlgorithm),
    ):
        jwk = json.loads(algorithm.to_jwk(key.public_key()))
        keys.append({**jwk, "kid": kid})
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"keys": keys}))
    return path


@pytest.fixture
def trusted(tmp_path):
    raw = json.dumps(
        [
            {"issuer": "https://hs.example", "audience": "app", "hs256_secret": HS_SECRET},
            {
                "issuer": "https://keys.example",
                "audience": "app",
                "jwks_file": str(_jwks_file(tmp_path)),
            },
        ]
    )
    return issuers.parse(raw)


def claims(**changes):
    now = int(time.time())
    base = {
        "iss": "https://hs.example",
        "aud": "app",
        "sub": "user-1",
        "exp": now + 600,
        "iat": now,
    }
    return {k: v for k, v in {**base, **changes}.items() if v is not None}


def test_an_hs256_token_names_its_issuers_subject(trusted):
    token = jwt.encode(claims(), HS_SECRET, algorithm="HS256")
    assert issuers.looks_like(token)
    assert issuers.verify(trusted, token) == ("https://hs.example", "user-1")


@pytest.mark.parametrize("kid, key, algorithm", [("r1", RSA_KEY, "RS256"), ("e1", EC_KEY, "ES256")])
def test_rs256_and_es256_tokens_are_checked_with_the_jwks_keys(trusted, kid, key, algorithm):
    token = jwt.encode(
        claims(iss="https://keys.example"), key, algorithm=algorithm, headers={"kid": kid}
    )
    assert issuers.verify(trusted, token) == ("https://keys.example", "user-1")


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _hand_made(header, payload, sign):
    head = _b64(json.dumps(header).encode()) + "." + _b64(json.dumps(payload).encode())
    return head + "." + sign(head.encode())


def test_alg_none_is_refused(trusted):
    token = _hand_made({"alg": "none", "typ": "JWT"}, claims(), lambda _: "")
    with pytest.raises(issuers.BadToken):
        issuers.verify(trusted, token)


def test_hs256_signed_with_the_rs_issuers_public_key_is_refused(trusted):
    """The classic confusion: the public key (known to all) used as an HMAC secret."""
    public_pem = RSA_KEY.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )

    def sign(message):
        return _b64(hmac.new(public_pem, message, hashlib.sha256).digest())

    header = {"alg": "HS256", "typ": "JWT", "kid": "r1"}
    token = _hand_made(header, claims(iss="https://keys.example"), sign)
    with pytest.raises(issuers.BadToken, match="refused"):
        issuers.verify(trusted, token)


def test_an_rs256_token_for_the_hs_issuer_is_refused(trusted):
    token = jwt.encode(claims(), RSA_KEY, algorithm="RS256")
    with pytest.raises(issuers.BadToken, match="refused"):
        issuers.verify(trusted, token)


@pytest.mark.parametrize(
    "changes, why",
    [
        ({"exp": int(time.time()) - 3600}, "expired"),
        ({"exp": None}, "refused"),
        ({"nbf": int(time.time()) + 3600}, "refused"),
        ({"aud": "another-app"}, "refused"),
        ({"aud": None}, "refused"),
        ({"sub": None}, "refused"),
        ({"iss": "https://unknown.example"}, "not one this server trusts"),
        ({"iss": None}, "not one this server trusts"),
    ],
)
def test_a_bad_claim_is_refused(trusted, changes, why):
    token = jwt.encode(claims(**changes), HS_SECRET, algorithm="HS256")
    with pytest.raises(issuers.BadToken, match=why):
        issuers.verify(trusted, token)


def test_a_wrong_signature_an_unknown_key_and_garbage_are_refused(trusted):
    wrong = jwt.encode(claims(), "w" * 40, algorithm="HS256")
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    unknown_kid = jwt.encode(
        claims(iss="https://keys.example"), other, algorithm="RS256", headers={"kid": "zz"}
    )
    forged = jwt.encode(
        claims(iss="https://keys.example"), other, algorithm="RS256", headers={"kid": "r1"}
    )
    for token in (wrong, unknown_kid, forged, "eyJ.not.ajwt", "eyJ" + "a" * 9000):
        with pytest.raises(issuers.BadToken):
            issuers.verify(trusted, token)


def test_no_issuers_trusts_nothing():
    token = jwt.encode(claims(), HS_SECRET, algorithm="HS256")
    assert issuers.parse("") == {}
    with pytest.raises(issuers.BadToken):
        issuers.verify({}, token)


@pytest.mark.parametrize(
    "raw",
    [
        "{}",
        '[{"issuer": "x"}]',
        '[{"issuer": "x", "audience": "a"}]',
        '[{"issuer": "x", "audience": "a", "hs256_secret": "short"}]',
        '[{"issuer": "x", "audience": "a", "hs256_secret": "' + "s" * 32 + '", "jwks_file": "f"}]',
    ],
)
def test_a_bad_configuration_says_what_is_wrong(raw):
    with pytest.raises(ValueError):
        issuers.parse(raw)
