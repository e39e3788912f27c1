"""Intent detection: the intent of a user's message, by the bot's ``intent_detection``:

* ``{"mode": "rules", "rules": {"orders": ["order", "\\\\btrack"], ...}}`` — case-insensitive
  regular expressions per intent, any language; the intent with the most matching patterns wins
  (ties: the first listed); no match keeps the session's intent.
* ``{"mode": "model"}`` — one short call to the bot's ``tool_round_model`` (or ``model``) asking
  for one of the bot's intent names, or ``none``.
* ``{"mode": "classifier", "dataset": "intents", "threshold": 0.6, "lang": "en"}`` — the tenant's
  ``samples`` data set's classifier (the ``classify_text`` skill's): its likeliest label, when it
  is one of the bot's intents and at least ``threshold`` likely (default 0.5).

The detected intent becomes the session's (its snapshot's gate uses it); events carry the change.
"""

from __future__ import annotations

import re
from typing import Any

from server.errors import FieldError

MAX_RULES = 100
MAX_PATTERNS = 50


def check_detection(config: Any, intents: dict[str, list[str]] | None) -> list[FieldError]:
    """Every problem of a bot's ``intent_detection`` (regexes compiled, intents known)."""
    field = "intent_detection"
    if config is None:
        return []
    if not isinstance(config, dict) or config.get("mode") not in ("rules", "model", "classifier"):
        return [
            FieldError(
                'must be {"mode": "rules", "rules": {...}}, {"mode": "model"} or {"mode": '
                '"classifier", "dataset": ...}',
                field=f"{field}.mode",
            )
        ]
    known = {k for k in (intents or {}) if k != "*"}
    if not known:
        return [FieldError("the bot has no intents to detect (set `intents`)", field=field)]
    if config["mode"] == "model":
        return []
    if config["mode"] == "classifier":
        return _check_classifier(config, field)
    rules = config.get("rules")
    if not isinstance(rules, dict) or not rules or len(rules) > MAX_RULES:
        return [
            FieldError(
                f"must map 1 to {MAX_RULES} intents to lists of patterns", field=f"{field}.rules"
            )
        ]
    problems = []
    for intent, patterns in rules.items():
        where = f"{field}.rules.{intent}"
        if intent not in known:
            problems.append(FieldError(f"{intent!r} is not one of the bot's intents", field=where))
        if not isinstance(patterns, list) or not 1 <= len(patterns) <= MAX_PATTERNS:
            problems.append(
                FieldError(f"must be a list of 1 to {MAX_PATTERNS} patterns", field=where)
            )
            continue
        for i, pattern in enumerate(patterns):
            try:
                re.compile(pattern, re.IGNORECASE)
            except (re.error, TypeError) as exc:
                problems.append(FieldError(f"does not compile: {exc}", field=f"{where}[{i}]"))
    return problems


def _check_classifier(config: dict[str, Any], field: str) -> list[FieldError]:
    problems = []
    dataset = config.get("dataset")
    if not isinstance(dataset, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", dataset):
        problems.append(
            FieldError("the name of the tenant's `samples` data set", field=f"{field}.dataset")
        )
    threshold = config.get("threshold", 0.5)
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not 0 <= threshold <= 1
    ):
        problems.append(FieldError("a probability from 0 to 1", field=f"{field}.threshold"))
    lang = config.get("lang")
    if lang is not None and (not isinstance(lang, str) or not 1 <= len(lang) <= 16):
        problems.append(FieldError("a language code", field=f"{field}.lang"))
    unknown = set(config) - {"mode", "dataset", "threshold", "lang"}
    if unknown:
        problems.append(FieldError(f"unknown settings: {', '.join(sorted(unknown))}", field=field))
    return problems


def by_classifier(
    model: Any, config: dict[str, Any], text: str, intents: list[str]
) -> tuple[str | None, float]:
    """The classifier's likeliest label and its probability, if it is a bot intent likely enough."""
    predictions = model.predict(text, config.get("lang"), top=1)
    if not predictions:
        return None, 0.0
    label, probability = predictions[0]
    if label in intents and probability >= float(config.get("threshold", 0.5)):
        return label, probability
    return None, probability


def by_rules(config: dict[str, Any], text: str) -> str | None:
    best, hits = None, 0
    for intent, patterns in config["rules"].items():
        count = sum(1 for p in patterns if re.search(p, text, re.IGNORECASE))
        if count > hits:
            best, hits = intent, count
    return best


def model_prompt(intents: list[str]) -> str:
    return (
        "Classify the user's message into exactly one of these intents: "
        + ", ".join(intents)
        + ". Answer with the intent's name only, or `none` if none fits."
    )


def parse_label(answer: str, intents: list[str]) -> str | None:
    label = answer.strip().strip("`'\".").lower()
    return next((i for i in intents if i.lower() == label), None)
