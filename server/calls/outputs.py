"""A tool's declared result shape (``metadata.output_schema``): MCP clients are promised it as
``outputSchema`` and check every result against it, so a result that breaks the promise is a
failed call (``malformed_output``) for every caller, logged and counted as the tool's fault."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import jsonschema_rs

MAX_VALIDATORS = 1024


class OutputCheckers:
    def __init__(self) -> None:
        self._validators: OrderedDict[str, Any] = OrderedDict()

    def problem(self, identity: str, schema: dict[str, Any], result: Any) -> str | None:
        """Why ``result`` does not match ``schema`` (None when it does)."""
        validator = self._validators.get(identity)
        if validator is None:
            validator = self._validators[identity] = jsonschema_rs.validator_for(schema)
            if len(self._validators) > MAX_VALIDATORS:
                self._validators.popitem(last=False)
        error = next(iter(validator.iter_errors(result)), None)
        if error is None:
            return None
        where = "/".join(str(p) for p in error.instance_path) or "the result"
        return f"{where}: {str(error).splitlines()[0]}"
