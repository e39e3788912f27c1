"""What ``require`` offers a JavaScript tool beyond axios and querystring (``bundled``): Node's
buffer, crypto, events, http, https, url and querystring, joi, uuid and crypto-js, and the Web's
crypto, TextEncoder and TextDecoder — in the runner, against Node itself where Node has them."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sandbox.wasm.javascript import build, bundled
from sandbox.wasm.javascript.host import JsRunner
from sandbox.wasm.runtime import WasmRuntime

PARITY = Path(__file__).parents[1] / "data" / "javascript" / "node_parity.js"
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def runner() -> JsRunner:
    return JsRunner(str(build.ensure()), WasmRuntime())


def run(
    runner: JsRunner, source: str, host: Any = None, key: str | None = None, **more: Any
) -> dict:
    request = {
        "tenant": "t", "hash": key or str(hash(source)), "memory_bytes": 64 << 20,
        "fuel": 20_000_000_000, "timeout": 20_000, "load_timeout": 10_000,
        "output_bytes": 4 << 20, "tool": "t", "params": {}, "context": {}, "source": source,
        **more,
    }  # fmt: skip
    return runner.call(request, host)


def tool(body: str, head: str = "") -> str:
    return f"{head}\nmodule.exports = {{name: 't', description: 'd', execute: async (params, context) => {{\n{body}\n}}}};"  # fmt: skip


def test_the_modules_agree_with_node(runner: JsRunner, tmp_path: Path) -> None:
    """One battery (hashes, HMAC, PBKDF2, Buffer's encodings, url's parse/format/resolve, WHATWG
    URL, querystring, TextEncoder/Decoder, joi's messages, uuid v3/v5, crypto-js's AES): Node
    with the same joi, uuid and crypto-js files answers exactly what the runner answers."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (.ci/run installs it)")
    for name in ("joi", "uuid", "crypto-js"):
        (tmp_path / f"{name}.js").symlink_to(bundled.FOLDER / f"{name}.js")
    script = f"require({json.dumps(str(PARITY))}).execute({{}}, {{}}).then((r) => console.log(JSON.stringify(r)))"  # fmt: skip
    done = subprocess.run(
        [node, "-e", script],
        env={**os.environ, "NODE_PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr

    ours = run(runner, PARITY.read_text(), tool="parity")

    assert ours["ok"], ours
    expected = json.loads(done.stdout)
    assert len(expected) > 30
    for key, value in expected.items():  # one key at a time: a difference names its part
        assert ours["value"][key] == value, key


def test_chacha20_is_rfc_8439s(runner: JsRunner) -> None:
    # RFC 8439 2.3.2: key 00..1f, nonce 000000090000004a00000000, block counter 1
    source = tool(
        "const key = new Uint32Array(8).map((_, i) => ((4*i+3) << 24 | (4*i+2) << 16 | (4*i+1) << 8 | 4*i) >>> 0);"
        "const block = __quiver.chacha20(key, 1, new Uint32Array([0x09000000, 0x4a000000, 0]));"
        "return {hex: Array.from(block, (b) => b.toString(16).padStart(2, '0')).join('')};"
    )  # fmt: skip
    reply = run(runner, source)

    assert reply["value"]["hex"] == (
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
    )


def test_randomness_is_fresh_in_every_call_and_every_instance(runner: JsRunner) -> None:
    source = tool(
        "const c = require('crypto'); const { v4 } = require('uuid');"
        "const words = crypto.getRandomValues(new Uint32Array(4));"
        "return {bytes: c.randomBytes(16).toString('hex'), uuid: v4(), web: crypto.randomUUID(),"
        " node: c.randomUUID(), words: Array.from(words), int: c.randomInt(10, 20),"
        " cryptoJs: require('crypto-js').lib.WordArray.random(8).toString()};"
    )
    replies = [run(runner, source, key="same") for _ in range(3)]  # one instance, reused
    replies += [run(runner, source, key=f"fresh-{i}") for i in range(2)]

    values = [r["value"] for r in replies]
    for field in ("bytes", "uuid", "web", "node", "cryptoJs"):
        assert len({v[field] for v in values}) == len(values), field
    assert all(UUID4.match(v[key]) for v in values for key in ("uuid", "web", "node"))
    assert all(10 <= v["int"] < 20 for v in values)
    assert len({tuple(v["words"]) for v in values}) == len(values)


def test_get_random_values_refuses_what_the_web_refuses(runner: JsRunner) -> None:
    source = tool(
        "const tryIt = (f) => { try { f(); return 'allowed'; } catch (e) { return e.name; } };"
        "return {floats: tryIt(() => crypto.getRandomValues(new Float64Array(2))),"
        " tooMany: tryIt(() => crypto.getRandomValues(new Uint8Array(65537))),"
        " most: tryIt(() => crypto.getRandomValues(new Uint8Array(65536))),"
        " big: tryIt(() => crypto.getRandomValues(new BigUint64Array(2)))};"
    )

    assert run(runner, source)["value"] == {
        "floats": "TypeError",
        "tooMany": "RangeError",
        "most": "allowed",
        "big": "allowed",
    }


def test_a_file_loads_only_the_modules_it_names(runner: JsRunner) -> None:
    plain = run(runner, tool(
        "let joi; try { joi = require('jo' + 'i'); } catch (e) { joi = e.message; }"
        "return {url: typeof globalThis['UR' + 'L'], buffer: typeof globalThis['Buf' + 'fer'], joi, unknown: (() => { try { require('fs'); } catch (e) { return e.message; } })()};"
    ))  # fmt: skip
    named = run(runner, tool("return {url: typeof URL, buffer: typeof Buffer, joi: typeof require('joi').object};"))  # fmt: skip

    assert plain["value"]["url"] == plain["value"]["buffer"] == "undefined"
    assert "write require('joi')" in plain["value"]["joi"]
    assert "'fs' is not available" in plain["value"]["unknown"]
    assert "joi" in plain["value"]["unknown"] and "crypto" in plain["value"]["unknown"]
    assert named["value"] == {"url": "function", "buffer": "function", "joi": "function"}


def test_which_files_a_source_needs() -> None:
    assert bundled.needed("module.exports = {}") == []
    assert bundled.needed("const x = require(\"node:crypto\")") == ["url-polyfill.js", "crypto-js.js", "node.js"]  # fmt: skip
    assert bundled.needed("require('uuid'); require(`joi`); new URL(u)") == ["url-polyfill.js", "node.js", "joi.js", "uuid.js"]  # fmt: skip
    assert bundled.needed("const Joi = require ( 'joi' ) ;") == ["url-polyfill.js", "node.js", "joi.js"]  # fmt: skip
    assert bundled.needed("const { URLSearchParams } = x; // URLs") == ["url-polyfill.js"]
    assert bundled.needed("require('left-pad')") == []


def test_text_decoder_agrees_with_python(runner: JsRunner) -> None:
    """The Encoding Standard's UTF-8 decoder and Python's replace the same maximal subparts."""
    chance = random.Random(8439)
    pieces = [b"\xc3\xa9", b"\xe6\x97\xa5", b"\xf0\x9f\x98\x80", b"\x80", b"\xc3", b"\xe0\x80", b"\xed\xa0\x80", b"\xf4\x90", b"\xff", b"a", b"\xef\xbb\xbf"]  # fmt: skip
    samples = [b"".join(chance.choice(pieces) for _ in range(chance.randint(1, 8))) for _ in range(300)]  # fmt: skip
    samples += [bytes(chance.randrange(256) for _ in range(12)) for _ in range(300)]
    source = tool("return {texts: params.samples.map((s) => new TextDecoder('utf-8', {ignoreBOM: true}).decode(new Uint8Array(s)))};")  # fmt: skip

    texts = run(runner, source, params={"samples": [list(s) for s in samples]})["value"]["texts"]

    assert texts == [s.decode("utf-8", "replace") for s in samples]


class Upstream:
    """The host's ``http`` module as the runner sees it: records what it was asked, answers."""

    def __init__(self, status: int = 200, fail: str | None = None) -> None:
        self.asked: list[tuple[str, dict]] = []
        self.status = status
        self.fail = fail

    def __call__(self, module: str, method: str, args: dict) -> dict:
        self.asked.append((method, args))
        if self.fail:
            raise RuntimeError(self.fail)
        body = json.dumps({"got": args.get("data")})
        return {"status": self.status, "headers": {"Content-Type": "application/json", "X-Id": "7"}, "text": body, "json": None}  # fmt: skip


def test_https_request_is_nodes_over_the_host(runner: JsRunner) -> None:
    upstream = Upstream(status=201)
    source = tool(
        "const https = require('https');"
        "return await new Promise((resolve, reject) => {"
        "  const req = https.request({hostname: 'crm.example.com', port: 8443, path: '/leads?src=bot', method: 'post',"
        "    auth: 'ann:s3cret', headers: {'Content-Type': 'application/json'}, timeout: 2500}, (res) => {"
        "    const chunks = []; res.on('data', (c) => chunks.push(c));"
        "    res.on('end', () => resolve({status: res.statusCode, message: res.statusMessage, type: res.headers['content-type'],"
        "      id: res.headers['x-id'], body: JSON.parse(Buffer.concat(chunks).toString()), complete: res.complete}));"
        "  });"
        "  req.on('error', reject); req.write('{\"name\":'); req.end('\"Ann\"}');"
        "});"
    )  # fmt: skip

    reply = run(runner, source, host=upstream)

    assert reply["value"] == {"status": 201, "message": "Created", "type": "application/json", "id": "7", "body": {"got": '{"name":"Ann"}'}, "complete": True}  # fmt: skip
    method, args = upstream.asked[0]
    assert method == "POST" and args["url"] == "https://crm.example.com:8443/leads?src=bot"
    assert args["headers"] == {"content-type": "application/json", "authorization": "Basic YW5uOnMzY3JldA=="}  # fmt: skip
    assert args["timeout"] == 2.5 and args["data"] == '{"name":"Ann"}'


def test_http_get_takes_a_url_and_reads_text(runner: JsRunner) -> None:
    upstream = Upstream()
    source = tool(
        "const http = require('http');"
        "return await new Promise((resolve) => http.get('http://api.example.com/w?q=' + encodeURIComponent('São Paulo'), (res) => {"
        "  res.setEncoding('utf8'); let text = ''; res.on('data', (c) => { text += c; }); res.on('end', () => resolve({text, kind: typeof text}));"
        "}));"
    )  # fmt: skip

    reply = run(runner, source, host=upstream)

    assert reply["value"] == {"text": '{"got": null}', "kind": "string"}
    assert upstream.asked == [("GET", {"url": "http://api.example.com/w?q=S%C3%A3o%20Paulo", "headers": {}})]  # fmt: skip


def test_a_refused_request_is_an_error_event_and_unheard_it_fails_the_call(
    runner: JsRunner,
) -> None:
    refused = Upstream(fail="egress denied: 10.0.0.1 is private")
    heard = tool(
        "const http = require('http');"
        "return await new Promise((resolve) => { const req = http.get('http://10.0.0.1/', () => resolve({answered: true}));"
        " req.on('error', (e) => resolve({error: e.message})); });"
    )  # fmt: skip
    unheard = tool(
        "require('http').get('http://10.0.0.1/', () => {}); return await new Promise(() => {});"
    )
    head = tool(
        "return await new Promise((resolve) => require('http').request({host: 'a.com', method: 'HEAD'})"
        ".on('error', (e) => resolve({error: e.message})).end());"
    )  # fmt: skip

    assert run(runner, heard, host=refused)["value"] == {"error": "egress denied: 10.0.0.1 is private"}  # fmt: skip
    failed = run(runner, unheard, host=refused)
    assert failed["ok"] is False and "egress denied" in failed["message"]
    assert "HEAD is not offered" in run(runner, head, host=refused)["value"]["error"]
    assert len(refused.asked) == 2  # HEAD never reached the host


def test_events_and_buffer_are_there_for_the_files_that_use_them(runner: JsRunner) -> None:
    source = tool(
        "const { EventEmitter } = require('events'); const e = new EventEmitter(); const seen = [];"
        "e.on('x', (v) => seen.push(v)); e.once('x', (v) => seen.push('once ' + v)); e.emit('x', 1); e.emit('x', 2);"
        "return {seen, count: e.listenerCount('x'), auth: 'Basic ' + Buffer.from('user:pass').toString('base64')};"
    )  # fmt: skip

    assert run(runner, source)["value"] == {"seen": [1, "once 1", 2], "count": 1, "auth": "Basic dXNlcjpwYXNz"}  # fmt: skip


def test_every_vendored_file_is_the_one_its_provenance_names() -> None:
    readme = (bundled.FOLDER / "README.md").read_text()
    listed = dict(re.findall(r"^\| `([\w.-]+\.js)` \|.*\| `([0-9a-f]{64})` \|$", readme, re.M))

    assert set(bundled.FILES) == set(listed) | {"node.js"}
    for file, digest in listed.items():
        assert hashlib.sha256((bundled.FOLDER / file).read_bytes()).hexdigest() == digest, file


def test_a_worker_keeps_the_modules_bytecode_and_answers_the_same_from_it() -> None:
    runner = JsRunner(str(build.ensure()), WasmRuntime())
    source = tool("return {m: require('joi').string().email().validate('a@b').error.message, u: new URL('/x', 'http://h').href};")  # fmt: skip

    first = run(runner, source, key="first")  # compiled from the files
    kept = dict(runner.compiled)
    second = run(runner, source, key="second")  # a fresh instance, from the bytecode

    assert set(kept) == {"url-polyfill.js", "node.js", "joi.js"}
    assert runner.compiled == kept  # nothing compiled again
    assert first["value"] == second["value"] == {"m": '"value" must be a valid email', "u": "http://h/x"}  # fmt: skip
