"""Tokenisation in many scripts, and the search index's rankings against a reference BM25
(bm25s, Lucene's formula) on the same corpus, parameters and field weights."""

from __future__ import annotations

import random

import bm25s
import numpy as np
import pytest

from server.skills.search import EmptyQuery, TextIndex
from server.skills.text import tokens

K1 = 1.2  # tantivy's BM25 parameters, which the index does not change
B = 0.75


def test_two_character_chinese_and_japanese_words_are_terms() -> None:
    assert "東京" in tokens("東京タワー") and "京タ" in tokens("東京タワー")
    assert "北京" in tokens("我在北京工作") and "工作" in tokens("我在北京工作")
    assert {"寿", "司", "寿司"} <= set(tokens("寿司"))


def test_words_in_any_script_are_cut_on_spaces_punctuation_and_underscores() -> None:
    assert tokens("Hello, WORLD! Ünïcode café") == ["hello", "world", "ünïcode", "café"]
    assert tokens("favourite_colour: teal") == ["favourite", "colour", "teal"]
    assert tokens("हिंदी भाषा") == ["हिंदी", "भाषा"]  # vowel signs stay inside the word
    assert tokens("Привет мир") == ["привет", "мир"]
    assert tokens("ＦＵＬＬ－ｗｉｄｔｈ") == ["full", "width"]  # NFKC
    assert tokens("running runs") == ["running", "runs"]  # no stemming


def _corpus(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(60)] + ["東京", "北京", "寿司"]
    # under 40 terms per field: tantivy keeps such lengths exactly (longer ones are quantised)
    return [
        (
            " ".join(rng.choices(vocabulary, k=rng.randint(1, 6))),
            " ".join(rng.choices(vocabulary, k=rng.randint(0, 12))),
        )  # fmt: skip
        for _ in range(n)
    ]


def _reference(corpus: list[tuple[str, str]], weights: dict[str, float], query: str) -> np.ndarray:
    """Σ_fields weight · BM25 (bm25s, method "lucene": tantivy's IDF; scores differ by the
    constant factor k1 + 1, which no ranking sees)."""
    terms = list(dict.fromkeys(tokens(query)))
    total = np.zeros(len(corpus))
    for i, field in enumerate(("title", "body")):
        model = bm25s.BM25(method="lucene", k1=K1, b=B)
        model.index([tokens(doc[i]) for doc in corpus], show_progress=False)
        total += weights[field] * model.get_scores(terms) * (K1 + 1)
    return total


def _ranking(scores: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Best first; equal scores (to float32 precision) in corpus order."""
    return sorted(((p, round(s, 3)) for p, s in scores), key=lambda x: (-x[1], x[0]))


@pytest.mark.parametrize("weights", [{"title": 1.0, "body": 1.0}, {"title": 3.0, "body": 0.5}])
def test_rankings_equal_the_reference_bm25s(weights: dict[str, float]) -> None:
    corpus = _corpus(400, seed=7)
    index = TextIndex.build(["title", "body"], ([t, b] for t, b in corpus))
    rng = random.Random(11)
    queries = [" ".join(rng.choices([f"w{i}" for i in range(60)] + ["東京"], k=rng.randint(1, 3))) for _ in range(60)]  # fmt: skip

    for query in queries:
        ours = [(h.position, h.score) for h in index.search(query, weights, limit=len(corpus))]
        expected = _reference(corpus, weights, query)
        theirs = [(p, float(s)) for p, s in enumerate(expected) if s > 0]

        assert _ranking(ours) == _ranking(theirs), query


def test_an_index_answers_empty_and_unknown_queries_plainly() -> None:
    index = TextIndex.build(["text"], [["alpha beta"], ["gamma"]])

    with pytest.raises(EmptyQuery):
        index.search("  ?!  ")
    assert index.search("delta") == []
    assert [h.position for h in index.search("gamma alpha", limit=1)] == [1]  # the shorter one
    assert [h.position for h in index.search("alpha", skip=frozenset({0}))] == []
