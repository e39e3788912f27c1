"""What the skills' records carry beside their fields, and their refusals: values the skills
and the storage that keeps their records share (storage imports them from here, so that the
skills, and the call path above them, never load storage)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Origin:
    """Where a skill's record came from."""

    session_id: str | None
    customer: str | None
    bot: str | None


class SlotTaken(Exception):
    """Someone else booked the slot first."""
