"""Every decrypted secret is redacted by value, in the forms a transport or a log shows it, from
texts, JSON data, streams split anywhere, and log records of every handler."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from server import known_secrets, logs
from server.known_secrets import KNOWN, RedactedStream, redact, redact_value
from server.secretbox import SecretBox, generate_key

SECRET = 'sk-live/aB+c=d&e f"9'  # characters each encoding changes


@pytest.fixture(autouse=True, params=[1, 200], ids=["pattern", "index"])
def remembered(request: pytest.FixtureRequest) -> Iterator[None]:
    """One value (a compiled pattern matches) or many (the prefix index scans)."""
    KNOWN.forget_all()
    for i in range(request.param - 1):
        known_secrets.remember(f"another-tenant-secret-{i:04d}")
    known_secrets.remember("Bearer " + SECRET)
    yield
    KNOWN.forget_all()


@pytest.mark.parametrize(
    "shown",
    [
        SECRET, f"Authorization: Bearer {SECRET}", quote(SECRET, safe=""),
        json.dumps({"key": SECRET}), base64.b64encode(SECRET.encode()).decode(),
    ],
    ids=["as is", "header", "URL-encoded", "JSON", "base64"],
)  # fmt: skip
def test_it_redacts_each_form_a_transport_shows(shown: str) -> None:
    assert "[redacted]" in redact(shown)
    assert SECRET not in redact(shown) and quote(SECRET, safe="") not in redact(shown)


def test_the_oldest_values_are_forgotten_past_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(known_secrets, "MAX_VALUES", 2)
    KNOWN.forget_all()
    for value in ("first-secret-value", "second-secret-value", "third-secret-value"):
        known_secrets.remember(value)

    assert redact("first-secret-value") == "first-secret-value"
    assert redact("second-secret-value third-secret-value") == "[redacted] [redacted]"


def test_it_redacts_json_data_keys_too() -> None:
    cleaned = redact_value({SECRET: [1, {"x": f"a {SECRET} b"}], "n": 3})

    assert cleaned == {"[redacted]": [1, {"x": "a [redacted] b"}], "n": 3}


def test_short_values_are_not_remembered_for_everyone() -> None:
    known_secrets.remember("abc")

    assert redact("abcdef") == "abcdef"


@pytest.mark.parametrize("size", [1, 2, 3, 7, 50])
async def test_a_stream_never_shows_a_secret_split_across_its_pieces(size: int) -> None:
    text = f"the key is {SECRET}, and {SECRET} again."
    sent: list[str] = []

    async def send(piece: str) -> None:
        sent.append(piece)

    stream = RedactedStream(send)
    for i in range(0, len(text), size):
        await stream(text[i : i + size])
    await stream.end()

    assert "".join(sent) == "the key is [redacted], and [redacted] again."
    assert all(SECRET[:6] not in "".join(sent[i : i + 2]) for i in range(len(sent)))


def test_a_decrypted_secret_is_redacted_from_every_log_record(caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    box = SecretBox.from_config(generate_key())
    value = box.decrypt(box.encrypt("tenant-secret-0123456789", "acme/x"), "acme/x")
    logs.redact_every_record()
    logger = logging.getLogger("quiver.test")

    with caplog.at_level(logging.INFO):
        logger.info("calling with %s", value)
        try:
            raise RuntimeError(f"upstream said {value}")
        except RuntimeError:
            logger.exception("failed")

    assert value == "tenant-secret-0123456789"
    assert value not in caplog.text and caplog.text.count("[redacted]") == 2
