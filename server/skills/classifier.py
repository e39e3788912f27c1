"""Multinomial Naive Bayes over language-prefixed features.

Every feature carries its sample's language (``en|w:hello``, ``de|c:llo``), so samples in one
language never move another language's probabilities. Features are the words of
``server.skills.text`` and the character 3- and 4-grams inside each space-separated chunk (symbols
included: kaomoji and emoji classify too). Measured on chatterbot-corpus and kaomoji-dataset
(``benchmarks/skills.py``), these beat words alone and plain character n-grams; ``alpha`` 0.3 beat
1.0 and 0.1 on both. The arithmetic is scikit-learn's ``MultinomialNB`` (Laplace/Lidstone smoothing
``alpha`` over the whole vocabulary, class priors from the counts), kept sparse: a feature stores
only the classes it was seen in.

A text without a language is read in the language whose vocabulary knows most of its
features (ties: the likelier one).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from server.skills.text import char_ngrams, tokens

ANY_LANGUAGE = "*"
DEFAULT_ALPHA = 0.3


def features(text: str, lang: str) -> list[str]:
    prefix = f"{lang}|"
    return [prefix + "w:" + t for t in tokens(text)] + [
        prefix + "c:" + g for g in char_ngrams(text)
    ]


@dataclass(frozen=True, slots=True)
class Sample:
    text: str
    label: str
    lang: str = ANY_LANGUAGE


class NaiveBayes:
    def __init__(self, alpha: float = DEFAULT_ALPHA) -> None:
        self.alpha = alpha
        self.labels: list[str] = []
        self.languages: set[str] = set()
        self._prior = np.zeros(0)
        self._base = np.zeros(0)  # log(alpha / (N_c + alpha·V)): a feature never seen in c
        # sparse per feature: the classes it was seen in and log1p(count / alpha) for each
        self._ids: dict[str, int] = {}
        self._start = np.zeros(1, dtype=np.int64)
        self._classes = np.zeros(0, dtype=np.int64)
        self._lift = np.zeros(0)

    @classmethod
    def train(cls, samples: Iterable[Sample], alpha: float = DEFAULT_ALPHA) -> NaiveBayes:
        model = cls(alpha)
        ids = model._ids
        class_ids: dict[str, int] = {}
        docs: Counter[int] = Counter()
        feature_ids: list[int] = []
        feature_classes: list[int] = []
        for sample in samples:
            c = class_ids.setdefault(sample.label, len(class_ids))
            model.languages.add(sample.lang)
            found = [ids.setdefault(f, len(ids)) for f in features(sample.text, sample.lang)]
            feature_ids.extend(found)
            feature_classes.extend([c] * len(found))
            docs[c] += 1
        model.labels = list(class_ids)
        size, vocabulary = len(class_ids), len(ids)
        if not size:
            return model
        keys, counts = np.unique(
            np.asarray(feature_ids, dtype=np.int64) * size + np.asarray(feature_classes),
            return_counts=True,
        )
        features_of = keys // size
        model._classes = keys % size
        model._lift = np.log1p(counts / alpha)
        model._start = np.searchsorted(features_of, np.arange(vocabulary + 1))
        total = np.bincount(model._classes, weights=counts, minlength=size)
        per_class = np.array([docs[c] for c in range(size)], dtype=np.float64)
        model._prior = np.log(per_class / per_class.sum())
        model._base = np.log(alpha / (total + alpha * vocabulary))
        return model

    def _log_joint(self, found: list[int]) -> np.ndarray:
        scores = self._prior + len(found) * self._base
        if found:
            rows = np.asarray(found, dtype=np.int64)
            starts, ends = self._start[rows], self._start[rows + 1]
            lengths = ends - starts
            at = np.repeat(ends - np.cumsum(lengths), lengths) + np.arange(int(lengths.sum()))
            scores += np.bincount(self._classes[at], weights=self._lift[at], minlength=len(scores))
        return scores

    def predict(self, text: str, lang: str | None = None, top: int = 3) -> list[tuple[str, float]]:
        """The likeliest labels with their probabilities, likeliest first."""
        if not self.labels:
            return []
        if lang is not None and lang in self.languages:
            candidates = [lang]
        elif len(self.languages) == 1:
            candidates = list(self.languages)
        else:
            candidates = sorted(self.languages)
        best: tuple[int, float, np.ndarray] | None = None
        for candidate in candidates:
            found = [i for f in features(text, candidate) if (i := self._ids.get(f)) is not None]
            joint = self._log_joint(found)
            if best is None or (len(found), float(joint.max())) > best[:2]:
                best = (len(found), float(joint.max()), joint)
        assert best is not None
        joint = best[2]
        probabilities = np.exp(joint - joint.max())
        probabilities /= probabilities.sum()
        order = np.argsort(-probabilities)[:top]
        return [(self.labels[i], float(probabilities[i])) for i in order]

    def predict_label(self, text: str, lang: str | None = None) -> str:
        return self.predict(text, lang, top=1)[0][0]


def accuracy(model: NaiveBayes, samples: Iterable[Sample]) -> float:
    pairs = [(model.predict_label(s.text, s.lang), s.label) for s in samples]
    return sum(p == label for p, label in pairs) / len(pairs) if pairs else math.nan
