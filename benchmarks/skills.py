"""Built-in skills benchmark.

    python -m benchmarks.skills [--sizes 1000,100000,1000000] [--queries 2000] [--no-http]

(1) Catalog search over synthetic products (Zipf-distributed words; title, body, brand) at each
    size: ``TextIndex.search`` — tokenising the query, building the weighted query, reading the
    hits' places — against tantivy's own raw search of the same prebuilt queries, same run,
    top-10; p50 and p99. Index build time and resident memory (items kept in Python included).
(2) The classifier on chatterbot-corpus and kaomoji-dataset: train time and predictions per
    second, against scikit-learn's CountVectorizer + MultinomialNB on the same features.
(3) ``qa_lookup``'s ranking on paraphrases: chatterbot-corpus questions that share an answer
    (per language, every answer is an FAQ entry; each other question for it is a query): MRR@10,
    and how well the confidence is calibrated (expected calibration error of the top hit).
(4) Through HTTP (the ASGI app, SQLite): a ``search_catalog`` call at 10⁵ items against a
    trivial code tool's call in the same session, interleaved; median of each.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import tantivy

from server.skills.indexes import Catalog, Faq
from server.skills.text import tokens

WEIGHTS = {"title": 3.0, "body": 1.0, "brand": 2.0}


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def products(n: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(30_000)]
    cumulative = list(itertools.accumulate(1 / (i + 1) for i in range(len(vocabulary))))
    brands = [f"brand{i}" for i in range(500)]

    def words(k: int) -> str:
        return " ".join(rng.choices(vocabulary, cum_weights=cumulative, k=k))

    return [
        {
            "id": f"p{i}",
            "fields": {
                "title": words(rng.randint(3, 8)),
                "body": words(rng.randint(20, 60)),
                "brand": rng.choice(brands),
            },
            "meta": {"price": i % 500},
        }  # fmt: skip
        for i in range(n)
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_search(sizes: list[int], queries: int) -> None:
    print("catalog search, top-10 (ms)")
    print(f"{'items':>10} | {'build s':>7} | {'memory MB':>9} | {'raw p50':>7} | {'raw p99':>7} | {'ours p50':>8} | {'ours p99':>8} | p50 ratio")  # fmt: skip
    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(3000)]  # queries ask for the commoner words
    texts = [" ".join(rng.choices(vocabulary, k=rng.randint(1, 3))) for _ in range(queries)]
    for size in sizes:
        gc.collect()
        before = rss_mb()  # the items in Python (as a node holds them) count too
        items = products(size)
        started = time.perf_counter()
        catalog = Catalog.build(items)
        build_s = time.perf_counter() - started
        del items
        gc.collect()
        memory = rss_mb() - before
        index = catalog.index
        schema, searcher = index._schema, index._searcher
        assert searcher is not None
        raw_queries = []
        for text in texts:
            clauses = [
                (
                    tantivy.Occur.Should,
                    tantivy.Query.boost_query(
                        tantivy.Query.term_query(schema, index._internal[f], t), w
                    ),
                )  # fmt: skip
                for f, w in WEIGHTS.items()
                for t in dict.fromkeys(tokens(text))
            ]
            raw_queries.append(tantivy.Query.boolean_query(clauses))
        raw, ours = [], []
        for _ in range(2):  # the first round warms up
            raw.clear()
            ours.clear()
            for text, query in zip(texts, raw_queries, strict=True):
                t0 = time.perf_counter()
                searcher.search(query, 10, count=False)
                t1 = time.perf_counter()
                index.search(text, WEIGHTS, 10)
                t2 = time.perf_counter()
                raw.append((t1 - t0) * 1000)
                ours.append((t2 - t1) * 1000)
        r50, r99, o50, o99 = percentile(raw, 0.5), percentile(raw, 0.99), percentile(ours, 0.5), percentile(ours, 0.99)  # fmt: skip
        print(f"{size:>10,} | {build_s:>7.2f} | {memory:>9.0f} | {r50:>7.3f} | {r99:>7.3f} | {o50:>8.3f} | {o99:>8.3f} | {o50 / r50:.2f}x")  # fmt: skip
        del catalog, index, searcher, raw_queries
        gc.collect()


def bench_classifier() -> None:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import MultinomialNB

    from server.skills.classifier import DEFAULT_ALPHA, NaiveBayes, accuracy, features
    from tests.skills.corpora import chatterbot, kaomoji, split

    print("\nclassifier: train (s) and predictions per second, ours vs scikit-learn on the same features")  # fmt: skip
    print(f"{'set':>18} | {'rows':>6} | {'train ours':>10} | {'train sk':>8} | {'pred/s ours':>11} | {'pred/s sk (batch)':>17} | {'pred/s sk (one)':>15} | accuracy ours / sk")  # fmt: skip
    for name, load in (("chatterbot-corpus", chatterbot), ("kaomoji-dataset", kaomoji)):
        train, test = split(load())
        t0 = time.perf_counter()
        model = NaiveBayes.train(train)
        t1 = time.perf_counter()
        vectorizer = CountVectorizer(analyzer=lambda s: s)
        sk = MultinomialNB(alpha=DEFAULT_ALPHA).fit(vectorizer.fit_transform([features(s.text, s.lang) for s in train]), [s.label for s in train])  # fmt: skip
        t2 = time.perf_counter()
        ours_accuracy = accuracy(model, test)
        t3 = time.perf_counter()
        predicted = sk.predict(vectorizer.transform([features(s.text, s.lang) for s in test]))
        t4 = time.perf_counter()
        for s in test[:500]:
            sk.predict(vectorizer.transform([features(s.text, s.lang)]))
        t5 = time.perf_counter()
        sk_accuracy = float((predicted == [s.label for s in test]).mean())
        print(f"{name:>18} | {len(train) + len(test):>6,} | {t1 - t0:>10.2f} | {t2 - t1:>8.2f} | {len(test) / (t3 - t2):>11,.0f} | {len(test) / (t4 - t3):>17,.0f} | {min(500, len(test)) / (t5 - t4):>15,.0f} | {ours_accuracy:.3f} / {sk_accuracy:.3f}")  # fmt: skip


def paraphrases() -> dict[str, tuple[list[dict[str, Any]], list[tuple[str, str]]]]:
    """Per language: FAQ entries (one per answer) and (query, right entry id) pairs."""
    import importlib.resources

    import yaml

    root = importlib.resources.files("chatterbot_corpus") / "data"
    out: dict[str, tuple[list[dict[str, Any]], list[tuple[str, str]]]] = {}
    for lang in sorted(p.name for p in root.iterdir() if p.is_dir()):
        by_answer: dict[str, list[str]] = defaultdict(list)
        for path in sorted((root / lang).iterdir(), key=lambda p: p.name):
            if path.name.endswith(".yml"):
                for conversation in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("conversations") or []:  # fmt: skip
                    if len(conversation) >= 2 and all(isinstance(x, str) for x in conversation[:2]):
                        question, answer = conversation[0].strip(), conversation[1].strip()
                        if question and answer and question not in by_answer[answer]:
                            by_answer[answer].append(question)
        entries, pairs = [], []
        for i, (answer, questions) in enumerate(by_answer.items()):
            entries.append({"id": f"a{i}", "question": questions[0], "answer": answer})
            pairs.extend((q, f"a{i}") for q in questions[1:])
        if pairs:
            out[lang] = (entries, pairs)
    return out


def bench_qa() -> None:
    reciprocal: list[float] = []
    calibration: list[tuple[float, bool]] = []
    for entries, pairs in paraphrases().values():
        faq = Faq.build(entries)
        for query, right in pairs:
            try:
                found = faq.lookup(query, 10)
            except ValueError:  # a query with no words
                reciprocal.append(0.0)
                continue
            ids = [e["id"] for e, _, _ in found]
            reciprocal.append(1 / (ids.index(right) + 1) if right in ids else 0.0)
            if found:
                calibration.append((found[0][2], ids[0] == right))
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for confidence, right in calibration:
        bins[min(int(confidence * 10), 9)].append((confidence, right))
    ece = sum(len(b) / len(calibration) * abs(statistics.mean(c for c, _ in b) - statistics.mean(r for _, r in b)) for b in bins.values())  # fmt: skip
    top1 = statistics.mean(r for _, r in calibration)
    mean_confidence = statistics.mean(c for c, _ in calibration)
    print(f"\nqa_lookup on chatterbot-corpus paraphrases: {len(reciprocal)} queries, MRR@10 {statistics.mean(reciprocal):.3f}, top-1 right {top1:.3f}, mean top confidence {mean_confidence:.3f}, ECE {ece:.3f}")  # fmt: skip


async def bench_http(size: int, calls: int) -> None:
    import httpx
    import orjson

    from server.api.app import create_app
    from server.secretbox import generate_key
    from server.settings import Settings

    admin = "bench-admin-key-" + "s" * 40
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,
            database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'q.db'}",
            data_dir=Path(tmp) / "data",  # fmt: skip
            admin_key=admin,
            secret_key=generate_key(),
            tools_dir=None,
            require_isolation=False,
            worker_spares=0,  # fmt: skip
        )
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://q", headers={"Authorization": f"Bearer {admin}"}, timeout=120) as a:  # fmt: skip
                await a.post("/v1/tenants", json={"id": "acme", "name": "Acme"})
                await a.put("/v1/tenants/acme/shared-tools", json={"tools": ["search_catalog"]})
                dev = (await a.post("/v1/tenants/acme/keys", json={"role": "developer"})).json()["key"]  # fmt: skip
                agent = (await a.post("/v1/tenants/acme/keys", json={"role": "agent"})).json()["key"]  # fmt: skip
            async with httpx.AsyncClient(transport=transport, base_url="http://q", headers={"Authorization": f"Bearer {dev}"}, timeout=300) as d:  # fmt: skip
                body = b"\n".join(orjson.dumps(p) for p in products(size))
                t0 = time.perf_counter()
                uploaded = await d.put("/v1/datasets/products?kind=catalog", content=body)
                upload_s = time.perf_counter() - t0
                assert uploaded.status_code == 201, uploaded.text
                echo = "def execute(params, context):\n    return {'echo': params.get('query')}\n\n\ntool = {'name': 'echo', 'description': 'echo', 'execute': execute, 'parameters': {'query': {'type': 'string'}}}\n"  # fmt: skip
                await d.post("/v1/tools", json={"kind": "python", "sandbox": "restricted", "source": echo})  # fmt: skip
                await d.post("/v1/bots", json={"name": "b", "tools": ["echo"], "skills": {"search": {"dataset": "products", "field_weights": WEIGHTS}}})  # fmt: skip
            async with httpx.AsyncClient(transport=transport, base_url="http://q", headers={"Authorization": f"Bearer {agent}"}, timeout=120) as g:  # fmt: skip
                sid = (await g.post("/v1/sessions", json={"bot": "b"})).json()["id"]
                rng = random.Random(3)
                timings: dict[str, list[float]] = {"echo": [], "search_catalog": []}
                for i in range(calls + 20):
                    query = " ".join(rng.choices([f"w{k}" for k in range(3000)], k=2))
                    for tool in ("echo", "search_catalog"):
                        t0 = time.perf_counter()
                        answer = await g.post(f"/v1/sessions/{sid}/calls", json={"tool": tool, "arguments": {"query": query}})  # fmt: skip
                        took = (time.perf_counter() - t0) * 1000
                        assert answer.json()["success"], answer.text
                        if i >= 20:  # the first calls build the index and start the worker
                            timings[tool].append(took)
        echo_ms, search_ms = statistics.median(timings["echo"]), statistics.median(timings["search_catalog"])  # fmt: skip
        print(f"\nthrough HTTP (ASGI, SQLite), {size:,} items ({len(body) / 2**20:.0f} MB of NDJSON uploaded in {upload_s:.1f} s), median of {calls}: trivial code tool {echo_ms:.2f} ms, search_catalog {search_ms:.2f} ms, ratio {search_ms / echo_ms:.2f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--no-http", action="store_true")
    args = parser.parse_args()
    bench_search([int(s) for s in args.sizes.split(",")], args.queries)
    bench_classifier()
    bench_qa()
    if not args.no_http:
        asyncio.run(bench_http(100_000, args.calls))


if __name__ == "__main__":
    main()
