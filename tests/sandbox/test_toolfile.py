"""The static shape check of tool files."""

from __future__ import annotations

from sandbox.toolfile import parse_tool_file

GOOD = """TIMEOUT = 1500
PARAMS = {"q": {"type": "string"}}


def run(params, context):
    return {"success": True}


def handle(error, params, context):
    return {"success": False}


tools = [
    {"name": "a", "description": "first " + "tool", "parameters": PARAMS, "execute": run,
     "metadata": {"timeout": TIMEOUT}, "on_error": handle},
    {"name": "b", "description": "second", "execute": run},
]
"""


def test_several_tools_with_constants_are_read() -> None:
    specs, violations = parse_tool_file(GOOD)

    assert violations == []
    assert [(s.name, s.description, s.execute, s.on_error) for s in specs] == [
        ("a", "first tool", "run", "handle"),
        ("b", "second", "run", None),
    ]
    assert specs[0].parameters == {"q": {"type": "string"}} and specs[0].metadata == {
        "timeout": 1500
    }


def test_every_violation_is_reported_with_its_line() -> None:
    source = 'def run(p):\n    pass\n\ntool = {\n    "name": "x",\n    "evil": 1,\n    "execute": run,\n    "on_error": missing,\n    "parameters": make(),\n}\n'

    _, violations = parse_tool_file(source)

    found = {(v.field, v.line) for v in violations}
    assert ("tool.evil", 6) in found
    assert ("tool.execute", 1) in found  # wrong arity, reported at the def
    assert ("tool.on_error", 8) in found
    assert ("tool.parameters", 9) in found
    assert ("tool.description", 4) in found  # missing key


def test_missing_declaration_and_syntax_errors_are_violations() -> None:
    assert parse_tool_file("x = 1\n")[1][0].field == "source"
    _, violations = parse_tool_file("tool = {\n")
    assert violations[0].line == 1 and "syntax" in violations[0].message


def test_double_star_and_non_string_keys_are_refused() -> None:
    _, violations = parse_tool_file(
        'def run(p, c):\n    pass\nX = {}\ntool = {**X, 1: 2, "name": "a", "description": "d", "execute": run}\n'
    )

    assert len(violations) == 2 and all(v.line == 4 for v in violations)
