"""``search_catalog``'s ranking quality where accessories repeat their product's name.

    python -m benchmarks.catalog_relevance

nDCG@10 (gains 2^grade - 1) on tests/skills/catalog_relevance.py's shop queries, each graded 3
(the item asked for), 2 (a close variant), 1 (related), in one run: the index's own ranking
(``Σ weight_f · BM25_f``, what search_catalog returned before), BM25F over its candidates, and
BM25F with the title's exact and phrase boosts (what it returns now).
"""

from __future__ import annotations

import statistics

from server.skills.indexes import Catalog
from tests.skills.catalog_relevance import QUERIES, catalog, ndcg


def main() -> None:
    shop = Catalog.build(catalog())

    def ids(hits: list) -> list[str]:
        return [shop.items[h.position]["id"] for h in hits]

    rankings = {
        "index (Σ w·BM25_f)": lambda q: ids(shop.index.search(q, None, 10)),
        "BM25F": lambda q: ids(shop.search(q, None, 10, title_boosts=False)),
        "BM25F + title boosts": lambda q: ids(shop.search(q, None, 10)),
    }
    print(f"{'query':<28}" + "".join(f"{name:>22}" for name in rankings))
    means: dict[str, list[float]] = {name: [] for name in rankings}
    for query, grades in QUERIES.items():
        row = f"{query:<28}"
        for name, rank in rankings.items():
            value = ndcg(rank(query), grades)
            means[name].append(value)
            row += f"{value:>22.3f}"
        print(row)
    print(f"{'nDCG@10 (mean)':<28}" + "".join(f"{statistics.mean(v):>22.3f}" for v in means.values()))  # fmt: skip


if __name__ == "__main__":
    main()
