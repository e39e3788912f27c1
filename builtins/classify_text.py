"""Built-in skill: labels for a text (multinomial Naive Bayes over the tenant's samples)."""


async def execute(params, context):
    return await context.modules.skills.classify_text(params)


tool = {
    "name": "classify_text",
    "description": "Classify a text into the labels of the tenant's samples. Returns predictions with scores.",
    "parameters": {
        "text": {"required": True, "type": "string", "minLength": 1, "maxLength": 5000},
        "lang": {
            "type": "string",
            "maxLength": 16,
            "description": "the text's language code, when known",
        },
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "classify", "timeout": 10000},
}
