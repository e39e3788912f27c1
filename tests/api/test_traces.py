"""Traces (OpenTelemetry) on SQLite and PostgreSQL: off by default; on, every door's request is a
server span holding the tool call (``execute_tool``), its sandbox run and the run's egress
requests, and the agent loop's model rounds (``chat``) — read with the SDK's in-memory exporter,
and once over the wire from the OTLP exporter to a real loopback collector."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from tests.api.test_calls import call, python, session_for
from tests.conftest import Api, api_for
from tests.contract.doors import open_door
from tests.contract.test_session_behaviours import DOORS, prepare
from tests.fake_models import FakeModel
from tests.loopback import LoopbackServer

SECRET_ARGUMENT = "order-AB1234-private"
FETCH = python("""
def execute(params, context):
    seen = context.modules.http.get(params["url"] + "?token=" + params["order_id"])
    return {"success": True, "status": seen["status"]}


tool = {"name": "fetch", "description": "Fetch the order", "execute": execute,
        "parameters": {"url": {"type": "string", "required": True},
                       "order_id": {"type": "string", "required": True}}}
""")


@pytest.fixture
def spans() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
async def traced(settings, spans: InMemorySpanExporter, upstream_http) -> AsyncIterator[Api]:
    admitted = settings.model_copy(update={"egress_allow": "127.0.0.2"})
    async with api_for(admitted, span_exporter=spans) as api:
        yield api


def ancestors(span: ReadableSpan, every: list[ReadableSpan]) -> list[ReadableSpan]:
    by_id = {s.context.span_id: s for s in every}
    chain = []
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        chain.append(span)
    return chain


def named(every: list[ReadableSpan], prefix: str) -> list[ReadableSpan]:
    return [s for s in every if s.name.startswith(prefix)]


async def test_off_by_default_nothing_is_traced(api: Api) -> None:
    acme = await api.tenant("acme")
    sid = await session_for(acme, [FETCH])

    await call(acme, sid, "fetch", {"url": "http://127.0.0.2:9/x", "order_id": "A"})

    assert api.runtime.tracing.on is False
    assert api.app.tracing.on is False  # type: ignore[attr-defined]


async def test_a_call_is_a_server_span_holding_the_tool_its_sandbox_and_its_egress(
    traced: Api, spans: InMemorySpanExporter, upstream_http: LoopbackServer
) -> None:
    acme = await traced.tenant("acme")
    sid = await session_for(acme, [FETCH])
    spans.clear()

    answered = await call(acme, sid, "fetch", {"url": f"{upstream_http.base}/echo/traced", "order_id": SECRET_ARGUMENT})  # fmt: skip

    assert answered["success"], answered
    every = list(spans.get_finished_spans())
    (tool,) = named(every, "execute_tool fetch")
    (run,) = named(every, "sandbox.run")
    (egress,) = [s for s in every if s.kind == SpanKind.CLIENT and s.name == "GET"]
    server = ancestors(tool, every)[-1]
    assert server.kind == SpanKind.SERVER
    assert server.name == "POST /v1/sessions/{sid}/{calls_or_messages}"
    assert server.attributes["http.response.status_code"] == 200
    assert ancestors(egress, every)[:2] == [run, tool]
    assert tool.attributes["gen_ai.operation.name"] == "execute_tool"
    assert tool.attributes["gen_ai.tool.name"] == "fetch"
    assert tool.attributes["quiver.session.id"] == sid
    assert tool.attributes["quiver.call.outcome"] == "success"
    assert run.attributes["quiver.engine"] == "restricted"
    assert egress.attributes["server.address"] == "127.0.0.2"
    assert egress.attributes["http.response.status_code"] == 200
    assert len({s.context.trace_id for s in (tool, run, egress, server)}) == 1
    # what the traffic carried is not in the trace: arguments, paths, queries
    words = str([dict(s.attributes or {}) for s in every]) + str([s.name for s in every])
    assert SECRET_ARGUMENT not in words and "/echo/traced" not in words and sid not in server.name  # fmt: skip


async def test_a_failed_call_marks_its_span(traced: Api, spans: InMemorySpanExporter) -> None:
    acme = await traced.tenant("acme")
    sid = await session_for(acme, [FETCH])
    spans.clear()

    await call(acme, sid, "fetch", {"url": "http://127.0.0.1:9/canary", "order_id": "A"})

    (tool,) = named(list(spans.get_finished_spans()), "execute_tool fetch")
    assert tool.status.status_code == StatusCode.ERROR
    assert tool.attributes["error.type"] == tool.attributes["quiver.call.outcome"] == "tool_error"


async def test_a_callers_trace_is_continued(traced: Api, spans: InMemorySpanExporter) -> None:
    acme = await traced.tenant("acme")
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"

    listed = await acme.dev.get("/v1/tools", headers={"traceparent": f"00-{trace_id}-{parent_id}-01"})  # fmt: skip

    assert listed.status_code == 200
    (server,) = [s for s in spans.get_finished_spans() if s.name == "GET /v1/tools"]
    assert server.context.trace_id == int(trace_id, 16)
    assert server.parent is not None and server.parent.span_id == int(parent_id, 16)


@DOORS
async def test_every_door_traces_the_call_and_the_loop_its_model_rounds(
    traced: Api, spans: InMemorySpanExporter, fake: FakeModel, kind: str
) -> None:
    acme = await traced.tenant("acme", shared=["escalate_to_human"])
    await prepare(traced, acme, fake)
    async with contextlib.AsyncExitStack() as stack:
        door = await open_door(kind, traced, acme, fake, stack)
        spans.clear()
        answered = await door.call("check_order", {"order_id": "AB1"})

    assert answered.success is True, answered
    every = list(spans.get_finished_spans())
    (tool,) = named(every, "execute_tool check_order")
    root = ancestors(tool, every)[-1]
    assert root.kind == SpanKind.SERVER and root.attributes["http.response.status_code"] == 200
    if kind == "mcp":
        assert root.name == "POST /mcp"
    if kind == "loop":
        chats = [s for s in named(every, "chat ") if s.context.trace_id == root.context.trace_id]
        assert chats and all(c.attributes["gen_ai.operation.name"] == "chat" for c in chats)
        assert all(c.attributes["gen_ai.usage.input_tokens"] > 0 for c in chats)
        assert chats[0].attributes["gen_ai.provider.name"] == "openai"


class Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP collector: decodes what the exporter posts to /v1/traces."""

    received: list[ExportTraceServiceRequest] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        Collector.received.append(request)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


async def test_the_otlp_exporter_sends_the_spans_to_the_collector(settings) -> None:
    collector = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    Collector.received = []
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}/v1/traces"
    try:
        async with api_for(settings.model_copy(update={"otlp_endpoint": endpoint, "otlp_service_name": "quiver-test"})) as api:  # fmt: skip
            assert (await api.admin.get("/v1/tenants")).status_code == 200
        # the node's shutdown sent what it had batched
        names = [
            span.name
            for request in Collector.received
            for resource in request.resource_spans
            for scope in resource.scope_spans
            for span in scope.spans
        ]
        services = {
            a.value.string_value
            for request in Collector.received
            for resource in request.resource_spans
            for a in resource.resource.attributes
            if a.key == "service.name"
        }
        assert "GET /v1/tenants" in names and services == {"quiver-test"}
    finally:
        collector.shutdown()
        collector.server_close()
