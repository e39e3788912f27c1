"""The node's copies of conversations (``Histories``): taken out by the turn that uses one,
given back when it ends, bounded by sessions and characters, least recently used first."""

from __future__ import annotations

from server.agent.history import Histories


def said(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def test_a_copy_is_taken_out_by_the_turn_that_uses_it() -> None:
    histories = Histories()
    histories.keep("s1", said("hi"), 2)

    assert histories.take("s1") == (said("hi"), 2)
    assert histories.take("s1") is None  # another turn of s1 meanwhile reads the database
    assert histories.chars == 0


def test_the_least_recently_kept_go_first_past_the_bounds() -> None:
    by_count = Histories(max_sessions=2)
    for sid in ("a", "b", "c"):
        by_count.keep(sid, said(sid), 2)
    by_size = Histories(max_chars=2_600)
    for i in range(10):
        by_size.keep(f"s{i}", said("x" * 300), 2)  # ~316 characters counted each: 8 fit
    kept_chars = by_size.chars

    assert (by_count.take("a"), len(by_count)) == (None, 2)
    assert [by_size.take(f"s{i}") is not None for i in range(10)] == [False] * 2 + [True] * 8
    assert 8 * 300 < kept_chars <= by_size.max_chars


def test_one_long_conversation_is_not_kept_rather_than_pushing_out_the_others() -> None:
    histories = Histories(max_chars=80 * 1024)
    histories.keep("short", said("hi"), 2)
    histories.keep("long", said("x" * 20_000), 2)  # over an eighth of the budget

    assert histories.take("long") is None
    assert histories.take("short") == (said("hi"), 2)
