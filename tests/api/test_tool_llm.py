"""``context.modules.llm.chat`` for code tools, through HTTP against the fake model server: the
tenant's provider answers (the key stays outside the sandbox), calls per run are bounded, tokens
are counted in usage, and test runs need to opt in — in both Python sandboxes."""

from __future__ import annotations

import pytest

from tests.api.test_agent_loop import KEY, setup
from tests.api.test_calls import call, python
from tests.conftest import Api
from tests.fake_models import FakeModel

SUMMARY = """
def execute(params, context):
    answers = []
    for i in range(params.get("times", 1)):
        try:
            answers.append(context.modules.llm.chat("Summarise: " + params["text"], max_tokens=50)["content"])
        except Exception as exc:
            answers.append("refused: " + str(exc))
    return {"success": True, "answers": answers}


tool = {"name": "summarise", "description": "Summarise a text", "execute": execute,
        "parameters": {"text": {"type": "string", "required": True}, "times": {"type": "integer"}}}
"""


async def run_summaries(agents: Api, fake: FakeModel, sandbox: str) -> None:
    acme, sid = await setup(agents, fake, "anthropic")
    assert (await acme.dev.post("/v1/tools", json=python(SUMMARY, sandbox))).status_code == 201
    fake.reply(*[{"text": f"summary {i}", "usage": {"input": 40, "output": 6}} for i in range(5)])

    in_session = await call(acme, sid, "summarise", {"text": "a long text", "times": 4})
    tested = (await acme.dev.post("/v1/tools/summarise/test", json={"arguments": {"text": "x"}})).json()  # fmt: skip
    opted_in = (await acme.dev.post("/v1/tools/summarise/test", json={"arguments": {"text": "y"}, "llm": True})).json()  # fmt: skip
    today = (await acme.dev.get("/v1/usage")).json()["today"]

    answers = in_session["result"]["answers"]
    assert answers[:3] == ["summary 0", "summary 1", "summary 2"]
    assert answers[3].startswith("refused:") and "at most 3" in answers[3]
    assert tested["result"]["answers"][0].startswith("refused:") and "opts in" in tested["result"]["answers"][0]  # fmt: skip
    assert opted_in["result"]["answers"] == ["summary 3"]
    assert fake.requests[0]["body"]["messages"] == [
        {"role": "user", "content": "Summarise: a long text"}
    ]
    assert "tools" not in fake.requests[0]["body"] and fake.requests[0]["body"]["max_tokens"]
    sent = fake.requests[0]["headers"]
    assert KEY in sent.get("x-api-key", "") + sent.get("authorization", "")  # the host sent it
    assert KEY not in str(in_session) + str(tested) + str(opted_in)
    assert today["llm_input_tokens"] == 160 and today["llm_output_tokens"] == 24


async def test_restricted_python_tools_ask_the_tenants_model(agents: Api, fake: FakeModel) -> None:
    await run_summaries(agents, fake, "restricted")


@pytest.mark.usefixtures("python_runner")  # built before the app looks for it
async def test_python_in_wasm_tools_ask_the_tenants_model(agents: Api, fake: FakeModel) -> None:
    await run_summaries(agents, fake, "wasm")
