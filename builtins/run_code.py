"""Built-in: code mode's one tool, for bots with ``code_mode``. The model's program runs in the
sandbox and calls the session's tools as functions, each through the session's gate."""


async def execute(params, context):
    return await context.modules.skills.run_code(params)


tool = {
    "name": "run_code",
    "description": "Run a short program that calls this assistant's tools as functions and answers with what it returns. Use it to do several steps at once: look things up, compare, then act.",
    "parameters": {
        "code": {
            "required": True,
            "type": "string",
            "minLength": 1,
            "maxLength": 20000,
            "description": "the program",
        }
    },
    "execute": execute,
    "metadata": {"category": "skill", "skill": "code_mode", "timeout": 30000},
}
