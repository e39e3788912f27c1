"""Built-in skill: products like a given one."""


async def execute(params, context):
    return await context.modules.skills.recommend_similar(params)


tool = {
    "name": "recommend_similar",
    "description": "Recommend products similar to a given product.",
    "parameters": {
        "productId": {"required": True, "type": "string", "minLength": 1, "maxLength": 128}
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "recommend", "timeout": 10000},
}
