"""The pool's deadlines: many waits on one timer, each cancelled as ``asyncio.timeout`` would."""

from __future__ import annotations

import asyncio

import pytest

from sandbox.deadlines import Deadlines

BOUND_S = 10.0  # what a test waits at most for something that should happen much sooner


async def test_a_wait_past_its_deadline_raises_timeout_error():
    deadlines = Deadlines()
    async with asyncio.timeout(BOUND_S):
        with pytest.raises(TimeoutError), deadlines.within(0.01):
            await asyncio.Event().wait()
    assert len(deadlines) == 0


async def test_a_wait_that_finishes_in_time_is_left_alone():
    deadlines = Deadlines()
    done = asyncio.Event()
    asyncio.get_running_loop().call_soon(done.set)  # what the wait waits for comes at once
    with deadlines.within(BOUND_S):
        await done.wait()
    assert len(deadlines) == 0


async def test_later_waits_share_the_timer_armed_for_the_earliest():
    deadlines = Deadlines()
    first = deadlines.within(BOUND_S)
    with first:
        timer = deadlines._timer
        with deadlines.within(BOUND_S + 1), deadlines.within(BOUND_S + 2):
            assert deadlines._timer is timer  # no timer of their own
            assert len(deadlines) == 3


async def test_an_earlier_wait_rearms_the_timer_and_fires_first():
    deadlines = Deadlines()
    outcomes: dict[str, str] = {}

    armed = asyncio.Event()  # the late wait has registered its deadline

    async def wait(name: str, seconds: float, until: asyncio.Event) -> None:
        try:
            with deadlines.within(seconds):
                armed.set()
                await until.wait()
            outcomes[name] = "done"
        except TimeoutError:
            outcomes[name] = "timed out"

    release = asyncio.Event()
    async with asyncio.timeout(BOUND_S):
        late = asyncio.create_task(wait("late", BOUND_S * 2, release))
        await armed.wait()  # the late wait arms the timer first
        await wait("early", 0.01, asyncio.Event())  # re-arms it sooner, and times out
        assert outcomes == {"early": "timed out"}
        assert len(deadlines) == 1  # the late wait is still registered …
        release.set()
        await late
    assert outcomes == {"early": "timed out", "late": "done"}  # … and was not cut short


async def test_many_due_waits_all_time_out_and_the_timer_moves_on_to_the_rest():
    deadlines = Deadlines()
    never = asyncio.Event()

    async def wait(seconds: float) -> str:
        try:
            with deadlines.within(seconds):
                await never.wait()
        except TimeoutError:
            return "timed out"
        return "done"

    async with asyncio.timeout(BOUND_S):
        short = [asyncio.create_task(wait(0.01)) for _ in range(50)]
        longer = asyncio.create_task(wait(0.05))
        assert await asyncio.gather(*short) == ["timed out"] * 50
        assert await longer == "timed out"
    assert len(deadlines) == 0


async def test_a_cancellation_from_elsewhere_stays_a_cancellation():
    deadlines = Deadlines()
    entered = asyncio.Event()

    async def wait() -> None:
        with deadlines.within(BOUND_S):
            entered.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(wait())
    async with asyncio.timeout(BOUND_S):
        await entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert len(deadlines) == 0


async def test_a_deadline_inside_an_outer_timeout_leaves_the_outer_one_its_own():
    """The outer ``asyncio.timeout`` fires first: its cancellation is not taken for ours."""
    deadlines = Deadlines()
    with pytest.raises(TimeoutError) as raised:
        async with asyncio.timeout(0.01) as outer:
            with deadlines.within(BOUND_S) as inner:
                await asyncio.Event().wait()
    assert outer.expired() and not inner.expired
    assert raised.value is not None
