"""Labelled multilingual sets that ship inside packages, as classifier samples."""

from __future__ import annotations

import gzip
import importlib.resources
import json
import random

import yaml

from server.skills.classifier import Sample


def chatterbot() -> list[Sample]:
    """chatterbot-corpus: each conversation (its lines joined) labelled with its topic file,
    in its language (28 languages)."""
    root = importlib.resources.files("chatterbot_corpus") / "data"
    samples = []
    for lang in sorted(p.name for p in root.iterdir() if p.is_dir()):
        for path in sorted((root / lang).iterdir(), key=lambda p: p.name):
            if not path.name.endswith(".yml"):
                continue
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            for conversation in data.get("conversations") or []:
                text = " ".join(line for line in conversation if isinstance(line, str)).strip()
                if text:
                    samples.append(Sample(text, path.name.removesuffix(".yml"), lang))
    return samples


def kaomoji() -> list[Sample]:
    """kaomoji-dataset: each kaomoji labelled with its category (no language)."""
    path = importlib.resources.files("kaomoji_dataset") / "data" / "kaomoji.jsonl.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as lines:
        return [Sample(row["text"], row["category"]) for row in map(json.loads, lines)]


def split(samples: list[Sample], seed: int = 0, test: float = 0.2) -> tuple[list[Sample], list[Sample]]:  # fmt: skip
    shuffled = list(samples)
    random.Random(seed).shuffle(shuffled)
    cut = int(len(shuffled) * (1 - test))
    return shuffled[:cut], shuffled[cut:]


def sample(samples: list[Sample], n: int, seed: int = 1) -> list[Sample]:
    return random.Random(seed).sample(samples, n) if len(samples) > n else list(samples)
