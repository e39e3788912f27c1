"""The JavaScript runner in a worker's shoes (``sandbox.wasm.javascript.host``): its instances,
kept and reused per tool, and what it does when an instance's time ran out while it waited."""

from __future__ import annotations

import pytest

from sandbox.wasm.javascript import build
from sandbox.wasm.javascript.host import JsRunner
from sandbox.wasm.runtime import WasmRuntime

SOURCE = "module.exports = {name: 'wc', description: 'd', execute: async (p) => ({words: String(p.text).split(' ').length})};"  # fmt: skip


@pytest.fixture(scope="module")
def runner() -> JsRunner:
    return JsRunner(str(build.ensure()), WasmRuntime())


def request(key: str, **more) -> dict:
    return {
        "tenant": "t", "hash": key, "memory_bytes": 16 << 20, "fuel": 1_000_000_000,
        "timeout": 1000, "load_timeout": 1000, "output_bytes": 65536, "tool": "wc",
        "params": {"text": "a b c"}, "context": {}, "source": SOURCE, **more,
    }  # fmt: skip


def test_an_instance_is_reused_for_its_tool_and_asked_for_again_when_gone(runner: JsRunner) -> None:  # fmt: skip
    first = runner.call(request("one"), None)
    made = runner.instantiations
    again = runner.call({k: v for k, v in request("one").items() if k != "source"}, None)
    other = runner.call({k: v for k, v in request("two").items() if k != "source"}, None)

    assert first["value"] == {"words": 3} and again["value"] == {"words": 3}
    assert runner.instantiations == made  # the same instance answered
    assert other == {"ok": False, "code": "need_source"}


def test_a_blank_instance_made_long_before_its_request_still_serves_it(runner: JsRunner) -> None:
    runner.call(request("warm"), None)
    runner.idle()  # the blank instance kept ready between requests
    assert runner._spare is not None
    runner._spare.store.set_epoch_deadline(1)  # as if it was made long ago: its deadline passes
    runner.engine.increment_epoch()
    runner.engine.increment_epoch()

    loaded = runner.inspect(request("late"))
    called = runner.call(request("late"), None)

    assert loaded["ok"], loaded
    assert called["value"] == {"words": 3}
