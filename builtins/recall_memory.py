"""Built-in skill: what this customer said and did in earlier conversations."""


async def execute(params, context):
    return await context.modules.skills.recall_memory(params)


tool = {
    "name": "recall_memory",
    "description": "Search this customer's earlier conversations (what they said, what was looked up for them, what was noted) and return the most relevant snippets with their dates.",
    "parameters": {
        "query": {"required": True, "type": "string", "minLength": 1, "maxLength": 2000}
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "memory", "timeout": 10000},
}
