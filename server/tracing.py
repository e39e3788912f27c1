"""Traces (OpenTelemetry), off by default: one span per HTTP request, per tool call
(``execute_tool``, the GenAI semantic conventions), per model round (``chat``), per sandbox run
and per egress request, nested as they happen. ``QUIVER_OTLP_ENDPOINT`` turns them on and sends
them there (OTLP over HTTP, batched).

What a span says is chosen for an operator, not copied from the traffic: names, ids, outcome
codes, sizes and token counts; never arguments, results, messages, headers, query strings or
secrets. Off, nothing is made per request (``Tracing.on`` is false and each place skips its
span). The node's own provider, not the process-wide one: two apps in one process (the tests)
keep their spans apart.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

log = logging.getLogger("quiver")
Attributes = Mapping[str, str | int | float | bool]
SERVER, CLIENT, INTERNAL = SpanKind.SERVER, SpanKind.CLIENT, SpanKind.INTERNAL


class Tracing:
    """A node's tracer (``on``), or none."""

    def __init__(
        self,
        exporter: SpanExporter | None = None,
        service: str = "quiver",
        batch: bool = True,
        version: str = "",
    ) -> None:
        self.on = exporter is not None
        self._provider: TracerProvider | None = None
        self._tracer: trace.Tracer | None = None
        if exporter is None:
            return
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

        resource = Resource.create({"service.name": service, "service.version": version})
        self._provider = TracerProvider(resource=resource)
        processor = BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter)
        self._provider.add_span_processor(processor)
        self._tracer = self._provider.get_tracer("quiver")

    @classmethod
    def otlp(cls, endpoint: str, service: str, version: str) -> Tracing:
        """Spans sent to an OTLP/HTTP collector (``…/v1/traces``)."""
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return cls(OTLPSpanExporter(endpoint=endpoint, timeout=10), service, version=version)

    @contextlib.contextmanager
    def span(
        self, name: str, kind: SpanKind = INTERNAL, attributes: Attributes | None = None
    ) -> Iterator[trace.Span]:
        """A span for the block, a child of the current one; an exception marks it failed.
        Only call when ``on``."""
        assert self._tracer is not None
        with self._tracer.start_as_current_span(
            name, kind=kind, attributes=dict(attributes or {}), record_exception=False
        ) as span:
            try:
                yield span
            except BaseException as exc:  # a Quiver error names its code
                failed(span, str(getattr(exc, "code", None) or type(exc).__name__))
                raise

    def maybe(
        self, name: str, kind: SpanKind = INTERNAL, attributes: Attributes | None = None
    ) -> contextlib.AbstractContextManager[trace.Span | None]:
        """``span`` when on, else a block with no span (``None``)."""
        if self._tracer is None:
            return contextlib.nullcontext()
        return self.span(name, kind, attributes)

    def server_span(self, name: str, headers: list[tuple[bytes, bytes]]) -> Any:
        """An HTTP request's span, continuing the caller's trace (W3C ``traceparent``)."""
        assert self._tracer is not None
        from opentelemetry.propagate import extract

        carrier = {
            k.decode("latin-1"): v.decode("latin-1")
            for k, v in headers
            if k in (b"traceparent", b"tracestate")
        }
        return self._tracer.start_as_current_span(
            name, kind=SERVER, context=extract(carrier) if carrier else None
        )

    def flush(self) -> None:
        if self._provider is not None:
            self._provider.force_flush()

    def close(self) -> None:
        if self._provider is not None:
            try:
                self._provider.shutdown()
            except Exception:  # an exporter's failure must not stop the node's shutdown
                log.warning("traces: the exporter failed at shutdown", exc_info=True)
            self._provider = None


OFF = Tracing()


def failed(span: trace.Span, code: str) -> None:
    """Mark ``span`` failed with a Quiver error code (``error.type``)."""
    span.set_status(Status(StatusCode.ERROR, code))
    span.set_attribute("error.type", code)
