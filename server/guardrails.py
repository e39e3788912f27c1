"""A tenant's guardrails: a policy checked before and after every call of its tools, on every
door (``server/calls/guardrails.py`` applies it). An admin sets it
(``PUT /v1/tenants/{tenant}/guardrails``):

    {"deny": [{"tool": "refund*", "arguments": "\\"amount\\":\\\\s*[0-9]{4,}"}],
     "redact": {"arguments": ["email"], "results": ["email", "phone", "card"]},
     "max_argument_bytes": 8192, "max_result_bytes": 65536,
     "hook": {"url": "https://policy.example.com/check", "timeout_ms": 500,
              "fail_closed": true, "phases": ["before", "after"]}}

``deny``: a call whose tool name matches ``tool`` (a glob) and, if given, whose arguments (as
compact JSON) match ``arguments`` (a regular expression, searched with a time limit) does not
run. ``redact``: the personal data of these classes is replaced (``[email]``, ``[phone]``,
``[card]``: 13-19 digits that pass the Luhn check) in what the tool receives and in what it
returns. ``max_*_bytes``: larger arguments are refused, larger results withheld. ``hook``: a
policy service asked through the egress guard, which may allow, deny or modify.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

import regex

from server.egress import EgressDenied, parse_url

CLASSES = ("email", "phone", "card")
PHASES = ("before", "after")
MAX_RULES = 64
MAX_PATTERN = 500
MATCH_TIMEOUT_S = 0.05  # a pattern that backtracks for longer is a match: the call is denied
KEYS = {"deny", "redact", "max_argument_bytes", "max_result_bytes", "hook"}

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
# 13-19 digits, maybe grouped by single spaces or dashes
CARD = re.compile(r"(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])")
# an international or grouped number of 7-15 digits (a plain run of digits is not a phone)
PHONE = re.compile(
    r"(?<![\w+])"
    r"(?:\+[0-9][0-9 ().-]{6,20}[0-9]|\(?[0-9]{2,4}\)?[ .-][0-9][0-9 .-]{4,14}[0-9])"
    r"(?![\w])"
)


@dataclass(frozen=True)
class Rule:
    tool: str
    arguments: regex.Pattern[str] | None = None

    def matches(self, tool: str, arguments_json: str) -> bool:
        if not fnmatch.fnmatchcase(tool, self.tool):
            return False
        if self.arguments is None:
            return True
        try:
            return self.arguments.search(arguments_json, timeout=MATCH_TIMEOUT_S) is not None
        except TimeoutError:
            return True  # deny rather than let a pattern decide nothing


@dataclass(frozen=True)
class Hook:
    url: str
    timeout_ms: int = 1000
    fail_closed: bool = False
    phases: tuple[str, ...] = PHASES


@dataclass(frozen=True)
class Policy:
    deny: tuple[Rule, ...] = ()
    redact_arguments: frozenset[str] = frozenset()
    redact_results: frozenset[str] = frozenset()
    max_argument_bytes: int | None = None
    max_result_bytes: int | None = None
    hook: Hook | None = None
    active: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        active = bool(
            self.deny
            or self.redact_arguments
            or self.redact_results
            or self.max_argument_bytes
            or self.max_result_bytes
            or self.hook
        )
        object.__setattr__(self, "active", active)

    def denied_by(self, tool: str, arguments_json: str) -> Rule | None:
        return next((r for r in self.deny if r.matches(tool, arguments_json)), None)


NONE = Policy()


def parse(raw: Any) -> tuple[Policy, list[tuple[str, str]]]:
    """The policy, and its problems (field, message); with problems, the policy is ``NONE``."""
    if raw is None or raw == {}:
        return NONE, []
    if not isinstance(raw, dict):
        return NONE, [("", "must be an object")]
    allowed = ", ".join(sorted(KEYS))
    problems = [(key, f"unknown key (allowed: {allowed})") for key in sorted(raw.keys() - KEYS)]
    rules = _rules(raw.get("deny", []), problems)
    redact = raw.get("redact", {})
    classes: dict[str, frozenset[str]] = {}
    if not isinstance(redact, dict) or redact.keys() - {"arguments", "results"}:
        problems.append(("redact", "must be an object with arguments and/or results"))
    else:
        for side in ("arguments", "results"):
            named = redact.get(side, [])
            if not isinstance(named, list) or not all(c in CLASSES for c in named):
                problems.append((f"redact.{side}", f"must be a list of {', '.join(CLASSES)}"))
            else:
                classes[side] = frozenset(named)
    sizes: dict[str, int | None] = {}
    for key in ("max_argument_bytes", "max_result_bytes"):
        value = raw.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 16 << 20
        ):
            problems.append((key, "must be an integer from 1 to 16777216"))
        sizes[key] = value if isinstance(value, int) and not isinstance(value, bool) else None
    hook = _hook(raw.get("hook"), problems)
    if problems:
        return NONE, problems
    return Policy(
        deny=tuple(rules),
        redact_arguments=classes.get("arguments", frozenset()),
        redact_results=classes.get("results", frozenset()),
        max_argument_bytes=sizes["max_argument_bytes"],
        max_result_bytes=sizes["max_result_bytes"],
        hook=hook,
    ), []


def _rules(raw: Any, problems: list[tuple[str, str]]) -> list[Rule]:
    if not isinstance(raw, list) or len(raw) > MAX_RULES:
        problems.append(("deny", f"must be a list of at most {MAX_RULES} rules"))
        return []
    rules = []
    for i, entry in enumerate(raw):
        at = f"deny[{i}]"
        if not isinstance(entry, dict) or entry.keys() - {"tool", "arguments"}:
            problems.append((at, "must be an object with tool and, optionally, arguments"))
            continue
        tool, pattern = entry.get("tool", "*"), entry.get("arguments")
        if not isinstance(tool, str) or not 1 <= len(tool) <= 200:
            problems.append((f"{at}.tool", "must be a tool name or a glob (refund*, *)"))
            continue
        compiled = None
        if pattern is not None:
            if not isinstance(pattern, str) or not 1 <= len(pattern) <= MAX_PATTERN:
                limit = f"must be a regular expression of at most {MAX_PATTERN} characters"
                problems.append((f"{at}.arguments", limit))
                continue
            try:
                compiled = regex.compile(pattern)
            except regex.error as exc:
                problems.append((f"{at}.arguments", f"is not a regular expression: {exc}"))
                continue
        rules.append(Rule(tool, compiled))
    return rules


def _hook(raw: Any, problems: list[tuple[str, str]]) -> Hook | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.keys() - {"url", "timeout_ms", "fail_closed", "phases"}:
        problems.append(("hook", "must be an object with url, timeout_ms, fail_closed, phases"))
        return None
    try:
        parse_url(str(raw.get("url", "")))
    except EgressDenied as exc:
        problems.append(("hook.url", str(exc)))
        return None
    timeout = raw.get("timeout_ms", 1000)
    if not isinstance(timeout, int) or isinstance(timeout, bool) or not 10 <= timeout <= 10_000:
        problems.append(("hook.timeout_ms", "must be an integer from 10 to 10000"))
        return None
    if not isinstance(raw.get("fail_closed", False), bool):
        problems.append(("hook.fail_closed", "must be true or false"))
        return None
    phases = raw.get("phases", list(PHASES))
    if not isinstance(phases, list) or not phases or not all(p in PHASES for p in phases):
        problems.append(("hook.phases", "must be a list of before and/or after"))
        return None
    return Hook(str(raw["url"]), timeout, bool(raw.get("fail_closed", False)), tuple(phases))


def luhn(digits: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _cards(text: str) -> str:
    def card(match: re.Match[str]) -> str:
        digits = re.sub(r"[ -]", "", match.group())
        return "[card]" if luhn(digits) else match.group()

    return CARD.sub(card, text)


def redact_text(text: str, classes: frozenset[str]) -> str:
    if "card" in classes:
        text = _cards(text)  # before phones: a card number's groups look like one
    if "email" in classes:
        text = EMAIL.sub("[email]", text)
    if "phone" in classes:
        text = PHONE.sub(_phone, text)
    return text


def _phone(match: re.Match[str]) -> str:
    """A phone number has 7 to 15 digits (E.164): longer groups are something else."""
    digits = sum(c.isdigit() for c in match.group())
    return "[phone]" if 7 <= digits <= 15 else match.group()


def redact(value: Any, classes: frozenset[str]) -> Any:
    """``value`` with the personal data of ``classes`` replaced in every string (keys too)."""
    if not classes:
        return value
    if isinstance(value, str):
        return redact_text(value, classes)
    if isinstance(value, dict):
        return {redact(k, classes): redact(v, classes) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, classes) for v in value]
    return value
