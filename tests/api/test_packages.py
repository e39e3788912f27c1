"""Reviewed packages through HTTP on SQLite and PostgreSQL: an admin uploads a real wheel or npm
tarball (built here, as pip and npm build them), it is checked and tried at upload, granted per
tenant, and imported read-only by code tools in RestrictedPython, Python in WASM and QuickJS.
Every archive trick and escape known here is refused, and a tenant's package state stays its
own."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import io
import json
import tarfile
import zipfile

import pytest

from quiver.client import ApiError, AsyncQuiver, Quiver
from tests.api.test_calls import call, python, session_for
from tests.api.test_javascript_tools import js
from tests.conftest import ADMIN_KEY, Api, TenantKeys
from tests.servers import served

# a package as pip builds one: a folder with submodules, relative imports, a class, a
# dataclass, typing, and module state a function changes
SLUGKIT = {
    "slugkit/__init__.py": '''"""Slugs."""
from __future__ import annotations

from typing import Optional

from .core import Slugger, slugify
from . import state

__all__ = ["slugify", "Slugger", "state"]
VERSION = "1.0.0"
''',
    "slugkit/core.py": """from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_SEPARATORS = re.compile(r"[^a-z0-9]+")


def slugify(text: str, separator: str = "-") -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _SEPARATORS.sub(separator, ascii_text.lower()).strip(separator)


@dataclass(frozen=True)
class Slugger:
    separator: str = "-"

    def __call__(self, text: str) -> str:
        return slugify(text, self.separator)
""",
    "slugkit/state.py": """SEEN = []


def remember(value):
    SEEN.append(value)
    return list(SEEN)


def attribute(obj, name):
    return getattr(obj, name)
""",
}
PYTHON_TOOL = """
import slugkit
from slugkit.state import remember


def execute(params, context):
    slug = slugkit.slugify(params["text"])
    dotted = slugkit.Slugger(".")(params["text"])
    return {"slug": slug, "dotted": dotted, "seen": remember(params["text"]), "v": slugkit.VERSION}


tool = {"name": "slug", "description": "slugs", "execute": execute,
        "parameters": {"text": {"type": "string", "required": True}}}
"""


FIXED_TIME = (2026, 1, 1, 0, 0, 0)


def wheel(
    name: str,
    version: str,
    files: dict[str, str | bytes],
    tag: str = "py3-none-any",
    purelib: str = "true",
    meta_name: str | None = None,
) -> bytes:
    """A wheel as pip builds one (PEP 427): the files, then .dist-info's METADATA, WHEEL and
    RECORD (each file's hash and size)."""
    buffer = io.BytesIO()
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    meta = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {meta_name or name}\nVersion: {version}\n",  # noqa: E501
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: {purelib}\nTag: {tag}\n",  # noqa: E501
    }
    records = []

    def entry(path: str) -> zipfile.ZipInfo:  # a fixed time: the same files, the same bytes
        info = zipfile.ZipInfo(path, date_time=FIXED_TIME)
        info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
        return info

    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in {**files, **meta}.items():
            data = text.encode() if isinstance(text, str) else text
            archive.writestr(entry(path), data)
            digest = hashlib.sha256(data).hexdigest()
            records.append(f"{path},sha256={digest},{len(data)}")
        record = "\n".join([*records, f"{info}/RECORD,,"]) + "\n"
        archive.writestr(entry(f"{info}/RECORD"), record)
    return buffer.getvalue()


def tarball(name: str, version: str, files: dict[str, str | bytes], **manifest: object) -> bytes:
    """An npm tarball as ``npm pack`` makes one: everything under ``package/``."""
    buffer = io.BytesIO()
    body = {"name": name, "version": version, "main": "lib/index.js", **manifest}
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for path, text in {"package.json": json.dumps(body), **files}.items():
            data = text.encode() if isinstance(text, str) else text
            member = tarfile.TarInfo(f"package/{path}")
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), mtime=0)  # no time in the header: the same bytes


async def upload(api: Api, name: str, version: str, data: bytes, sha256: str | None = None):  # type: ignore[no-untyped-def]  # noqa: E501
    return await api.admin.put(
        f"/v1/packages/{name}/{version}",
        params={"sha256": sha256 or hashlib.sha256(data).hexdigest()},
        content=data,
        headers={"content-type": "application/octet-stream"},
    )


async def granted(api: Api, tenant: str, packages: dict[str, str]) -> None:
    answer = await api.admin.put(f"/v1/tenants/{tenant}/packages", json={"packages": packages})
    assert answer.status_code == 200, answer.text


async def slug_session(acme: TenantKeys, sandbox: str = "restricted") -> str:
    saved = await acme.dev.post("/v1/tools", json=python(PYTHON_TOOL, sandbox))
    assert saved.status_code == 201, saved.text
    return await session_for(acme, [])


async def test_a_granted_wheel_is_imported_by_a_tenants_tool_and_no_one_elses(api: Api) -> None:
    acme, other = await api.tenant("acme"), await api.tenant("other")
    uploaded = await upload(api, "slugkit", "1.0.0", wheel("slugkit", "1.0.0", SLUGKIT))
    assert uploaded.status_code == 201, uploaded.text
    refused = await other.dev.post("/v1/tools", json=python(PYTHON_TOOL))  # not granted

    await granted(api, "acme", {"slugkit": "1.0.0"})
    sid = await slug_session(acme)
    first = await call(acme, sid, "slug", {"text": "Crème Brûlée Recipe"})
    second = await call(acme, sid, "slug", {"text": "Two"})
    again = await upload(api, "slugkit", "1.0.0", wheel("slugkit", "1.0.0", SLUGKIT))
    listed = (await acme.dev.get("/v1/packages")).json()["packages"]
    unseen = (await other.dev.get("/v1/packages")).json()["packages"]
    hidden = await other.dev.get("/v1/packages/slugkit/1.0.0")

    assert uploaded.json()["modules"] == ["slugkit"] and uploaded.json()["language"] == "python"
    assert refused.status_code == 422 and "slugkit" in refused.text
    assert first["success"], first
    assert first["result"] == {
        "slug": "creme-brulee-recipe", "dotted": "creme.brulee.recipe",
        "seen": ["Crème Brûlée Recipe"], "v": "1.0.0",
    }  # fmt: skip
    assert second["result"]["seen"] == ["Crème Brûlée Recipe", "Two"]  # the tool's own state
    assert again.status_code == 200  # the same archive again: nothing changes
    assert [p["name"] for p in listed] == ["slugkit"] and unseen == []
    assert hidden.status_code == 404


async def test_package_state_is_each_tenants_own_and_modules_are_read_only(api: Api) -> None:
    acme, other = await api.tenant("acme"), await api.tenant("other")
    assert (
        await upload(api, "slugkit", "1.0.0", wheel("slugkit", "1.0.0", SLUGKIT))
    ).status_code == 201  # noqa: E501
    await granted(api, "acme", {"slugkit": "1.0.0"})
    await granted(api, "other", {"slugkit": "1.0.0"})
    probe = """
import slugkit
from slugkit import state


def execute(params, context):
    outcome = {"seen": state.remember(params["who"])}
    for name, attempt in (("set", set_it), ("getattr", walk)):
        try:
            attempt(params)
            outcome[name] = "allowed"
        except Exception:
            outcome[name] = "refused"
    return outcome


def set_it(params):
    slugkit.slugify = len


def walk(params):
    return state.attribute(state.remember, params["attr"])


tool = {"name": "probe", "description": "probes", "execute": execute,
        "parameters": {"who": {"type": "string"}, "attr": {"type": "string"}}}
"""
    for tenant in (acme, other):
        assert (await tenant.dev.post("/v1/tools", json=python(probe))).status_code == 201
    acme_sid, other_sid = await session_for(acme, []), await session_for(other, [])

    mine = await call(acme, acme_sid, "probe", {"who": "acme", "attr": "__globals__"})
    theirs = await call(other, other_sid, "probe", {"who": "other", "attr": "__class__"})
    still = await call(acme, acme_sid, "probe", {"who": "acme-again", "attr": "__code__"})

    assert mine["result"]["seen"] == ["acme"] and theirs["result"]["seen"] == ["other"]
    assert still["result"]["seen"] == ["acme", "acme-again"]
    for outcome in (mine, theirs, still):
        assert outcome["result"]["set"] != "allowed" and outcome["result"]["getattr"] != "allowed"


@pytest.mark.usefixtures("python_runner")
async def test_python_in_wasm_imports_a_granted_wheel(settings) -> None:  # type: ignore[no-untyped-def]  # noqa: E501
    from tests.conftest import api_for

    async with api_for(settings) as api:
        acme = await api.tenant("acme")
        assert (
            await upload(api, "slugkit", "1.0.0", wheel("slugkit", "1.0.0", SLUGKIT))
        ).status_code == 201  # noqa: E501
        await granted(api, "acme", {"slugkit": "1.0.0"})
        sid = await slug_session(acme, "wasm")
        answer = await call(acme, sid, "slug", {"text": "Hello WASM World"})

    assert answer["success"], answer
    assert answer["result"]["slug"] == "hello-wasm-world"
    assert answer["result"]["dotted"] == "hello.wasm.world"


JS_PACKAGE = {
    "lib/index.js": "const util = require('./util');\nconst words = require('../data/words.json');\n"
    "module.exports = { shout: (s) => util.upper(s) + '!', words, count: () => ++util.state.n };",  # noqa: E501
    "lib/util.js": "exports.upper = (s) => String(s).toUpperCase();\nexports.state = { n: 0 };",
    "data/words.json": '["alpha", "beta"]',
    "README.md": "# shouty",
}
JS_TOOL = """const shouty = require('shouty');
module.exports = {name: 'shout', description: 'shouts', parameters: {text: {type: 'string'}},
  execute: async (p) => ({said: shouty.shout(p.text), words: shouty.words, n: shouty.count()})};
"""


async def test_a_granted_npm_package_is_required_by_a_javascript_tool(api: Api) -> None:
    acme, other = await api.tenant("acme"), await api.tenant("other")
    uploaded = await upload(api, "shouty", "2.1.0", tarball("shouty", "2.1.0", JS_PACKAGE))
    assert uploaded.status_code == 201, uploaded.text
    refused = await other.dev.post("/v1/tools", json=js(JS_TOOL))
    await granted(api, "acme", {"shouty": "2.1.0"})
    saved = await acme.dev.post("/v1/tools", json=js(JS_TOOL))
    assert saved.status_code == 201, saved.text
    sid = await session_for(acme, [])

    first = await call(acme, sid, "shout", {"text": "hey"})
    second = await call(acme, sid, "shout", {"text": "you"})

    assert uploaded.json()["main"] == "lib/index.js" and uploaded.json()["language"] == "javascript"  # noqa: E501
    assert uploaded.json()["files"] == 4  # its code and package.json; the README is not code
    assert refused.status_code == 422, refused.text
    assert first["result"] == {"said": "HEY!", "words": ["alpha", "beta"], "n": 1}, first
    assert second["result"]["n"] == 2


def _py(**files: str | bytes) -> dict[str, str | bytes]:
    return {"evil/__init__.py": "X = 1\n", **files}


# (what is wrong, the archive, the field the problem names, a word the message holds)
REFUSED = [
    (
        "a native extension",
        lambda: wheel(
            "evil", "1.0", _py(**{"evil/_speed.cpython-311-x86_64-linux-gnu.so": b"\x7fELF"})
        ),
        "archive",
        "native",
    ),  # noqa: E501
    (
        "a platform wheel",
        lambda: wheel("evil", "1.0", _py(), tag="cp311-cp311-manylinux_2_17_x86_64"),
        "archive",
        "pure",
    ),  # noqa: E501
    (
        "not purelib",
        lambda: wheel("evil", "1.0", _py(), purelib="false"),
        "archive",
        "Root-Is-Purelib",
    ),  # noqa: E501
    (
        "a start-up hook",
        lambda: wheel("evil", "1.0", _py(**{"evil.pth": "import os; os.system('id')"})),
        "archive",
        "start-up",
    ),  # noqa: E501
    (
        "compiled bytecode",
        lambda: wheel("evil", "1.0", _py(**{"evil/__pycache__/x.cpython-311.pyc": b"\x00"})),
        "archive",
        "native",
    ),  # noqa: E501
    (
        "a path out of the archive",
        lambda: wheel("evil", "1.0", _py(**{"../../etc/evil.py": "X = 1"})),
        "archive",
        "leaves",
    ),  # noqa: E501
    (
        "an absolute path",
        lambda: wheel("evil", "1.0", _py(**{"/tmp/evil.py": "X = 1"})),
        "archive",
        "leaves",
    ),  # noqa: E501
    (
        "import os",
        lambda: wheel("evil", "1.0", _py(**{"evil/run.py": "import os\nos.system('id')\n"})),
        "archive",
        "'os'",
    ),  # noqa: E501
    (
        "from subprocess import",
        lambda: wheel("evil", "1.0", _py(**{"evil/run.py": "from subprocess import run\n"})),
        "archive",
        "'subprocess'",
    ),  # noqa: E501
    (
        "importlib",
        lambda: wheel("evil", "1.0", _py(**{"evil/run.py": "import importlib\n"})),
        "archive",
        "'importlib'",
    ),  # noqa: E501
    (
        "walks to every class",
        lambda: wheel(
            "evil", "1.0", _py(**{"evil/run.py": "C = ().__class__.__base__.__subclasses__()\n"})
        ),  # noqa: E501
        "archive",
        "'__subclasses__'",
    ),
    (
        "walks a frame",
        lambda: wheel(
            "evil",
            "1.0",
            _py(
                **{
                    "evil/run.py": "def f(e):\n    return e.__traceback__.tb_frame.f_back.f_globals\n"
                }
            ),
        ),  # noqa: E501
        "archive",
        "'tb_frame'",
    ),
    (
        "reaches a function's globals",
        lambda: wheel(
            "evil", "1.0", _py(**{"evil/run.py": "def f():\n    return f.__globals__\n"})
        ),  # noqa: E501
        "archive",
        "'__globals__'",
    ),
    (
        "shadowing json",
        lambda: wheel("evil", "1.0", {"json/__init__.py": "dumps = None\n"}),
        "archive",
        "shadow",
    ),  # noqa: E501
    (
        "a .data folder",
        lambda: wheel("evil", "1.0", _py(**{"evil-1.0.data/scripts/evil": "#!/bin/sh\nid\n"})),
        "archive",
        ".data",
    ),  # noqa: E501
    (
        "another name inside",
        lambda: wheel("evil", "1.0", _py(), meta_name="requests"),
        "name",
        "requests",
    ),  # noqa: E501
    (
        "a syntax error",
        lambda: wheel("evil", "1.0", _py(**{"evil/bad.py": "def (:\n"})),
        "archive",
        "syntax",
    ),  # noqa: E501
    ("not an archive", lambda: b"#!/bin/sh\nrm -rf /\n", "archive", "wheel"),
    (
        "an addon",
        lambda: tarball(
            "evil",
            "1.0",
            {"lib/index.js": "module.exports = 1", "build/Release/evil.node": b"\x7fELF"},
        ),
        "archive",
        "native",
    ),  # noqa: E501
    (
        "node-gyp",
        lambda: tarball("evil", "1.0", {"lib/index.js": "module.exports = 1", "binding.gyp": "{}"}),
        "archive",
        "native",
    ),  # noqa: E501
    (
        "an ES module",
        lambda: tarball("evil", "1.0", {"lib/index.js": "export default 1"}, type="module"),
        "archive",
        "CommonJS",
    ),  # noqa: E501
    (
        "no main file",
        lambda: tarball("evil", "1.0", {"lib/other.js": "module.exports = 1"}),
        "archive",
        "main",
    ),  # noqa: E501
    (
        "a tarball of another name",
        lambda: tarball("lodash", "1.0", {"lib/index.js": "module.exports = 1"}),
        "name",
        "lodash",
    ),  # noqa: E501
]


@pytest.mark.parametrize(("what", "build", "field", "word"), REFUSED, ids=[r[0] for r in REFUSED])
async def test_an_archive_that_is_not_pure_reviewed_code_is_refused_and_nothing_is_stored(
    api: Api,
    what: str,
    build,
    field: str,
    word: str,  # type: ignore[no-untyped-def]
) -> None:
    answer = await upload(api, "evil", "1.0", build())
    stored = await api.admin.get("/v1/packages/evil/1.0")

    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    errors = answer.json()["errors"]
    assert any(e["field"] == field and word in e["message"] for e in errors), errors
    assert stored.status_code == 404


async def test_an_archive_is_pinned_by_its_hash(api: Api) -> None:
    data = wheel("slugkit", "1.0.0", SLUGKIT)
    changed = wheel("slugkit", "1.0.0", {**SLUGKIT, "slugkit/extra.py": "Y = 2\n"})

    wrong_hash = await upload(api, "slugkit", "1.0.0", data, sha256="0" * 64)
    bad_hash = await upload(api, "slugkit", "1.0.0", data, sha256="not-a-hash")
    first = await upload(api, "slugkit", "1.0.0", data)
    replaced = await upload(api, "slugkit", "1.0.0", changed)
    named_not_sent = await upload(api, "slugkit", "1.0.0", changed, sha256=first.json()["sha256"])
    other_version = await upload(api, "slugkit", "1.0.1", data)
    dashed = wheel("slug-kit", "1.0.0", SLUGKIT)
    assert (await upload(api, "slug-kit", "1.0.0", dashed)).status_code == 201
    other_name = await upload(api, "slug_kit", "1.0.0", dashed)  # PEP 503: the same project

    assert wrong_hash.status_code == 422 and wrong_hash.json()["errors"][0]["field"] == "sha256"
    assert bad_hash.status_code == 422 and bad_hash.json()["errors"][0]["field"] == "sha256"
    assert first.status_code == 201 and first.json()["sha256"] == hashlib.sha256(data).hexdigest()
    assert replaced.status_code == 409, replaced.text
    assert named_not_sent.status_code == 422 and "sha256" in named_not_sent.text
    assert (
        other_version.status_code == 422 and other_version.json()["errors"][0]["field"] == "version"
    )  # noqa: E501
    assert other_name.status_code == 409  # one archive, one name and version


async def test_a_package_whose_import_runs_too_long_or_fails_is_refused_at_upload(api: Api) -> None:  # noqa: E501
    spins = wheel("spins", "1.0", {"spins/__init__.py": "while True:\n    pass\n"})
    raises = wheel("raises", "1.0", {"raises/__init__.py": "raise ValueError('nope')\n"})
    missing = wheel(
        "partial", "1.0", {"partial/__init__.py": "import json\nJ = json.JSONEncoder\n"}
    )  # noqa: E501
    throws = tarball("throws", "1.0", {"lib/index.js": "throw new Error('broken at import')"})
    loops = tarball("loops", "1.0", {"lib/index.js": "for (;;) {}"})

    answers = {
        name: await upload(api, name, "1.0", data)
        for name, data in (("spins", spins), ("raises", raises), ("partial", missing),
                           ("throws", throws), ("loops", loops))
    }  # fmt: skip

    for name, answer in answers.items():
        assert answer.status_code == 422, (name, answer.text)
    assert "longer than" in answers["spins"].text
    assert "nope" in answers["raises"].text
    assert "JSONEncoder" in answers["partial"].text
    assert "broken at import" in answers["throws"].text
    assert "longer than" in answers["loops"].text or "out of fuel" in answers["loops"].text
    assert (await api.admin.get("/v1/packages")).json()["packages"] == []


async def test_grants_are_checked_and_a_granted_package_cannot_be_deleted(api: Api) -> None:
    acme = await api.tenant("acme")
    await upload(api, "slugkit", "1.0.0", wheel("slugkit", "1.0.0", SLUGKIT))
    clone = {"slugkit/__init__.py": "X = 1\n"}
    await upload(api, "slugkit-fork", "1.0.0", wheel("slugkit-fork", "1.0.0", clone))

    unknown = await api.admin.put("/v1/tenants/acme/packages", json={"packages": {"nope": "1"}})
    clash = await api.admin.put(
        "/v1/tenants/acme/packages",
        json={"packages": {"slugkit": "1.0.0", "slugkit-fork": "1.0.0"}},  # noqa: E501
    )
    by_developer = await acme.dev.put("/v1/tenants/acme/packages", json={"packages": {}})
    upload_by_developer = await acme.dev.put("/v1/packages/x/1?sha256=" + "0" * 64, content=b"")
    await granted(api, "acme", {"slugkit": "1.0.0"})
    tenant = (await api.admin.get("/v1/tenants/acme")).json()
    held = await api.admin.delete("/v1/packages/slugkit/1.0.0")
    shown = (await api.admin.get("/v1/packages/slugkit/1.0.0")).json()
    await granted(api, "acme", {})
    freed = await api.admin.delete("/v1/packages/slugkit/1.0.0")

    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "packages.nope"
    assert clash.status_code == 422 and "both provide 'slugkit'" in clash.text
    assert by_developer.status_code == 403 and upload_by_developer.status_code == 403
    assert tenant["packages"] == [{"name": "slugkit", "version": "1.0.0", "language": "python"}]
    assert held.status_code == 409 and "acme" in held.text
    assert shown["tenants"] == ["acme"] and "slugkit/core.py" in shown["files"]
    assert freed.status_code == 204


async def test_both_clients_upload_grant_and_delete_packages(api: Api) -> None:
    await api.tenant("acme")
    data = wheel("slugkit", "1.0.0", SLUGKIT)
    async with served(api.app) as base, AsyncQuiver(base, ADMIN_KEY) as admin:
        uploaded = await admin.upload_package("slugkit", "1.0.0", data)
        tenant = await admin.grant_packages("acme", {"slugkit": "1.0.0"})

        def sync_side() -> tuple[list, dict]:
            with Quiver(base, ADMIN_KEY) as sync:
                return sync.list_packages(), sync.get_package("slugkit", "1.0.0")

        listed, shown = await asyncio.to_thread(sync_side)
        with pytest.raises(ApiError) as held:
            await admin.delete_package("slugkit", "1.0.0")
        await admin.grant_packages("acme", {})
        await admin.delete_package("slugkit", "1.0.0")
        after = await admin.list_packages()

    assert uploaded["sha256"] == hashlib.sha256(data).hexdigest()
    assert tenant.packages == [{"name": "slugkit", "version": "1.0.0", "language": "python"}]
    assert [p["name"] for p in listed] == ["slugkit"] and shown["tenants"] == ["acme"]
    assert held.value.status == 409 and after == []
