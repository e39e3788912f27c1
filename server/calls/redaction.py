"""A tool's secrets never leave the call: every string it returns, logs, raises or writes to the
session has each secret's value replaced by ``[secret NAME]`` before anything stores, logs,
caches or answers it. (Exact values only: a tool that encodes a secret before returning it can
still leak it — it could equally send it anywhere its egress allowlist reaches.)"""

from __future__ import annotations

from typing import Any


class Redactor:
    def __init__(self, secrets: dict[str, str]) -> None:
        # longest first, so a secret containing another is replaced whole
        self._pairs = sorted(
            ((value, f"[secret {name}]") for name, value in secrets.items() if value),
            key=lambda pair: -len(pair[0]),
        )

    def __bool__(self) -> bool:
        return bool(self._pairs)

    def __call__(self, value: Any) -> Any:
        if not self._pairs:
            return value
        return self._walk(value, 0)

    def _walk(self, value: Any, depth: int) -> Any:
        if isinstance(value, str):
            for secret, marker in self._pairs:
                if secret in value:
                    value = value.replace(secret, marker)
            return value
        if depth > 128:  # results are depth-checked before they get here; be safe anyway
            return value
        if isinstance(value, dict):
            return {self._walk(k, depth + 1): self._walk(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._walk(v, depth + 1) for v in value]
        return value
