"""The tenant's guardrails applied to one call (``server/guardrails.py`` says what a policy
holds): ``before`` the tool runs — size, deny rules, redaction of the arguments, the policy
hook — and ``after`` — size, redaction of the result, the hook. Every door reaches them through
the pipeline. Each decision other than a silent allow is counted
(``quiver_guardrail_decisions_total``) and logged with the tenant and the tool (never the data).

The hook is a tenant's policy service, asked through the egress guard with a JSON body
``{"phase", "tenant", "tool", "session", "arguments"[, "result"]}``; it answers
``{"decision": "allow" | "deny" | "modify", "reason", "arguments" | "result"}``. One that does
not answer in time, or answers something else, allows the call — unless ``fail_closed``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

from server import metrics
from server.calls.arguments import ArgumentError
from server.egress import Allowlist, EgressDenied, EgressGuard, NameNotResolved, ResponseTooLarge
from server.guardrails import Policy, redact

log = logging.getLogger("quiver.guardrails")
HOOK_REPLY_BYTES = 1 << 20
DECISIONS = ("allow", "deny", "modify")
NO_ANSWER = "the policy service did not answer"


@dataclass(frozen=True)
class Checked:
    """What ``before`` decided: the arguments to run with (or, denied, to log), and why the
    call may not run."""

    arguments: Any = None
    denied: str | None = None


@dataclass(frozen=True)
class Subject:
    """Whose call the policy is applied to."""

    policy: Policy
    tenant: str
    tool: str
    session: str | None
    egress: tuple[str, ...] | None  # the tenant's own allowlist, for the hook's request


class Guardrails:
    def __init__(self, guard: EgressGuard | None) -> None:
        self.guard = guard

    async def before(
        self, subject: Subject, arguments: Any, recheck: Callable[[Any], Any]
    ) -> Checked:
        """``recheck``: the tool's argument check, for arguments the hook modified (it raises
        on arguments the tool does not take)."""
        policy, tenant, tool = subject.policy, subject.tenant, subject.tool
        text = orjson.dumps(arguments, option=orjson.OPT_SORT_KEYS).decode()
        # what the tool gets, and what the call log keeps even of a denied call
        redacted = redact(arguments, policy.redact_arguments)
        cap = policy.max_argument_bytes
        if cap is not None and len(text.encode()) > cap:
            reason = f"the arguments are over {cap} bytes"
            return self._denied("before", tenant, tool, reason, shown=redacted)
        rule = policy.denied_by(tool, text)  # the rules see the arguments as they came
        if rule is not None:
            reason = f"denied by the rule for {rule.tool!r}"
            return self._denied("before", tenant, tool, reason, shown=redacted)
        if redacted != arguments:
            self._count("before", "redact", tenant, tool)
            arguments = redacted
        hook = policy.hook
        if hook is None or "before" not in hook.phases:
            return Checked(arguments)
        answer = await self._ask(subject, "before", arguments)
        if answer is None:
            if hook.fail_closed:
                return self._denied("before", tenant, tool, NO_ANSWER, "fail_closed", arguments)
            self._count("before", "fail_open", tenant, tool)
            return Checked(arguments)
        decision, reason = answer.get("decision"), str(answer.get("reason") or "")[:500]
        if decision == "deny":
            reason = reason or "denied by the policy service"
            return self._denied("before", tenant, tool, reason, shown=arguments)
        if decision == "modify" and "arguments" in answer:
            try:
                modified = recheck(answer["arguments"])
            except ArgumentError as exc:  # the tool's check refused them: the call does not run
                reason = f"the policy service's arguments do not fit the tool: {exc}"
                return self._denied("before", tenant, tool, reason, shown=arguments)
            self._count("before", "modify", tenant, tool)
            return Checked(modified)
        return Checked(arguments)

    async def after(self, subject: Subject, arguments: Any, result: Any) -> tuple[Any, str | None]:
        """The result to answer, or why it is withheld."""
        policy, tenant, tool = subject.policy, subject.tenant, subject.tool
        cap = policy.max_result_bytes
        if cap is not None and len(orjson.dumps(result)) > cap:
            return None, self._withheld(tenant, tool, f"the result is over {cap} bytes")
        if policy.redact_results:
            redacted = redact(result, policy.redact_results)
            if redacted != result:
                self._count("after", "redact", tenant, tool)
                result = redacted
        hook = policy.hook
        if hook is None or "after" not in hook.phases:
            return result, None
        answer = await self._ask(subject, "after", arguments, {"result": result})
        if answer is None:
            if hook.fail_closed:
                return None, self._withheld(tenant, tool, NO_ANSWER, "fail_closed")
            self._count("after", "fail_open", tenant, tool)
            return result, None
        decision, reason = answer.get("decision"), str(answer.get("reason") or "")[:500]
        if decision == "deny":
            return None, self._withheld(tenant, tool, reason or "withheld by the policy service")
        if decision == "modify" and isinstance(answer.get("result"), dict):
            self._count("after", "modify", tenant, tool)
            return answer["result"], None
        return result, None

    def partial(self, policy: Policy, tenant: str, tool: str, partial: Any) -> Any:
        """A partial result as the result rules allow it out: size-capped and redacted; None
        when a policy hook vets results (it is asked about whole results only)."""
        if policy.hook is not None and "after" in policy.hook.phases:
            return None
        cap = policy.max_result_bytes
        if cap is not None and len(orjson.dumps(partial)) > cap:
            return None
        if policy.redact_results:
            redacted = redact(partial, policy.redact_results)
            if redacted != partial:
                self._count("after", "redact", tenant, tool)
                return redacted
        return partial

    async def _ask(
        self, subject: Subject, phase: str, arguments: Any, more: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """The hook's answer, or None: no answer in time, an error, or not an object with an
        allow/deny/modify decision."""
        hook, egress = subject.policy.hook, subject.egress
        assert hook is not None
        body = {
            "phase": phase,
            "tenant": subject.tenant,
            "tool": subject.tool,
            "session": subject.session,
            "arguments": arguments,
            **(more or {}),
        }
        if self.guard is None:
            return None
        try:
            response, raw = await self.guard.request(
                "POST",
                hook.url,
                tenant=subject.tenant,
                json=body,
                timeout_s=hook.timeout_ms / 1000,
                max_bytes=HOOK_REPLY_BYTES,
                extra=Allowlist.parse(egress) if egress else None,
            )
            answer = orjson.loads(raw) if 200 <= response.status_code < 300 else None
        except (
            TimeoutError,
            httpx.HTTPError,
            EgressDenied,
            NameNotResolved,
            ResponseTooLarge,
            orjson.JSONDecodeError,
        ) as exc:  # the service is away or refused: the policy's fail_closed decides (logged)
            log.warning("guardrails: the policy hook failed (%s)", type(exc).__name__)
            return None
        if not isinstance(answer, dict) or answer.get("decision") not in DECISIONS:
            log.warning("guardrails: the policy hook's answer has no decision")
            return None
        if answer["decision"] == "allow":
            metrics.GUARDRAILS.labels(phase=phase, decision="allow").inc()
        return answer

    def _denied(
        self,
        phase: str,
        tenant: str,
        tool: str,
        reason: str,
        decision: str = "deny",
        shown: Any = None,
    ) -> Checked:
        self._count(phase, decision, tenant, tool, reason)
        return Checked(shown, denied=reason)

    def _withheld(self, tenant: str, tool: str, reason: str, decision: str = "deny") -> str:
        self._count("after", decision, tenant, tool, reason)
        return reason

    @staticmethod
    def _count(phase: str, decision: str, tenant: str, tool: str, reason: str = "") -> None:
        metrics.GUARDRAILS.labels(phase=phase, decision=decision).inc()
        log.info(
            "guardrails %s %s: tenant %s, tool %s%s",
            phase,
            decision,
            tenant,
            tool,
            f" ({reason})" if reason else "",
        )
