"""search_catalog ranks the item asked for above its accessories (issue 48): nDCG@10 on the
graded shop queries of catalog_relevance.py, against the index's own ranking in the same run."""

from __future__ import annotations

import statistics

from server.skills.indexes import Catalog
from tests.skills.catalog_relevance import QUERIES, catalog, ndcg


def test_the_product_asked_for_comes_before_its_accessories() -> None:
    shop = Catalog.build(catalog())

    def ids(hits: list) -> list[str]:
        return [shop.items[h.position]["id"] for h in hits]

    before = statistics.mean(ndcg(ids(shop.index.search(q, None, 10)), g) for q, g in QUERIES.items())  # fmt: skip
    after = statistics.mean(ndcg(ids(shop.search(q, None, 10)), g) for q, g in QUERIES.items())

    assert ids(shop.index.search("Acme Phone X", None, 3))[0] == "phone-charger"  # the bug, shown
    assert ids(shop.search("Acme Phone X", None, 3)) == ["phone", "phone-charger", "phone-case"]
    assert ids(shop.search("acme phone x case", None, 1)) == ["phone-case"]
    assert before < 0.8 and after >= 0.95


def test_title_boosts_follow_the_bots_field_weights() -> None:
    """A bot that does not search titles gets no title boost."""
    shop = Catalog.build(catalog())
    no_titles = shop.search("Acme Phone X", {"title": 0.0, "body": 1.0, "brand": 1.0}, 3)

    assert "phone" not in [shop.items[h.position]["id"] for h in no_titles][:1]
