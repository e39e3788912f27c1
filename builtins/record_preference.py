"""Built-in skill: remember a customer's reaction to a product."""


async def execute(params, context):
    return await context.modules.skills.record_preference(params)


tool = {
    "name": "record_preference",
    "description": "Record the customer's reaction to a product: yes (likes it), no (does not), dismiss (not now). Later recommendations follow it.",
    "parameters": {
        "productId": {"required": True, "type": "string", "minLength": 1, "maxLength": 128},
        "response": {"required": True, "type": "string", "enum": ["yes", "no", "dismiss"]},
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "recommend", "timeout": 5000},
}
