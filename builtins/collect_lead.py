"""Built-in skill: keep a sales lead (once per conversation)."""


async def execute(params, context):
    return await context.modules.skills.collect_lead(params)


tool = {
    "name": "collect_lead",
    "description": "Save the customer as a sales lead once they have given their name, a phone number or an e-mail address, and what they are interested in.",
    "parameters": {
        "name": {"required": True, "type": "string", "minLength": 1, "maxLength": 200},
        "email": {"type": "string", "maxLength": 254},
        "phone": {"type": "string", "maxLength": 32},
        "interest": {"required": True, "type": "string", "minLength": 1, "maxLength": 1000},
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "leads", "timeout": 10000, "once_per_session": True},
}
