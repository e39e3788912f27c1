"""Built-in skill: open appointment slots."""


async def execute(params, context):
    return await context.modules.skills.available_slots(params)


tool = {
    "name": "available_slots",
    "description": "List the open appointment slots (start and end times).",
    "parameters": {"calendar": {"type": "string", "maxLength": 64}},
    "execute": execute,
    "metadata": {"category": "skill", "skill": "appointments", "timeout": 5000},
}
