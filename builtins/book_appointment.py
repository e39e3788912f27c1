"""Built-in skill: book an open appointment slot."""


async def execute(params, context):
    return await context.modules.skills.book_appointment(params)


tool = {
    "name": "book_appointment",
    "description": "Book an appointment in an open slot (a start time from available_slots) for the customer.",
    "parameters": {
        "start": {
            "required": True,
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "description": "the slot's start, as available_slots gives it",
        },
        "name": {"required": True, "type": "string", "minLength": 1, "maxLength": 200},
        "contact": {"type": "string", "maxLength": 254},
        "note": {"type": "string", "maxLength": 1000},
        "calendar": {"type": "string", "maxLength": 64},
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "appointments", "timeout": 5000},
}
