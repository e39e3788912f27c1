"""A tenant's bots: the rules a bot's settings obey across the tenant's data, and saving them —
the use case the routes share. What a body may say on its own (names, ranges) is checked where
it is parsed; here: a pinned version must exist, a model must name one of the tenant's
providers, and intent detection must fit the bot's intents and model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.agent.intents import check_detection
from server.calls.ports import CallStore
from server.errors import FieldError, ValidationFailedError
from server.records import StoredBot


@dataclass(frozen=True)
class BotSpec:
    name: str
    tools: list[Any] | None  # as stored: names, and pins as {"name", "version"}; None: every tool
    intents: dict[str, list[str]] | None = None
    max_tools: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)  # the agent loop's (model, rounds…)

    def pins(self) -> list[tuple[int, str, int]]:
        """(position in ``tools``, name, version) of each pinned tool."""
        return [
            (i, t["name"], t["version"])
            for i, t in enumerate(self.tools or ())
            if isinstance(t, dict) and t.get("version")
        ]


async def create(store: CallStore, actor: str | None, tenant_id: str, spec: BotSpec) -> StoredBot:
    """A new bot (409 if the name is taken; 422 naming each broken rule)."""
    await store.tenants.get(tenant_id)
    await check(store, tenant_id, spec)
    row = await store.bots.create(
        tenant_id, spec.name, spec.tools, spec.intents, spec.max_tools, **spec.settings
    )
    await store.changed(actor, tenant_id, "bot.create", spec.name)
    return row


async def replace(store: CallStore, actor: str | None, tenant_id: str, spec: BotSpec) -> StoredBot:
    """The bot's settings, all of them (404 if there is no such bot)."""
    await check(store, tenant_id, spec)
    row = await store.bots.replace(
        tenant_id, spec.name, spec.tools, spec.intents, spec.max_tools, **spec.settings
    )
    await store.changed(actor, tenant_id, "bot.update", spec.name)
    return row


async def save(
    store: CallStore, actor: str | None, tenant_id: str, spec: BotSpec
) -> tuple[StoredBot, bool]:
    """The bot's settings, all of them, creating the bot if there is none: ``PUT`` as tools and
    providers have it. Whether it was created."""
    if await store.bots.find(tenant_id, spec.name) is None:
        return await create(store, actor, tenant_id, spec), True
    return await replace(store, actor, tenant_id, spec), False


async def check(store: CallStore, tenant_id: str, spec: BotSpec) -> None:
    problems = await _pin_problems(store, tenant_id, spec) + await _model_problems(
        store, tenant_id, spec
    )
    if problems:
        raise ValidationFailedError(problems)


async def _pin_problems(store: CallStore, tenant_id: str, spec: BotSpec) -> list[FieldError]:
    """A pinned version must exist (of the tenant's tool, else the global one of that name)."""
    problems = []
    for i, name, version in spec.pins():
        tool = await store.tools.find(tenant_id, name) or await store.tools.find("*", name)
        if tool is None:
            problems.append(FieldError(f"no tool {name!r} to pin", field=f"tools[{i}].name"))
        elif await store.tools.find_version(tool, version) is None:
            message = f"{name!r} has no version {version}"
            problems.append(FieldError(message, field=f"tools[{i}].version"))
    return problems


async def _model_problems(store: CallStore, tenant_id: str, spec: BotSpec) -> list[FieldError]:
    """A bot's models name providers of its tenant; detection fits its intents and model."""
    problems = []
    settings = spec.settings
    for name in ("model", "tool_round_model"):
        ref = settings.get(name)
        if ref and await store.providers.find(tenant_id, ref.split("/", 1)[0]) is None:
            message = f"no provider {ref.split('/', 1)[0]!r} (PUT /v1/providers/{{name}} first)"
            problems.append(FieldError(message, field=name))
    if settings.get("tool_round_model") and not settings.get("model"):
        problems.append(FieldError("needs `model` too", field="tool_round_model"))
    if settings.get("code_mode") and settings.get("tool_loading") == "search":
        message = "a code-mode bot offers run_code alone: tool_loading must be all"
        problems.append(FieldError(message, field="code_mode"))
    detection = settings.get("intent_detection")
    problems += check_detection(detection, spec.intents)
    if detection and detection.get("mode") == "model" and not settings.get("model"):
        message = "the model mode needs the bot's `model`"
        problems.append(FieldError(message, field="intent_detection.mode"))
    return problems
