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
PATTERN_UP_TO = 64  # values matched by one compiled pattern; more: a prefix index
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
    """The remembered values and their forms. Few values (the usual node: its tenants' provider
    keys and a handful of secrets) are matched by one compiled pattern, in C; past
    ``PATTERN_UP_TO`` values a pattern would cost seconds to compile and a millisecond per line
    to run, so the forms are indexed by their first ``MIN_LENGTH`` characters instead and a text
    is scanned once, whatever the number of values."""

    def __init__(self) -> None:
        self._values: OrderedDict[str, frozenset[str]] = OrderedDict()  # value → its forms
        self._by_prefix: dict[str, list[str]] = {}  # forms by their start, longest first
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
            shown = frozenset(forms(value))
            self._values[value] = shown
            for form in shown:
                same = self._by_prefix.setdefault(form[:MIN_LENGTH], [])
                same.append(form)
                same.sort(key=len, reverse=True)  # a secret containing another goes whole
                self._longest = max(self._longest, len(form))
            while len(self._values) > MAX_VALUES:
                _, gone = self._values.popitem(last=False)
                for form in gone:
                    left = self._by_prefix.get(form[:MIN_LENGTH], [])
                    if form in left:
                        left.remove(form)
                    if not left:
                        self._by_prefix.pop(form[:MIN_LENGTH], None)
            self._pattern = None

    def __bool__(self) -> bool:
        return bool(self._values)

    def _compiled(self) -> re.Pattern[str]:
        pattern = self._pattern
        if pattern is None:
            with self._lock:
                every = {f for shown in self._values.values() for f in shown}
                longest_first = sorted(every, key=len, reverse=True)
                pattern = self._pattern = re.compile("|".join(map(re.escape, longest_first)))
        return pattern

    def redact(self, text: str) -> str:
        if not self._values or len(text) < MIN_LENGTH:
            return text
        if len(self._values) <= PATTERN_UP_TO:
            return self._compiled().sub(MARKER, text)
        return self._scanned(text)

    def _scanned(self, text: str) -> str:
        by_prefix, parts, start, i = self._by_prefix, [], 0, 0
        end = len(text) - MIN_LENGTH
        while i <= end:
            for form in by_prefix.get(text[i : i + MIN_LENGTH], ()):
                if text.startswith(form, i):
                    parts += [text[start:i], MARKER]
                    i = start = i + len(form)
                    break
            else:
                i += 1
        return "".join(parts) + text[start:] if parts else text

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
        return self._longest if self._values else 0

    def forget_all(self) -> None:
        """For tests that need a node that has decrypted nothing yet."""
        with self._lock:
            self._values.clear()
            self._by_prefix.clear()
            self._pattern = None
            self._longest = 0


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
