"""The modules a JavaScript tool file may ``require`` beyond the prelude's own (``axios``,
``querystring``): reviewed files in ``modules/`` (their provenance in its README), evaluated in
the tool's instance before the file itself, and only for a file that names them — joi alone
costs ~45 ms to evaluate even from bytecode (``host._Instance.bundle``), so a file that needs
none pays nothing.

A file names a module by ``require('name')`` (or ``"name"``, `` `name` ``, ``node:name``) and a
global by using it (``URL``, ``URLSearchParams``, ``Buffer``). A ``require`` whose name is
computed at run time finds only what was named; it is told so.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).parent / "modules"

# file -> the module name it provides (CommonJS files), or None (it installs globals / provides
# several modules itself); in the order they are evaluated
FILES: dict[str, str | None] = {
    "url-polyfill.js": None,  # core-js's URL and URLSearchParams
    "crypto-js.js": "crypto-js",
    "node.js": None,  # buffer, crypto, events, http, https, url
    "joi.js": "joi",
    "uuid.js": "uuid",
}
NODE = ("url-polyfill.js", "node.js")
NEEDS: dict[str, tuple[str, ...]] = {
    "joi": (*NODE, "joi.js"),  # it uses Buffer
    "crypto-js": ("crypto-js.js",),
    "uuid": ("uuid.js",),
    "crypto": ("crypto-js.js", *NODE),
    **{name: NODE for name in ("buffer", "events", "http", "https", "url")},
}
GLOBALS: dict[str, tuple[str, ...]] = {
    "URL": ("url-polyfill.js",),
    "URLSearchParams": ("url-polyfill.js",),
    "Buffer": NODE,
}
REQUIRED = re.compile(r"""\brequire\s*\(\s*(['"`])(?:node:)?([a-z-]+)\1\s*\)""")
USED = re.compile(r"\b(URL|URLSearchParams|Buffer)\b")


def needed(source: str) -> list[str]:
    """The files to evaluate before ``source``, in order (each once)."""
    files: list[str] = []
    wanted = [NEEDS.get(m.group(2), ()) for m in REQUIRED.finditer(source)]
    wanted += [GLOBALS[m.group(1)] for m in USED.finditer(source)]
    for group in wanted:
        files += [f for f in group if f not in files]
    return sorted(files, key=list(FILES).index)


@cache
def script(file: str) -> str:
    """``file`` wrapped for evaluation: a CommonJS file's exports become its module; the others
    run as the body of a function of the prelude's bundling hooks."""
    text = (FOLDER / file).read_text()
    name = FILES[file]
    if name is None:
        return f"__quiver.bundle(function (quiver) {{{text}\n}});"
    return (
        "__quiver.bundle(function (quiver) { const module = { exports: {} };"
        " (function (module, exports, require, define, self, window) {"
        f"{text}\n}}).call(globalThis, module, module.exports, undefined, undefined,"
        f" globalThis, undefined); quiver.provide({name!r}, module.exports); }});"
    )
