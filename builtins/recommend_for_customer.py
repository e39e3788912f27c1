"""Built-in skill: products for this customer, from their earlier reactions."""


async def execute(params, context):
    return await context.modules.skills.recommend_for_customer(params)


tool = {
    "name": "recommend_for_customer",
    "description": "Recommend products for this customer, based on the products they liked or rejected before.",
    "parameters": {},
    "execute": execute,
    "metadata": {"category": "skill", "skill": "recommend", "timeout": 10000},
}
