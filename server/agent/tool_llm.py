"""``context.modules.llm.chat(messages, model=None, max_tokens=256)`` for code tools, in every
sandbox: a host call, answered here with the tenant's own provider — the key never enters the
sandbox. The model is the call's ``model`` (``provider/model``), else the session's bot's (its
tool-round model first), else the tenant's first provider's first model. At most ``MAX_CALLS`` calls
per tool run and ``MAX_TOKENS`` tokens per answer; the tokens are counted in the tenant's usage
(``GET /v1/usage``: ``today.llm_*``). A test run (``POST /v1/tools/{name}/test``) is refused unless
it opts in (``"llm": true``): testing a tool must not spend model tokens by surprise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.agent.providers import ProviderConfig
from server.calls.host import HostCallRefused
from server.calls.services import Services
from server.egress import Allowlist
from server.errors import ProviderError

if TYPE_CHECKING:
    from server.agent.loop import ProviderClients

MAX_CALLS = 3
MAX_TOKENS = 1024
MAX_MESSAGES = 50


class ToolLlm:
    def __init__(self, services: Services, clients: ProviderClients) -> None:
        self.services = services
        self.clients = clients  # the agent loop's warm clients

    async def chat(self, tenant_id: str, bot: str | None, args: dict[str, Any]) -> dict[str, Any]:
        messages = args.get("messages")
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        if (
            not isinstance(messages, list)
            or not messages
            or len(messages) > MAX_MESSAGES
            or not all(
                isinstance(m, dict)
                and m.get("role") in ("user", "assistant")
                and isinstance(m.get("content"), str)
                for m in messages
            )
        ):
            raise HostCallRefused(
                f"llm.chat takes 1 to {MAX_MESSAGES} messages {{role: user|assistant, content: "
                "str}"
            )
        max_tokens = args.get("max_tokens") or 256
        if not isinstance(max_tokens, int) or not 1 <= max_tokens <= MAX_TOKENS:
            raise HostCallRefused(f"llm.chat: max_tokens must be 1 to {MAX_TOKENS}")
        services = self.services
        async with services.storage.transaction() as store:
            ref = args.get("model")
            if ref is None and bot is not None:
                bot_row = await store.bots.find(tenant_id, bot)
                ref = bot_row.tool_round_model or bot_row.model if bot_row else None
            if ref is None:  # no session (a test run): the tenant's first provider's first model
                first = next((p for p in await store.providers.list(tenant_id) if p.models), None)
                ref = f"{first.name}/{first.models[0]}" if first is not None else None
            if not isinstance(ref, str) or "/" not in ref:
                raise HostCallRefused(
                    "llm.chat needs a model: `provider/model`, or a session whose bot has one"
                )
            provider_name, model = ref.split("/", 1)
            row = await store.providers.find(tenant_id, provider_name)
            if row is None:
                raise HostCallRefused(f"llm.chat: this tenant has no provider {provider_name!r}")
            view = await services.registry.view(store, tenant_id)
            extra = Allowlist.parse(view.egress_allow) if view.egress_allow else None
            config = ProviderConfig(
                row.kind,
                store.providers.api_key(row),
                row.base_url,
                timeout_s=services.settings.provider_timeout_s,
                max_retries=services.settings.provider_retries,
                egress=(services.egress, extra) if services.egress else None,
            )
        provider = self.clients.get(config)
        try:
            reply = await provider.complete(model, None, messages, None)
        except ProviderError as exc:
            raise HostCallRefused(f"llm.chat: {exc.detail}") from None
        if services.quotas is not None:
            await services.quotas.charge_tokens(tenant_id, reply.usage.input, reply.usage.output)
        return {"content": reply.text, "usage": reply.usage.as_dict(), "model": ref}
