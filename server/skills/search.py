"""BM25 over named text fields, with a weight per field at query time (tantivy, in memory).

Each field is its own BM25 field (its own length normalisation); a query scores
``Σ_fields weight_f · BM25_f(query, doc)`` — the multi-field BM25 of Lucene and tantivy, whose
weights may be any positive number. Terms come from ``server.skills.text`` (pre-tokenised:
tantivy only splits on the spaces we put), so every language is cut the same way at index and
at query time. An index is immutable: a changed data set gets a new one, and a query that began
on the old one finishes on it.

Why tantivy: at 10⁵ items, top-10, it answers in 0.05 ms p50 with native field boosts; SQLite
FTS5 takes 1.3 ms, bm25s 2.3 ms, rank-bm25 63 ms (docs/benchmarks.md, ``benchmarks/skills.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import tantivy

from server.skills.text import tokens

TOKENIZER = "quiver_pretokenised"
MAX_QUERY_TERMS = 64
WRITER_HEAP = 100_000_000  # one segment up to ~10⁵ items; more segments beyond change nothing


class EmptyQuery(ValueError):
    """The query has no searchable words."""


@dataclass(frozen=True, slots=True)
class Hit:
    position: int  # the item's place in the data set
    score: float


class TextIndex:
    def __init__(self, fields: Sequence[str]) -> None:
        self.fields = tuple(fields)
        self._internal = {name: f"f{i}" for i, name in enumerate(self.fields)}
        builder = tantivy.SchemaBuilder()
        for internal in self._internal.values():
            builder.add_text_field(internal, tokenizer_name=TOKENIZER, index_option="freq")
        builder.add_unsigned_field("ord", fast=True)
        self._schema = builder.build()
        self._index = tantivy.Index(self._schema)
        self._index.register_tokenizer(
            TOKENIZER, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build()
        )
        self._searcher: tantivy.Searcher | None = None
        self.size = 0
        self.lengths: dict[str, int] = dict.fromkeys(self.fields, 0)  # terms in all items

    @classmethod
    def build(cls, fields: Sequence[str], rows: Iterable[Sequence[str]]) -> TextIndex:
        """An index of ``rows``: one text per field, in ``fields`` order."""
        index = cls(fields)
        writer = index._index.writer(heap_size=WRITER_HEAP, num_threads=1)
        internal = [index._internal[name] for name in index.fields]
        for position, texts in enumerate(rows):
            doc = tantivy.Document()
            for name, field, text in zip(index.fields, internal, texts, strict=True):
                if text:
                    words = tokens(text)
                    index.lengths[name] += len(words)
                    doc.add_text(field, " ".join(words))
            doc.add_unsigned("ord", position)
            writer.add_document(doc)
            index.size = position + 1
        writer.commit()
        writer.wait_merging_threads()
        index._index.reload()
        index._searcher = index._index.searcher()
        return index

    def search(
        self,
        query: str,
        weights: Mapping[str, float] | None = None,
        limit: int = 10,
        skip: frozenset[int] = frozenset(),
    ) -> list[Hit]:
        """The best ``limit`` items for ``query`` (items in ``skip`` left out), best first."""
        terms = list(dict.fromkeys(tokens(query)))[:MAX_QUERY_TERMS]
        if not terms:
            raise EmptyQuery("the query has no words to search for")
        return self.search_terms(terms, weights, limit, skip)

    def search_terms(
        self,
        terms: Sequence[str],
        weights: Mapping[str, float] | None = None,
        limit: int = 10,
        skip: frozenset[int] = frozenset(),
    ) -> list[Hit]:
        searcher = self._searcher
        if searcher is None or not terms or limit <= 0:
            return []
        clauses = []
        for name in self.fields:
            weight = 1.0 if weights is None else float(weights.get(name, 0.0))
            if weight <= 0:
                continue
            field = self._internal[name]
            for term in terms:
                query = tantivy.Query.term_query(self._schema, field, term)
                if weight != 1.0:
                    query = tantivy.Query.boost_query(query, weight)
                clauses.append((tantivy.Occur.Should, query))
        if not clauses:
            return []
        found = searcher.search(
            tantivy.Query.boolean_query(clauses), limit + len(skip), count=False
        ).hits
        positions = searcher.fast_field_values("ord", [address for _, address in found])
        hits = [
            Hit(int(position), float(score))
            for (score, _), position in zip(found, positions, strict=True)
            if position is not None and position not in skip
        ]
        return hits[:limit]

    def average_length(self, field: str) -> float:
        """A field's mean length in terms over all items (at least 1)."""
        return max(self.lengths.get(field, 0) / max(self.size, 1), 1.0)

    def document_frequency(self, field: str, term: str) -> int:
        if self._searcher is None:
            return 0
        return int(self._searcher.doc_freq(self._internal[field], term))
