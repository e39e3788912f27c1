"""Built-in skill: submit one of the tenant's forms."""


async def execute(params, context):
    return await context.modules.skills.submit_form(params)


tool = {
    "name": "submit_form",
    "description": "Submit a form with the fields the customer gave. The form names and their fields are the tenant's.",
    "parameters": {
        "form": {"required": True, "type": "string", "minLength": 1, "maxLength": 64},
        "fields": {"required": True, "type": "object"},
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "forms", "timeout": 5000},
}
