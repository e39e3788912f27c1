"""Isolation and limits only: engines that check and run untrusted tool code.

Knows nothing of tenants, HTTP or SQL.
"""

from sandbox.engine import (
    Capabilities,
    Engine,
    FailureCode,
    Limits,
    Run,
    RunResult,
    ToolSource,
    Violation,
)
from sandbox.toolfile import ToolFileSpec, parse_tool_file

__all__ = [
    "Capabilities",
    "Engine",
    "FailureCode",
    "Limits",
    "Run",
    "RunResult",
    "ToolFileSpec",
    "ToolSource",
    "Violation",
    "parse_tool_file",
]
