"""Built-in: hand the conversation to a human agent."""


def execute(params, context):
    reason = params.get("reason", "") or "customer asked for a human"
    context["update_context"]({"escalated": True, "escalation_reason": reason})
    return {
        "success": True,
        "message": "A human agent will join the conversation shortly.",
        "handoff": True,
        "reason": reason,
    }


tool = {
    "name": "escalate_to_human",
    "description": "Hand the conversation to a human agent when the customer asks for one or the "
    "request cannot be handled with the other tools.",
    "parameters": {
        "reason": {"type": "string", "maxLength": 500, "description": "why a human is needed"},
    },
    "execute": execute,
    "metadata": {"category": "handoff", "timeout": 1000},
}
