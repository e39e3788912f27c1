"""Per node: each data set's search index or classifier, built once per version.

A data set's current version is read from the database and trusted for ``ttl_s`` (a change made
on this node, or announced by another one through the change propagation, forgets it at once).
A new version is built in a thread — concurrent callers wait for the same build — while a query
already running finishes on the index it started with: indexes are immutable.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.skills import function_words
from server.skills.classifier import NaiveBayes, Sample
from server.skills.datasets import catalog_text, chunks
from server.skills.search import MAX_QUERY_TERMS, EmptyQuery, Hit, TextIndex
from server.skills.text import tokens

MAX_BUILT = 64  # indexes kept per node, least recently used dropped first
FAQ_WEIGHTS = {"question": 2.0, "answer": 1.0, "category": 0.5}
# catalog search: BM25F's parameters (Lucene's defaults), how many of the index's candidates are
# scored again, and the title boosts (chosen on tests/skills/catalog_relevance.py)
BM25_K1, BM25_B = 1.2, 0.75
RERANKED = 50
EXACT_TITLE, TITLE_PHRASE = 2.0, 1.3
TITLE_FIELDS = ("title", "name", "product_name", "product")
DOCUMENT_WEIGHTS = {"title": 2.0, "text": 1.0}
KEPT_WORDS, NOISE_WORDS = 0.3, 2  # the simulated paraphrases the FAQ confidence is fitted on

Loader = Callable[[str, str, int], Awaitable[list[dict[str, Any]]]]
VersionsReader = Callable[[str], Awaitable[dict[str, tuple[str, int]]]]


class NoDataset(LookupError):
    pass


@dataclass
class Catalog:
    """A catalog's index. ``search`` ranks as shop search engines do: the index's candidates
    (``Σ weight_f · BM25_f``) scored again with BM25F — a term's frequencies in every field,
    each normalised by that field's length, added up before they saturate, so a name repeated
    in an accessory's description counts once, not once per field — and an exact or phrase
    match of the query on the title field boosted."""

    items: list[dict[str, Any]]
    index: TextIndex
    positions: dict[str, int]
    title: str | None = None  # the field named title or name, if there is one

    @classmethod
    def build(cls, items: list[dict[str, Any]]) -> Catalog:
        names: dict[str, None] = {}
        for item in items:
            for key, value in item["fields"].items():
                if catalog_text(value):
                    names.setdefault(key, None)
        fields = list(names)
        index = TextIndex.build(
            fields, ([catalog_text(item["fields"].get(f)) for f in fields] for item in items)
        )
        title = next((f for f in TITLE_FIELDS if f in names), None)
        return cls(items, index, {item["id"]: i for i, item in enumerate(items)}, title)

    def search(
        self,
        query: str,
        weights: dict[str, float] | None,
        limit: int,
        title_boosts: bool = True,
    ) -> list[Hit]:
        """The best ``limit`` items for ``query`` (``EmptyQuery`` if it has no words);
        ``title_boosts`` off: BM25F alone (the relevance benchmark's middle row)."""
        asked = tokens(query)
        terms = list(dict.fromkeys(asked))[:MAX_QUERY_TERMS]
        if not terms:
            raise EmptyQuery("the query has no words to search for")
        first = self.index.search_terms(terms, weights, max(limit, RERANKED))
        if not first:
            return []
        frequencies = {
            t: max(self.index.document_frequency(f, t) for f in self.index.fields) for t in terms
        }
        rescored = []
        for hit in first:
            score = self._bm25f(hit.position, frequencies, weights)
            boost = self._boost(hit, asked, weights) if title_boosts else 1.0
            rescored.append(Hit(hit.position, score * boost))
        rescored.sort(key=lambda h: (-h.score, h.position))
        return rescored[:limit]

    def _bm25f(
        self, position: int, frequencies: dict[str, int], weights: dict[str, float] | None
    ) -> float:
        fields = self.items[position]["fields"]
        weighted: dict[str, float] = dict.fromkeys(frequencies, 0.0)
        for name in self.index.fields:
            weight = 1.0 if weights is None else weights.get(name, 0.0)
            if weight <= 0:
                continue
            words = tokens(catalog_text(fields.get(name)))
            if not words:
                continue
            norm = 1 - BM25_B + BM25_B * len(words) / self.index.average_length(name)
            for word in words:
                if word in weighted:
                    weighted[word] += weight / norm
        size = self.index.size
        score = 0.0
        for term, tf in weighted.items():
            if tf:
                df = frequencies[term]
                idf = math.log(1 + (size - df + 0.5) / (df + 0.5))
                score += idf * tf * (BM25_K1 + 1) / (BM25_K1 + tf)
        return score

    def _boost(self, hit: Hit, asked: list[str], weights: dict[str, float] | None) -> float:
        if self.title is None or (weights is not None and weights.get(self.title, 0.0) <= 0):
            return 1.0
        title = tokens(catalog_text(self.items[hit.position]["fields"].get(self.title)))
        if title == asked:
            return EXACT_TITLE
        n = len(asked)
        if n >= 2 and any(title[i : i + n] == asked for i in range(len(title) - n + 1)):
            return TITLE_PHRASE
        return 1.0

    def terms_of(self, position: int, limit: int = 32) -> list[str]:
        """An item's rarest terms: what makes it like the items it is like."""
        item = self.items[position]["fields"]
        found: dict[str, int] = {}
        for name in self.index.fields:
            for term in tokens(catalog_text(item.get(name))):
                if term not in found:
                    found[term] = min(
                        self.index.document_frequency(n, term) or self.index.size
                        for n in self.index.fields
                    )
        return sorted(found, key=lambda t: (found[t], t))[:limit]


@dataclass
class Faq:
    entries: list[dict[str, Any]]
    index: TextIndex
    terms: list[frozenset[str]] = field(default_factory=list)  # each entry's terms
    stop: frozenset[str] = frozenset()  # the function words of the FAQ's language(s)
    # Platt: score per term, margin over the second, the share of the question's words the
    # entry holds, bias
    calibration: tuple[float, ...] = (1.0, 2.0, 4.0, -4.0)

    @classmethod
    def build(cls, entries: list[dict[str, Any]]) -> Faq:
        index = TextIndex.build(
            list(FAQ_WEIGHTS),
            ([e["question"], e["answer"], e.get("category", "")] for e in entries),
        )
        terms = [
            frozenset(tokens(f"{e['question']} {e['answer']} {e.get('category') or ''}"))
            for e in entries
        ]
        stop = function_words.for_text(tokens(e["question"]) for e in entries)
        faq = cls(entries, index, terms, stop)
        faq.calibration = faq._calibrate()
        return faq

    def lookup(self, question: str, top_k: int) -> list[tuple[dict[str, Any], float, float]]:
        """The entries that share a word with the question, best first, each with its score
        and confidence. Words of the FAQ's language that carry no subject (``what``, ``on``)
        are not searched for: a question made only of them matches nothing."""
        words = self._words(question)
        hits = self.index.search_terms(words, FAQ_WEIGHTS, max(top_k, 2))
        confidences = self.confidences(words, hits)
        return [
            (self.entries[h.position], h.score, c) for h, c in zip(hits, confidences, strict=True)
        ][:top_k]

    def answer(
        self, question: str, top_k: int, threshold: float
    ) -> tuple[list[tuple[dict[str, Any], float, float]], bool]:
        """The candidates, and whether the first is an answer: its confidence reaches the
        threshold (``EmptyQuery`` for a question with no words)."""
        found = self.lookup(question, top_k)
        return found, bool(found) and found[0][2] >= threshold

    def _words(self, question: str) -> list[str]:
        every = list(dict.fromkeys(tokens(question)))
        if not every:
            raise EmptyQuery("the question has no words to search for")
        return [t for t in every if t not in self.stop][:MAX_QUERY_TERMS]

    def confidences(self, words: Sequence[str], hits: Sequence[Hit]) -> list[float]:
        """The chance each hit is the right answer: the top one's from a logistic fit (Platt
        scaling) on this FAQ's own questions with words dropped and others added, and on
        questions about something else. The others share what is left in proportion to their
        scores among all the hits' (the rest of it stands for "none of these")."""
        if not hits:
            return []
        weights = self.calibration
        features = self._features(words, hits)
        z = sum(w * x for w, x in zip(weights, (*features, 1.0), strict=True))
        top = 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))
        total = sum(h.score for h in hits) or 1.0
        return [top] + [(1 - top) * h.score / total for h in hits[1:]]

    def _features(self, words: Sequence[str], hits: Sequence[Hit]) -> tuple[float, float, float]:
        asked = set(words)
        top = hits[0].score
        second = hits[1].score if len(hits) > 1 else 0.0
        covered = len(asked & self.terms[hits[0].position]) / max(len(asked), 1)
        return top / max(len(asked), 1), (top - second) / top if top > 0 else 0.0, covered

    def _calibrate(self, rounds: int = 400) -> tuple[float, ...]:
        """Fit the confidence. Right or wrong: simulated paraphrases — each sampled question
        keeps about a third of its words and gains two words of other questions; right = it
        comes back first. (Those proportions were chosen on chatterbot-corpus's paraphrased
        questions: docs/benchmarks.md.) Always wrong: questions about something else, alone
        and with one word of an entry thrown in (what an unrelated question meets by chance)."""
        rng = random.Random(len(self.entries))
        xs: list[tuple[float, float, float]] = []
        ys: list[float] = []
        if len(self.entries) < 2:
            return self.calibration

        def observe(query: str, right: int | None) -> None:
            try:
                words = self._words(query)
            except EmptyQuery:  # a sample with no words teaches nothing
                return
            hits = self.index.search_terms(words, FAQ_WEIGHTS, 2)
            if hits:
                xs.append(self._features(words, hits))
                ys.append(1.0 if right is not None and hits[0].position == right else 0.0)

        for _ in range(rounds):
            position = rng.randrange(len(self.entries))
            words = self.entries[position]["question"].split()
            kept = [w for w in words if rng.random() < KEPT_WORDS] or words[:1]
            for _ in range(NOISE_WORDS):
                other = self.entries[rng.randrange(len(self.entries))]["question"].split()
                kept += [rng.choice(other)] if other else []
            observe(" ".join(kept), position)
        for unrelated in ELSEWHERE:
            observe(unrelated, None)
            entry = self.entries[rng.randrange(len(self.entries))]["question"].split()
            observe(f"{unrelated} {rng.choice(entry)}" if entry else unrelated, None)
        if len(set(ys)) < 2:
            return self.calibration
        return _logistic(np.array(xs), np.array(ys))


# Questions about something else, in the languages function_words knows (written for this: no
# benchmark's text), for the confidence to learn what an unrelated question looks like.
ELSEWHERE = [
    "What's the weather on Mars?",
    "Tell me a joke",
    "Who won the football match yesterday?",
    "What is the capital of Australia?",
    "How tall is Mount Everest?",
    "Can you write me a poem about the sea?",
    "What time is it in Tokyo?",
    "Do you like cats or dogs?",
    "How do I bake sourdough bread?",
    "Who painted the Mona Lisa?",
    "What is two plus two?",
    "Are you a robot?",
    "What's your favourite colour?",
    "How far away is the moon?",
    "Recommend a good film for tonight",
    "Why is the sky blue?",
    "Translate hello into Japanese",
    "How old is the universe?",
    "What should I cook for dinner?",
    "Is it going to rain tomorrow?",
    "Sing me a song",
    "Who is the president of France?",
    "How many legs does a spider have?",
    "What does a black hole look like?",
    "I am bored",
    "Good morning, how are you today?",
    "¿Qué tiempo hace hoy en Madrid?",
    "Cuéntame un chiste",
    "¿Quién ganó el partido?",
    "Quel temps fait-il à Paris ?",
    "Raconte-moi une blague",
    "Qui a gagné le match hier ?",
    "Wie wird das Wetter morgen?",
    "Erzähl mir einen Witz",
    "Wer hat das Spiel gewonnen?",
    "Che tempo fa a Roma?",
    "Raccontami una barzelletta",
    "Chi ha vinto la partita?",
    "Como está o tempo hoje?",
    "Conta-me uma piada",
    "Quem ganhou o jogo ontem?",
    "Hoe wordt het weer morgen?",
    "Vertel me een grap",
    "Wie heeft de wedstrijd gewonnen?",
]


def _logistic(x: np.ndarray, y: np.ndarray, steps: int = 25) -> tuple[float, ...]:
    """Logistic regression by Newton's method (a little ridge keeps it finite): the weights of
    the features, then the bias."""
    design = np.hstack([x, np.ones((len(x), 1))])
    size = design.shape[1]
    w = np.zeros(size)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ w))
        gradient = design.T @ (p - y) + 0.01 * w
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + 0.01 * np.eye(size)
        w -= np.linalg.solve(hessian, gradient)
    return tuple(float(v) for v in w)


@dataclass
class Documents:
    documents: list[dict[str, Any]]
    pieces: list[tuple[int, str]]  # (document, chunk text)
    index: TextIndex

    @classmethod
    def build(cls, documents: list[dict[str, Any]]) -> Documents:
        pieces = [(i, piece) for i, d in enumerate(documents) for piece in chunks(d["text"])]
        index = TextIndex.build(
            list(DOCUMENT_WEIGHTS), ([documents[i].get("title", ""), p] for i, p in pieces)
        )
        return cls(documents, pieces, index)


BUILDERS: dict[str, Callable[[list[dict[str, Any]]], Any]] = {
    "faq": Faq.build,
    "catalog": Catalog.build,
    "documents": Documents.build,
    "samples": lambda rows: NaiveBayes.train(
        Sample(r["text"], r["label"], r.get("lang") or "*") for r in rows
    ),
}


@dataclass
class Indexes:
    load: Loader
    read_versions: VersionsReader
    ttl_s: float = 1.0
    clock: Callable[[], float] = time.monotonic
    _versions: dict[str, tuple[float, dict[str, tuple[str, int]]]] = field(default_factory=dict)
    _built: OrderedDict[tuple[str, str, int], asyncio.Task[Any]] = field(
        default_factory=OrderedDict
    )
    builds: int = 0  # how many indexes this node built (tests and metrics read it)

    def forget(self, tenant_id: str | None = None) -> None:
        """Trust no cached version (of one tenant, or of all): a data set changed."""
        if tenant_id is None:
            self._versions.clear()
        else:
            self._versions.pop(tenant_id, None)

    async def versions(self, tenant_id: str) -> dict[str, tuple[str, int]]:
        cached = self._versions.get(tenant_id)
        now = self.clock()
        if cached is not None and now - cached[0] <= self.ttl_s:
            return cached[1]
        found = await self.read_versions(tenant_id)
        if len(self._versions) > 10_000:
            self._versions.clear()
        self._versions[tenant_id] = (now, found)
        return found

    async def get(self, tenant_id: str, name: str, kind: str) -> Any:
        """The built index (or classifier) of the tenant's data set ``name`` of ``kind``."""
        found = (await self.versions(tenant_id)).get(name)
        if found is None or found[0] != kind:
            raise NoDataset(
                f"this tenant has no {kind} data set {name!r} (PUT /v1/datasets/{name})"
            )
        key = (tenant_id, name, found[1])
        task = self._built.get(key)
        if task is None or (task.done() and task.exception() is not None):
            task = self._built[key] = asyncio.ensure_future(self._build(key, kind))
            for older in [k for k in self._built if k[:2] == key[:2] and k != key]:
                del self._built[older]  # queries still running on it keep it alive until done
            while len(self._built) > MAX_BUILT:
                self._built.popitem(last=False)
        self._built.move_to_end(key)
        return await asyncio.shield(task)

    async def _build(self, key: tuple[str, str, int], kind: str) -> Any:
        rows = await self.load(*key)
        self.builds += 1
        return await asyncio.to_thread(BUILDERS[kind], rows)

    async def named(self, tenant_id: str, kind: str) -> list[str]:
        """The tenant's data sets of ``kind``, by name."""
        return sorted(n for n, (k, _) in (await self.versions(tenant_id)).items() if k == kind)
