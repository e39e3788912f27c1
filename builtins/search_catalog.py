"""Built-in skill: BM25 search of the tenant's product catalog."""


async def execute(params, context):
    return await context.modules.skills.search_catalog(params)


tool = {
    "name": "search_catalog",
    "description": "Search the product catalog. Returns the best matching products (id, fields, meta, score).",
    "parameters": {
        "query": {
            "required": True,
            "type": "string",
            "minLength": 1,
            "maxLength": 2000,
            "description": "what the customer is looking for",
        }
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "search", "timeout": 10000},
}
