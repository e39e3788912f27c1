"""The first admin key, which a new node creates when none exists: kept in a 0600 file in the
data directory and announced so that it cannot be missed among the JSON log lines (a box on a
terminal, one plain line otherwise)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("quiver")

FILE_NAME = "admin-key"
ANOTHER = "quiver keys create --role admin"


@dataclass(frozen=True)
class FirstAdminKey:
    token: str
    path: Path | None  # where it was kept; None if the data directory could not be written


def keep(token: str, data_dir: Path) -> FirstAdminKey:
    """Write the key to ``data_dir/admin-key``, readable by its owner only."""
    path = data_dir / FILE_NAME
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
        os.chmod(path, 0o600)  # an existing file keeps its mode through O_CREAT
    except OSError as exc:  # a read-only data directory: the key is still shown once
        log.warning("could not keep the first admin key in %s: %s", path, exc)
        return FirstAdminKey(token, None)
    return FirstAdminKey(token, path)


def announcement(key: FirstAdminKey, terminal: bool) -> str:
    kept = f"kept in {key.path} (mode 0600)" if key.path else "not kept on disk: store it now"
    if not terminal:  # the key last: scripts take the line's last word
        return (
            f"Created the first admin key (shown once, {kept}; another: `{ANOTHER}`): {key.token}"
        )
    lines = [
        "The first admin key (shown once):",
        "",
        f"  {key.token}",
        "",
        kept[0].upper() + kept[1:] + ".",
        f"Another admin key: {ANOTHER}",
    ]
    width = max(len(line) for line in lines)
    rule = "─" * (width + 2)
    body = [f"│ {line.ljust(width)} │" for line in lines]
    return "\n".join(["", f"┌{rule}┐", *body, f"└{rule}┘", ""])
