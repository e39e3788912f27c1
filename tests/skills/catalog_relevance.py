"""A catalog where accessories repeat their product's name, and shop queries with graded
relevance (3: the item asked for, 2: a close variant, 1: related, 0: not), for nDCG@10 of
``search_catalog`` (benchmarks/catalog_relevance.py prints it, tests/skills/ checks it)."""

from __future__ import annotations

import math
from typing import Any


def _item(id: str, title: str, body: str, brand: str = "") -> dict[str, Any]:
    return {
        "id": id,
        "fields": {"title": title, "body": body, **({"brand": brand} if brand else {})},
    }


FAMILIES = {
    "phone": (
        "Acme Phone X",
        "Acme",
        "A 6.1 inch phone with a bright screen, two cameras and a battery that lasts two days.",
        ["charger", "case", "screen protector"],
    ),
    "laptop": (
        "Nimbus Laptop 14",
        "Nimbus",
        "A light 14 inch laptop with 16 GB of memory for work and travel.",
        ["sleeve", "charger", "keyboard cover"],
    ),
    "headphones": (
        "Zen Headphones",
        "Zen",
        "Over-ear wireless headphones with noise cancelling and thirty hours of play.",
        ["ear pads", "travel case", "cable"],
    ),
    "shoe": (
        "Trail Runner 2",
        "Peak",
        "A running shoe with a grippy sole for muddy trails and rocky paths.",
        ["laces", "insoles"],
    ),
    "coffee": (
        "Breeze Coffee Maker",
        "Breeze",
        "Brews ten cups of filter coffee and keeps them warm for two hours.",
        ["filters", "descaler", "carafe"],
    ),
    "watch": (
        "Orbit Smart Watch",
        "Orbit",
        "Tracks your steps, sleep and heart rate; shows messages from your phone.",
        ["band", "charger", "screen protector"],
    ),
    "tent": (
        "Polar Tent 2",
        "Polar",
        "A two-person tent for four seasons that pitches in five minutes.",
        ["footprint", "rain fly"],
    ),
}


def catalog() -> list[dict[str, Any]]:
    items = []
    for key, (name, brand, body, accessories) in FAMILIES.items():
        items.append(_item(key, name, body, brand))
        for accessory in accessories:
            # the way shops write them: the product's name in the title and twice more below
            items.append(_item(f"{key}-{accessory.replace(' ', '-')}", f"{name} {accessory}",
                               f"{accessory.capitalize()} for the {name}. Made to fit the {name} exactly.", brand))  # fmt: skip
    items += [
        _item(
            "phone-pro",
            "Acme Phone X Pro",
            "The larger Acme phone: a 6.7 inch screen and three cameras.",
            "Acme",
        ),
        _item(
            "laptop-16",
            "Nimbus Laptop 16",
            "A 16 inch laptop with a bigger battery for long days.",
            "Nimbus",
        ),
        _item("stand", "Phone stand", "Holds any phone upright on your desk.", "Desky"),
        _item("laptop-stand", "Laptop stand", "Raises your laptop to eye level.", "Desky"),
        _item("cable-usb", "USB-C cable", "Charges phones, laptops and headphones.", "Wired"),
        _item("beans", "Coffee beans", "Medium roast beans for filter coffee makers.", "Roast"),
        _item("socks", "Running socks", "Socks for trail running that keep your feet dry.", "Peak"),
        _item(
            "sleeping-bag", "Sleeping bag", "A warm bag for camping in a tent in winter.", "Polar"
        ),
        _item("earbuds", "Zen Earbuds", "Small wireless earbuds with a charging case.", "Zen"),
        _item(
            "charger-universal",
            "Universal charger",
            "A charger for phones, watches and laptops.",
            "Wired",
        ),
    ]
    return items


def _family(key: str, asked: str | None = None) -> dict[str, int]:
    """The product 3 (or the accessory ``asked`` 3 and the product 1), its accessories 1."""
    name, _, _, accessories = FAMILIES[key]
    grades = {key: 1 if asked else 3}
    for accessory in accessories:
        grades[f"{key}-{accessory.replace(' ', '-')}"] = 3 if accessory == asked else 1
    return grades


QUERIES: dict[str, dict[str, int]] = {
    "acme phone x": {**_family("phone"), "phone-pro": 2},
    "Acme Phone X Pro": {"phone-pro": 3, "phone": 2, **{k: 1 for k in _family("phone") if k != "phone"}},
    "acme phone x case": {**_family("phone", "case"), "phone-pro": 1},
    "nimbus laptop 14": {**_family("laptop"), "laptop-16": 2},
    "nimbus laptop 14 charger": {**_family("laptop", "charger"), "charger-universal": 1},
    "zen headphones": {**_family("headphones"), "earbuds": 1},
    "trail runner 2": {**_family("shoe"), "socks": 1},
    "breeze coffee maker": {**_family("coffee"), "beans": 1},
    "coffee maker filters": {**_family("coffee", "filters"), "beans": 1},
    "orbit smart watch": _family("watch"),
    "orbit smart watch band": _family("watch", "band"),
    "polar tent 2": {**_family("tent"), "sleeping-bag": 1},
    "polar tent 2 footprint": _family("tent", "footprint"),
}  # fmt: skip


def ndcg(ranked: list[str], grades: dict[str, int], k: int = 10) -> float:
    """nDCG@k with gains 2^grade - 1."""

    def dcg(gains: list[int]) -> float:
        return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains[:k]))

    ideal = dcg(sorted(grades.values(), reverse=True))
    return dcg([grades.get(item, 0) for item in ranked]) / ideal if ideal else 0.0
