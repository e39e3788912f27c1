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

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

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


# A granted reviewed package (an admin's npm tarball, ``server.registry.packages``): its CommonJS
# files, each a function of ``(module, exports, require)``, loaded from its ``main`` on first
# need; ``require`` inside it resolves ``./`` and ``../`` paths among its own files and bare
# names to what the instance already provides (the prelude's, the bundled, other packages').
PACKAGE_LOADER = """
  const cache = {}; const own = Object.prototype.hasOwnProperty;
  function normalize(path) {
    const out = [];
    for (const part of path.split("/")) {
      if (part === "..") out.pop(); else if (part && part !== ".") out.push(part);
    }
    return out.join("/");
  }
  function find(path) {
    for (const end of ["", ".js", ".cjs", ".json", "/index.js", "/index.cjs", "/index.json"]) {
      if (own.call(files, path + end)) return path + end;
    }
    return null;
  }
  function load(path) {
    if (own.call(cache, path)) return cache[path].exports;
    const module = { exports: {} }; cache[path] = module;
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    files[path].call(module.exports, module, module.exports, (spec) => need(dir, String(spec)));
    return module.exports;
  }
  function need(dir, spec) {
    if (spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../")) {
      const found = find(normalize(dir + "/" + spec));
      if (found === null) throw new Error(`module '${spec}' is not in the package ${NAME}`);
      return load(found);
    }
    const got = quiver.loaded(spec.replace(/^node:/, ""));
    if (got === undefined) throw new Error(`module '${spec}' is not available to ${NAME}`);
    return got;
  }
"""


def package_script(spec: Mapping[str, Any]) -> str:
    """A granted JavaScript package's files, evaluated as one bundle that provides its name."""
    functions = []
    for path, text in sorted(spec["files"].items()):
        body = f"module.exports = ({text}\n);" if path.endswith(".json") else text
        functions.append(f"{json.dumps(path)}: function (module, exports, require) {{{body}\n}}")
    name = json.dumps(spec["name"])
    return (
        "__quiver.bundle(function (quiver) {"
        f" const NAME = {name}; const files = {{{', '.join(functions)}}};"
        f"{PACKAGE_LOADER} quiver.provide(NAME, load({json.dumps(spec['main'])})); }});"
    )


def packages_needed(source: str, granted: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The granted packages a file requires by name, with the ones they require, each once, in
    the order they were granted (a package that requires another is granted after it)."""
    by_name = {spec["name"]: spec for spec in granted}
    wanted: set[str] = set()
    texts = [source]
    while texts:
        text = texts.pop()
        for name in by_name:
            if name not in wanted and _requires(name).search(text):
                wanted.add(name)
                texts.extend(by_name[name]["files"].values())
    return [spec for spec in granted if spec["name"] in wanted]


@cache
def _requires(name: str) -> re.Pattern[str]:
    return re.compile(r"""\brequire\s*\(\s*(['"`])""" + re.escape(name) + r"\1\s*\)")
