"""Secrets at rest: AES-256-GCM with the owner bound as associated data, and key rotation.

A token is ``v1.<key id>.<base64url(nonce ‖ ciphertext ‖ tag)>``. The first configured key
encrypts; every configured key decrypts, so old tokens stay readable until re-encrypted with
``quiver secrets rotate``. The associated data (``tenant/tool``) means a ciphertext copied to
another tenant's or tool's row fails to decrypt instead of leaking there.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from server import known_secrets

PREFIX = "v1"


class SecretBoxError(Exception):
    pass


def _b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_key() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"quiver-kid" + key).hexdigest()[:8]


class SecretBox:
    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise SecretBoxError("at least one key is needed")
        for key in keys:
            if len(key) != 32:
                raise SecretBoxError("each secret key must be 32 bytes (base64-encoded)")
        self._keys = {key_id(k): AESGCM(k) for k in keys}
        self._mac_keys = {key_id(k): hashlib.sha256(b"quiver-mac" + k).digest() for k in keys}
        self.current_id = key_id(keys[0])

    @classmethod
    def from_config(cls, value: str) -> SecretBox:
        """Comma-separated base64 keys, newest first."""
        try:
            keys = [_b64d(part.strip()) for part in value.split(",") if part.strip()]
        except ValueError as exc:
            raise SecretBoxError("QUIVER_SECRET_KEY must be comma-separated base64 keys") from exc
        return cls(keys)

    def encrypt(self, plaintext: str, associated: str) -> str:
        nonce = os.urandom(12)
        sealed = self._keys[self.current_id].encrypt(nonce, plaintext.encode(), associated.encode())
        body = base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")
        return f"{PREFIX}.{self.current_id}.{body}"

    def decrypt(self, token: str, associated: str) -> str:
        try:
            prefix, kid, body = token.split(".", 2)
            aead = self._keys[kid]
            raw = _b64d(body)
            if prefix != PREFIX:
                raise ValueError(prefix)
            value = aead.decrypt(raw[:12], raw[12:], associated.encode()).decode()
        except KeyError:
            raise SecretBoxError("the key that encrypted this secret is not configured") from None
        except (ValueError, InvalidTag):
            raise SecretBoxError(
                "secret cannot be decrypted (tampered, or bound to another owner)"
            ) from None
        known_secrets.remember(value)  # shown nowhere from now on: logs, errors, rows
        return value

    def needs_rotation(self, token: str) -> bool:
        return token.split(".", 2)[1] != self.current_id

    def mac(self, data: bytes, associated: str) -> str:
        """An integrity tag for data the server keeps but must not trust blindly (compiled
        artefacts): ``<key id>.<HMAC-SHA256>``, bound to ``associated``."""
        digest = hmac.digest(
            self._mac_keys[self.current_id], associated.encode() + b"\0" + data, "sha256"
        )
        return f"{self.current_id}.{digest.hex()}"

    def verify_mac(self, data: bytes, associated: str, tag: str) -> bool:
        kid, _, hexdigest = tag.partition(".")
        key = self._mac_keys.get(kid)
        if key is None:
            return False
        digest = hmac.digest(key, associated.encode() + b"\0" + data, "sha256")
        return hmac.compare_digest(digest.hex(), hexdigest)


def mask(secret: str | None) -> str | None:
    """What the API shows instead of a stored secret."""
    return None if secret is None else "********"
