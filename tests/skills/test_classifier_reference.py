"""The classifier against scikit-learn's MultinomialNB on the public labelled sets: the same
accuracy on identical features and smoothing (the arithmetic is the same), and with its own
features at least what MultinomialNB reaches on character n-grams."""

from __future__ import annotations

import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB

from server.skills.classifier import DEFAULT_ALPHA, NaiveBayes, Sample, accuracy, features
from tests.skills.corpora import chatterbot, kaomoji, sample, split

# kaomoji-dataset (82,000 rows) is sampled to 25,000 here to keep the suite quick; the full
# set's figures are in docs/benchmarks.md (benchmarks/skills.py)
CORPORA = {"chatterbot-corpus": chatterbot, "kaomoji-dataset": lambda: sample(kaomoji(), 25_000)}


@pytest.fixture(scope="module", params=list(CORPORA))
def corpus(request: pytest.FixtureRequest) -> tuple[str, list[Sample], list[Sample]]:
    return (request.param, *split(CORPORA[request.param]()))


@pytest.fixture(scope="module")
def ours(corpus) -> float:
    _, train, test = corpus
    return accuracy(NaiveBayes.train(train), test)


def _sklearn(train: list[Sample], test: list[Sample], vectorizer: CountVectorizer, alpha: float) -> float:  # fmt: skip
    model = MultinomialNB(alpha=alpha).fit(vectorizer.fit_transform([s.text for s in train]), [s.label for s in train])  # fmt: skip
    return float((model.predict(vectorizer.transform([s.text for s in test])) == [s.label for s in test]).mean())  # fmt: skip


def test_the_sets_are_the_multilingual_ones_the_claims_are_about(corpus) -> None:
    name, train, test = corpus
    samples = train + test

    if name == "chatterbot-corpus":
        assert len({s.lang for s in samples}) >= 20 and len({s.label for s in samples}) >= 20
    else:
        assert len(samples) == 25_000 and len({s.label for s in samples}) >= 50


def test_accuracy_equals_multinomial_nb_on_identical_features_and_smoothing(corpus, ours: float) -> None:  # fmt: skip
    name, train, test = corpus
    same = CountVectorizer(analyzer=lambda s: s)  # the classifier's own features, prefixed
    model = MultinomialNB(alpha=DEFAULT_ALPHA).fit(same.fit_transform([features(s.text, s.lang) for s in train]), [s.label for s in train])  # fmt: skip
    theirs = float((model.predict(same.transform([features(s.text, s.lang) for s in test])) == [s.label for s in test]).mean())  # fmt: skip

    assert abs(ours - theirs) <= 0.005, (name, ours, theirs)


def test_its_features_reach_at_least_multinomial_nb_on_character_ngrams(corpus, ours: float) -> None:  # fmt: skip
    name, train, test = corpus
    best_char = max(
        _sklearn(train, test, CountVectorizer(analyzer=analyzer, ngram_range=(1, 4)), alpha=1.0)
        for analyzer in ("char", "char_wb")
    )

    assert ours >= best_char, (name, ours, best_char)


def test_a_text_is_read_in_its_own_language_only() -> None:
    """The same word means different things in two languages; neither language's samples move
    the other's prediction."""
    english = [Sample("a gift for you", "present", "en"), Sample("the parcel is late", "delivery", "en")]  # fmt: skip
    german = [Sample("das Gift ist tödlich", "poison", "de"), Sample("das Paket ist spät", "delivery", "de")]  # fmt: skip
    both = NaiveBayes.train(english + german)

    assert both.predict_label("gift", "en") == "present"
    assert both.predict_label("Gift", "de") == "poison"
    assert NaiveBayes.train(english).predict_label("gift", "en") == "present"
    assert both.predict_label("das Paket") == "delivery"  # no language given: the likeliest one
