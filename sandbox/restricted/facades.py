"""The reviewed import table: each allowed module name maps to a facade of vetted functions,
classes and constants — never the real module.

``from X import Y`` does not pass through ``_getattr_`` (the IMPORT_FROM opcode reads the
attribute directly), so handing out a real module would expose every re-export (``json.codecs``
→ ``sys``, ``uuid.os``, ``datetime.sys`` …). A facade holds only the names listed here, each
reviewed: nothing that reaches a module, the process-wide RNG, the decimal context, the
interpreter or the file system.

``DEFAULT_MODULES`` are importable by every tenant; ``REVIEWED_EXTRA`` may be granted per tenant
by an admin; ``PACKAGE_ONLY`` serve the code of reviewed packages (``sandbox.packages``).
"""

from __future__ import annotations
import __future__

import abc
import base64
import bisect
import collections
import copy
import dataclasses
import datetime
import decimal
import enum
import functools
import hashlib
import heapq
import hmac
import html
import itertools
import json
import math
import os
import random
import re
import statistics
import string
import textwrap
import time
import typing
import unicodedata
import urllib.parse
import uuid
import zoneinfo
from collections.abc import Callable
from types import MappingProxyType
from typing import Any


class FirstDrawSeeds:
    """A random generator that is seeded from the OS at its first draw after each ``renew()``
    (the start of every tool call): no tenant's seed or sequence reaches another's call, and a
    call that draws nothing pays nothing — a seed is ~5 µs here, ~40 µs in the WASM tier, and
    far more in a fresh WASM instance, whose first seed copies the snapshot's pages it touches.
    A tool's own ``seed(n)`` still gives it ``Random(n)``'s sequence for the rest of its call."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seeded = False

    def renew(self) -> None:
        self.seeded = False

    def method(self, name: str) -> Callable[..., Any]:
        """``rng.<name>``, seeding first when this call has not drawn yet."""
        bound = getattr(self.rng, name)

        def draw(*args: Any, **kwargs: Any) -> Any:
            if not self.seeded:
                self.rng.seed(os.urandom(32))
                self.seeded = True
            return bound(*args, **kwargs)

        draw.__name__ = draw.__qualname__ = name
        draw.__doc__ = bound.__doc__
        return draw


_random = FirstDrawSeeds(random.Random())


def reseed_random() -> None:
    """Called before every tool call: the facade's generator seeds afresh at its next draw."""
    _random.renew()


class Facade:
    """An immutable namespace of vetted names."""

    __slots__ = ("_name", "_names")

    def __init__(self, name: str, names: dict[str, Any]) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_names", MappingProxyType(dict(names)))

    def __getattr__(self, attr: str) -> Any:
        try:
            return self._names[attr]
        except KeyError:
            raise AttributeError(
                f"module {self._name!r} has no attribute {attr!r} in the sandbox"
            ) from None

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError("sandbox modules are read-only")

    def __dir__(self) -> list[str]:
        return sorted(self._names)

    def __repr__(self) -> str:
        return f"<sandbox module {self._name}>"


def _pick(module: Any, names: str) -> dict[str, Any]:
    return {n: getattr(module, n) for n in names.split()}


def _public(module: Any, exclude: str = "") -> dict[str, Any]:
    skip = set(exclude.split())
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_") and n not in skip}


def _json_dumps(obj: Any, **kwargs: Any) -> str:
    allowed = {"indent", "sort_keys", "ensure_ascii", "separators", "allow_nan"}
    if set(kwargs) - allowed:
        raise TypeError(f"json.dumps accepts only {', '.join(sorted(allowed))}")
    return json.dumps(obj, **kwargs)


def _json_loads(text: str | bytes) -> Any:
    return json.loads(text)


def _random_facade() -> dict[str, Any]:
    names = (
        "random randint randrange choice choices shuffle sample uniform gauss normalvariate "
        "triangular betavariate expovariate getrandbits randbytes seed"
    )
    return {n: _random.method(n) for n in names.split()}


def _string_constants() -> dict[str, Any]:
    return _pick(
        string,
        "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits punctuation "
        "whitespace printable capwords",
    )


_BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "json": lambda: {
        "dumps": _json_dumps,
        "loads": _json_loads,
        "JSONDecodeError": json.JSONDecodeError,
    },
    "re": lambda: _pick(
        re,
        "compile search match fullmatch findall finditer sub subn split escape error IGNORECASE I "
        "MULTILINE M DOTALL S VERBOSE X ASCII A UNICODE U",
    ),
    "math": lambda: _public(math),
    "datetime": lambda: _pick(datetime, "date datetime time timedelta timezone MINYEAR MAXYEAR"),
    "zoneinfo": lambda: {"ZoneInfo": zoneinfo.ZoneInfo},
    "decimal": lambda: _pick(
        decimal,
        "Decimal InvalidOperation DivisionByZero ROUND_HALF_UP ROUND_HALF_EVEN ROUND_HALF_DOWN "
        "ROUND_UP ROUND_DOWN ROUND_CEILING ROUND_FLOOR",
    ),
    "statistics": lambda: _pick(
        statistics,
        "mean fmean geometric_mean harmonic_mean median median_low median_high median_grouped "
        "mode multimode pstdev pvariance stdev variance quantiles StatisticsError",
    ),
    "hashlib": lambda: _pick(
        hashlib, "md5 sha1 sha224 sha256 sha384 sha512 sha3_256 sha3_512 blake2b blake2s"
    ),
    "hmac": lambda: _pick(hmac, "new compare_digest digest"),
    "base64": lambda: _pick(
        base64,
        "b64encode b64decode urlsafe_b64encode urlsafe_b64decode b32encode b32decode b16encode "
        "b16decode",
    ),
    "uuid": lambda: _pick(
        uuid, "uuid3 uuid4 uuid5 UUID NAMESPACE_DNS NAMESPACE_URL NAMESPACE_OID NAMESPACE_X500"
    ),
    "urllib.parse": lambda: _pick(
        urllib.parse,
        "quote quote_plus unquote unquote_plus urlencode urlparse urlsplit urlunparse urlunsplit "
        "urljoin parse_qs parse_qsl",
    ),
    "itertools": lambda: _public(itertools),
    "functools": lambda: _pick(functools, "reduce partial cmp_to_key lru_cache cache"),
    "collections": lambda: _pick(collections, "Counter OrderedDict defaultdict deque ChainMap"),
    "time": lambda: _pick(
        time, "time time_ns monotonic perf_counter sleep strftime gmtime localtime mktime"
    ),
    "random": _random_facade,
    "string": _string_constants,
    "unicodedata": lambda: _pick(
        unicodedata, "normalize category name lookup decimal digit numeric east_asian_width"
    ),
    "textwrap": lambda: _pick(textwrap, "wrap fill dedent indent shorten"),
    "html": lambda: _pick(html, "escape unescape"),
    "bisect": lambda: _public(bisect),
    "heapq": lambda: _public(heapq),
    "copy": lambda: _pick(copy, "copy deepcopy"),
    # what reviewed packages (sandbox.packages) are made of; not a tool's to import
    "__future__": lambda: _pick(__future__, "annotations"),
    "typing": lambda: _pick(
        typing,
        "TYPE_CHECKING Any Optional Union List Dict Tuple Set FrozenSet Callable Iterable "
        "Iterator Mapping MutableMapping Sequence MutableSequence TypeVar Generic Protocol "
        "NamedTuple TypedDict Literal ClassVar Final Type NoReturn cast overload final "
        "runtime_checkable",
    ),
    "dataclasses": lambda: _pick(
        dataclasses,
        "dataclass field fields asdict astuple replace is_dataclass FrozenInstanceError MISSING",
    ),
    "enum": lambda: _pick(enum, "Enum IntEnum Flag IntFlag auto unique"),
    "abc": lambda: _pick(abc, "ABC ABCMeta abstractmethod"),
}
# what only reviewed packages' code imports, beside the whole reviewed table
PACKAGE_ONLY = frozenset({"__future__", "typing", "dataclasses", "enum", "abc"})

DEFAULT_MODULES = (
    frozenset(_BUILDERS)
    - PACKAGE_ONLY
    - {
        "textwrap",
        "html",
        "bisect",
        "heapq",
        "copy",
        "zoneinfo",
        "unicodedata",
    }
)
REVIEWED_EXTRA = frozenset(_BUILDERS) - DEFAULT_MODULES - PACKAGE_ONLY
PACKAGE_TABLE = frozenset(_BUILDERS)  # a reviewed package's code may import any of it
NEVER = frozenset(
    {
        "os",
        "sys",
        "subprocess",
        "io",
        "pathlib",
        "inspect",
        "types",
        "gc",
        "ctypes",
        "pickle",
        "importlib",
        "operator",
        "builtins",
        "socket",
        "shutil",
        "threading",
        "multiprocessing",
        "signal",
        "resource",
        "marshal",
        "code",
        "codeop",
    }
)

_FACADES: dict[str, Facade] = {}


def facade(name: str) -> Facade:
    """The facade for ``name`` (built once per process; the random one delegates to ``_random``)."""
    hit = _FACADES.get(name)
    if hit is None:
        hit = _FACADES[name] = Facade(name, _BUILDERS[name]())
    return hit


def make_importer(allowed: frozenset[str]) -> Callable[..., Facade]:
    """An ``__import__`` that hands out facades for allowed names and refuses everything else."""

    def _import(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Facade:
        if level != 0:
            raise ImportError("relative imports are not allowed in tools")
        if name not in allowed:
            raise ImportError(f"module {name!r} is not available in the sandbox")
        if "." in name and not fromlist:
            # `import urllib.parse` binds `urllib`; give a namespace holding only the facade.
            head, _, tail = name.partition(".")
            return Facade(head, {tail: facade(name)})
        return facade(name)

    return _import


def prewarm(zones: bool = True) -> None:
    """Build every facade and trigger lazy stdlib imports before the worker is locked down.

    ``zones=False`` where there is no time zone database (inside WASM)."""
    for name in _BUILDERS:
        facade(name)
    datetime.datetime.strptime("2020-01-01", "%Y-%m-%d")
    time.strptime("2020", "%Y")
    "bücher.example".encode("idna")  # loads encodings.idna and encodings.punycode
    re.compile(r"\w+\d\s").search("a1 ")
    json.loads(json.dumps({"a": [1.5, "é"]}))
    decimal.Decimal("1.1") + 1
    if zones:
        zoneinfo.ZoneInfo("UTC")
    statistics.stdev([1, 2, 3])
    unicodedata.normalize("NFC", "é")
    hashlib.blake2b(b"x").hexdigest()
