"""Every secret this node has decrypted, so that none of them is ever shown again.

``SecretBox.decrypt`` is the one place a stored secret (a provider's API key, a code tool's
secret, a webhook's auth header) becomes plain text; it remembers the value here. ``redact``
then replaces each remembered value, in every form a transport may show it — as sent
(``Authorization: Bearer x`` carries it whole), URL-encoded, JSON-escaped or base64 — with
``[redacted]``. Provider errors pass through it before anyone sees them, and so does every log
line (``server.logs``).

Values shorter than ``MIN_LENGTH`` are not remembered: replacing a four-letter secret everywhere
would garble every text that happens to contain those letters. (A call's own secrets are still
replaced exactly, whatever their length, by ``server.calls.redaction``.)
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote, quote_plus

MIN_LENGTH = 8
MAX_VALUES = 4096
MARKER = "[redacted]"
_SCHEMES = ("bearer ", "basic ", "token ")


def forms(value: str) -> set[str]:
    """The ways a transport or a log may show ``value``."""
    raw = value.strip()
    for scheme in _SCHEMES:  # an auth header's value: its credential is a secret on its own
        if raw.lower().startswith(scheme):
            raw = raw[len(scheme) :].strip()
    out = {value.strip(), raw}
    for text in tuple(out):
        data = text.encode()
        out |= {
            quote(text, safe=""),
            quote_plus(text, safe=""),
            json.dumps(text)[1:-1],
            base64.b64encode(data).decode().rstrip("="),
            base64.urlsafe_b64encode(data).decode().rstrip("="),
        }
    return {f for f in out if len(f) >= MIN_LENGTH}


class KnownSecrets:
    def __init__(self) -> None:
        self._values: OrderedDict[str, None] = OrderedDict()  # the oldest is forgotten first
        self._pattern: re.Pattern[str] | None = None
        self._longest = 0
        self._lock = threading.Lock()  # remembered from the event loop and from threads

    def remember(self, value: str | None) -> None:
        if not value or len(value.strip()) < MIN_LENGTH:
            return
        with self._lock:
            if value in self._values:
                self._values.move_to_end(value)
                return
            self._values[value] = None
            while len(self._values) > MAX_VALUES:
                self._values.popitem(last=False)
            self._pattern = None

    def __bool__(self) -> bool:
        return bool(self._values)

    def _compiled(self) -> re.Pattern[str]:
        pattern = self._pattern
        if pattern is None:
            with self._lock:
                every = {f for value in self._values for f in forms(value)}
                # longest first: a secret containing another is replaced whole
                alternatives = sorted(every, key=len, reverse=True)
                self._longest = len(alternatives[0]) if alternatives else 0
                pattern = self._pattern = re.compile("|".join(map(re.escape, alternatives)))
        return pattern

    def redact(self, text: str) -> str:
        if not self._values or not text:
            return text
        return self._compiled().sub(MARKER, text)

    def redact_value(self, value: Any, depth: int = 0) -> Any:
        """``redact`` over every string of JSON data (keys too)."""
        if not self._values:
            return value
        if isinstance(value, str):
            return self.redact(value)
        if depth > 64:
            return value
        if isinstance(value, dict):
            return {self.redact(str(k)): self.redact_value(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact_value(v, depth + 1) for v in value]
        return value

    @property
    def longest(self) -> int:
        """The longest form of a remembered value: a stream holds back one less than this."""
        if not self._values:
            return 0
        self._compiled()
        return self._longest

    def forget_all(self) -> None:
        """For tests that need a node that has decrypted nothing yet."""
        with self._lock:
            self._values.clear()
            self._pattern = None


KNOWN = KnownSecrets()
remember = KNOWN.remember
redact = KNOWN.redact
redact_value = KNOWN.redact_value


class RedactedStream:
    """Text streamed out piece by piece with every remembered secret redacted, even one split
    across pieces: the last ``longest - 1`` characters wait for the next piece (or ``end``)."""

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self.send = send
        self.held = ""
        self.keep = max(KNOWN.longest - 1, 0)

    async def __call__(self, piece: str) -> None:
        text = redact(self.held + piece)
        cut = max(len(text) - self.keep, 0)
        self.held = text[cut:]
        if cut:
            await self.send(text[:cut])

    async def end(self) -> None:
        if self.held:
            held, self.held = self.held, ""
            await self.send(redact(held))
