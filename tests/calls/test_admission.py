"""Fair admission (``server.calls.admission``): a node's call slots, shared between tenants. In
memory, with real asyncio tasks; no call sleeps — each waits on what the test releases."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from server.calls.admission import AdmissionTimeout, FairAdmission


async def until(condition: Callable[[], bool], turns: int = 100) -> None:
    """Until ``condition`` holds, one turn of the event loop at a time, within ``turns``."""
    loop = asyncio.get_running_loop()
    for _ in range(turns):
        if condition():
            return
        turn = loop.create_future()
        loop.call_soon(turn.set_result, None)
        await turn
    raise AssertionError("the condition did not come within the turns allowed")


async def test_a_free_slot_is_taken_at_once_and_given_back() -> None:
    gate = FairAdmission(slots=2)

    await gate.enter("acme")
    await gate.enter("acme")
    taken = (gate.running, dict(gate.in_flight))
    gate.leave("acme")
    gate.leave("acme")

    assert taken == (2, {"acme": 2})
    assert (gate.running, gate.in_flight, gate.waiting) == (0, {}, 0)


async def test_a_freed_slot_goes_to_the_tenant_with_fewest_calls_in_flight() -> None:
    """A flood holds every slot and has callers waiting; a victim that asks later is served
    at the next freed slot, before the flood's earlier waiters."""
    gate = FairAdmission(slots=3)
    for _ in range(3):
        await gate.enter("flood")
    order: list[str] = []

    async def caller(tenant: str) -> None:
        await gate.enter(tenant)
        order.append(tenant)

    flood = [asyncio.create_task(caller("flood")) for _ in range(5)]
    await until(lambda: gate.waiting == 5)
    victim = asyncio.create_task(caller("victim"))
    await until(lambda: gate.waiting == 6)
    gate.leave("flood")  # one slot frees
    await until(lambda: len(order) == 1)
    first = list(order)
    for served in (2, 3):
        gate.leave("flood")
        await until(lambda served=served: len(order) == served)

    assert first == ["victim"]
    assert order == ["victim", "flood", "flood"]
    assert gate.in_flight == {"flood": 2, "victim": 1} and gate.waiting == 3
    for task in [*flood, victim]:
        task.cancel()
    await asyncio.gather(*flood, victim, return_exceptions=True)


async def test_tenants_waiting_alike_take_turns() -> None:
    gate = FairAdmission(slots=1)
    await gate.enter("x")
    order: list[str] = []

    async def caller(tenant: str) -> None:
        await gate.enter(tenant)
        order.append(tenant)
        gate.leave(tenant)

    tasks = [asyncio.create_task(caller(t)) for t in ("a", "a", "a", "b", "b", "b")]
    await until(lambda: gate.waiting == 6)
    gate.leave("x")
    await asyncio.gather(*tasks)

    assert order == ["a", "b", "a", "b", "a", "b"]
    assert (gate.running, gate.waiting) == (0, 0)


async def test_a_caller_that_waits_too_long_is_refused_and_holds_nothing() -> None:
    gate = FairAdmission(slots=1, wait_s=0.01)
    await gate.enter("flood")

    with pytest.raises(AdmissionTimeout):
        await gate.enter("victim")

    gate.leave("flood")
    assert (gate.running, gate.in_flight, gate.waiting) == (0, {}, 0)


async def test_a_caller_that_leaves_while_waiting_holds_nothing() -> None:
    gate = FairAdmission(slots=1)
    await gate.enter("flood")
    waiting = asyncio.create_task(gate.enter("victim"))
    await until(lambda: gate.waiting == 1)
    waiting.cancel()
    gate.leave("flood")  # the freed slot must not go to the caller that left
    await asyncio.gather(waiting, return_exceptions=True)

    assert waiting.cancelled()
    assert (gate.running, gate.in_flight, gate.waiting) == (0, {}, 0)
    await gate.enter("next")  # and the slot is there for the next one
    assert gate.in_flight == {"next": 1}


async def test_a_slot_granted_as_its_caller_gave_up_passes_on() -> None:
    """The slot is given in the same turn its caller is cancelled: it goes to the next one."""
    gate = FairAdmission(slots=1)
    await gate.enter("x")
    leaving = asyncio.create_task(gate.enter("a"))
    staying = asyncio.create_task(gate.enter("b"))
    await until(lambda: gate.waiting == 2)
    gate.leave("x")  # granted to "a" …
    leaving.cancel()  # … which is cancelled before it runs again
    await asyncio.gather(leaving, return_exceptions=True)
    await until(staying.done)

    assert leaving.cancelled() and staying.done()
    assert gate.in_flight == {"b": 1} and gate.running == 1
