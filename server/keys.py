"""API keys: ``qk_<id>_<secret>`` with 256 bits of secret, stored as a hash, shown once.

The secret is random, so a fast hash is enough (no password stretching needed); the lookup goes
by the public id and the hash is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from server.registry.model import Role

PREFIX = "qk"
ROLES: tuple[Role, ...] = ("admin", "developer", "agent")


@dataclass(frozen=True)
class NewKey:
    id: str
    secret: str

    @property
    def token(self) -> str:
        return f"{PREFIX}_{self.id}_{self.secret}"


def new_key() -> NewKey:
    return NewKey(id=secrets.token_hex(8), secret=secrets.token_urlsafe(32))


def hash_secret(key_id: str, secret: str) -> str:
    return hashlib.sha256(f"{key_id}:{secret}".encode()).hexdigest()


def parse_token(token: str) -> tuple[str, str] | None:
    """``(id, secret)`` of a well-formed key, else ``None``."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != PREFIX or not parts[1] or len(parts[2]) < 43:
        return None
    return parts[1], parts[2]


def matches(stored_hash: str, key_id: str, secret: str) -> bool:
    return hmac.compare_digest(stored_hash, hash_secret(key_id, secret))


@dataclass(frozen=True)
class Principal:
    """Who is calling: a key's id, its role and (except for admins) its tenant."""

    key_id: str
    role: Role
    tenant_id: str | None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"
