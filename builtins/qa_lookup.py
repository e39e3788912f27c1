"""Built-in skill: answers from the tenant's FAQ."""


async def execute(params, context):
    return await context.modules.skills.qa_lookup(params)


tool = {
    "name": "qa_lookup",
    "description": "Find answers to a customer's question in the FAQ. Returns the best entries with a score and a confidence from 0 to 1; answer from an entry only when its confidence is high.",
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
