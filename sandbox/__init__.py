"""Isolation and limits only: engines that check and run untrusted tool code.

Knows nothing of tenants, HTTP or SQL.
"""

from sandbox.engine import Engine, FailureCode, Limits, RunResult, ToolSource, Violation
from sandbox.toolfile import ToolFileSpec, parse_tool_file

__all__ = [
    "Engine",
    "FailureCode",
    "Limits",
    "RunResult",
    "ToolFileSpec",
    "ToolSource",
    "Violation",
    "parse_tool_file",
]
