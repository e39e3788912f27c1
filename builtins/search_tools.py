"""Built-in: the tool search of bots with ``tool_loading: "search"``. The tools it finds join the
session's tools for the rest of the conversation."""


async def execute(params, context):
    return await context.modules.skills.search_tools(params)


tool = {
    "name": "search_tools",
    "description": "Find tools for a task among this assistant's tools that are not loaded yet. Describe the task in a few words (what you want to do and to what); the best matching tools are returned with what they do, and can be called from now on. Search again with other words if none fits.",
    "parameters": {
        "query": {
            "required": True,
            "type": "string",
            "minLength": 1,
            "maxLength": 500,
            "description": "the task, e.g. 'refund a late order' or 'change a booking date'",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 10,
            "description": "how many tools at most (default 5)",
        },
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "tool_search", "timeout": 10000},
}
