"""Built-in skill: answers from the tenant's FAQ."""


async def execute(params, context):
    return await context.modules.skills.qa_lookup(params)


tool = {
    "name": "qa_lookup",
    "description": "Find answers to a customer's question in the FAQ. Returns answered (true when the first entry answers it) and the best entries with a score and a confidence from 0 to 1; when answered is false the FAQ does not know: say so rather than answer from an entry.",
    "parameters": {
        "question": {
            "required": True,
            "type": "string",
            "minLength": 1,
            "maxLength": 2000,
            "description": "the question, in the customer's words",
        }
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "qa", "timeout": 10000},
}
