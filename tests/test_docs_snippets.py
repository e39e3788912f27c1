"""Every snippet in docs/ is run or checked as a reader would use it, against a real
``quiver serve``: shell snippets run in bash (curl failing on any HTTP error), tool files and
tool bodies are validated by the server, bot bodies are saved, page scripts import only what
``quiver-agent.js`` exports and parse as modules. A fenced block without a language (or
``text``) is output, not a snippet. A new snippet with no check fails here until it gets one."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.test_cli import _free_port, _wait_for_ready

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ADMIN = "qk_docs_admin_" + "d" * 32
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
OUTPUT = {"", "text"}


@dataclass(frozen=True)
class Snippet:
    path: Path
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def snippets() -> list[Snippet]:
    found = []
    for path in sorted(DOCS.glob("*.md")):
        source = path.read_text()
        for match in FENCE.finditer(source):
            if match.group(1) in OUTPUT:
                continue
            line = source.count("\n", 0, match.start()) + 1
            found.append(Snippet(path, line, match.group(1), match.group(2)))
    return found


@dataclass
class Node:
    base: str
    dev: str
    agent: str


@pytest.fixture(scope="module")
def node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    folder = tmp_path_factory.mktemp("docs")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env.update(QUIVER_DATA_DIR=str(folder / "data"), QUIVER_ADMIN_KEY=ADMIN, QUIVER_WORKERS="1",
               QUIVER_LOG_LEVEL="warning", QUIVER_REQUIRE_ISOLATION="false")  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for_ready(base)
        admin = {"Authorization": f"Bearer {ADMIN}"}
        httpx.post(f"{base}/v1/tenants", json={"id": "docs"}, headers=admin).raise_for_status()
        keys = {
            role: httpx.post(
                f"{base}/v1/tenants/docs/keys", json={"role": role}, headers=admin
            ).json()["key"]  # fmt: skip
            for role in ("developer", "agent")
        }
        yield Node(base, keys["developer"], keys["agent"])
    finally:
        server.terminate()
        server.wait(timeout=20)


def _dev(node: Node) -> httpx.Client:
    return httpx.Client(base_url=node.base, headers={"Authorization": f"Bearer {node.dev}"})


def _valid(node: Node, body: dict, where: str) -> None:
    answer = _dev(node).post("/v1/tools/validate", json=body, timeout=60)
    assert answer.status_code == 200, (where, answer.text)
    assert answer.json().get("valid") is True, (where, answer.json())


# the checks, one per kind of snippet ------------------------------------------------------------


def check_shell(snippet: Snippet, node: Node, compiled: dict) -> None:
    """Run in bash as written: $Q, $DEV, $AGENT and $JSON set as the docs say; curl fails on an
    HTTP error; `docker` (no engine here) must be asked for the shipped Compose file, with every
    variable that file requires exported before."""
    prelude = f"""
set -euo pipefail
export PATH="{Path(sys.executable).parent}:$PATH"
export Q={node.base} DEV={node.dev} AGENT={node.agent} ADMIN={ADMIN} JSON="content-type: application/json"
curl() {{ command curl -sS --fail-with-body "$@"; echo; }}
docker() {{
    [ "$*" = "compose -f deploy/compose.yaml up -d" ] || {{ echo "docker $*: not the documented command" >&2; return 1; }}
    for required in $(grep -o '${{[A-Z_]*:?' deploy/compose.yaml | tr -d '${{:?' | sort -u); do
        [ -n "${{!required:-}}" ] || {{ echo "compose needs $required" >&2; return 1; }}
    done
    {sys.executable} -c 'from server.secretbox import SecretBox; import os; SecretBox.from_config(os.environ["QUIVER_SECRET_KEY"])'
}}
"""  # fmt: skip
    done = subprocess.run(["bash", "-c", prelude + snippet.text], cwd=ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, (snippet.where, done.stdout[-2000:], done.stderr[-2000:])


def check_python_tool(snippet: Snippet, node: Node, compiled: dict) -> None:
    _valid(node, {"kind": "python", "source": snippet.text}, snippet.where)


def check_javascript(snippet: Snippet, node: Node, compiled: dict) -> None:
    if "module.exports" in snippet.text:  # a tool file
        _valid(node, {"kind": "javascript", "source": snippet.text}, snippet.where)
        return
    # a page script: it imports only what quiver-agent.js exports, and parses as a module
    exported = set(re.findall(r"^export (?:const|function|class) (\w+)", (ROOT / "server" / "static" / "quiver-agent.js").read_text(), re.M))  # fmt: skip
    exported |= {"QuiverError", "default"}
    for names in re.findall(r"import \{([^}]*)\}\s*from", snippet.text):
        imported = {n.strip() for n in names.split(",") if n.strip()}
        assert imported <= exported, (snippet.where, imported - exported)
    node_js = shutil.which("node")
    if node_js is None:
        pytest.fail("node is needed to parse the page scripts (.ci/run installs it)")
    body = re.sub(
        r'from\s+"https://[^"]+/quiver-agent\.js"', 'from "./quiver-agent.js"', snippet.text
    )
    done = subprocess.run([node_js, "--input-type=module", "--check"], input=body, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, (snippet.where, done.stderr)


def check_json(snippet: Snippet, node: Node, compiled: dict) -> None:
    text = snippet.text
    if "<base64 of the .wasm>" in text:
        text = text.replace(
            "<base64 of the .wasm>", base64.b64encode(compiled["word_count"]).decode()
        )
    if "<the same tool file as for RestrictedPython>" in text:
        tool_file = next(s for s in snippets() if s.lang == "python" and s.path.name == "tools.md")
        text = text.replace(
            '"<the same tool file as for RestrictedPython>"', json.dumps(tool_file.text)
        )
    body = json.loads(text)
    if "url" in body and "tools" in body:  # a federated MCP server's declaration
        from server.registry.definitions import DefinitionLimits
        from server.registry.federation import check_server

        check_server("crm", body, DefinitionLimits())  # as the route checks it (422 if not)
        return
    if "kind" in body:  # a tool body
        _valid(node, body, snippet.where)
        return
    # a bot body: saved as written (what it names exists first, as the docs say it must)
    dev = _dev(node)
    for name in _named_data_sets(body):
        dev.put(f"/v1/datasets/{name}?kind=faq", content=b'{"id": "a", "question": "q?", "answer": "a"}\n', headers={"Content-Type": "application/x-ndjson"}).raise_for_status()  # fmt: skip
    saved = dev.put(f"/v1/bots/{body['name']}", json=body)
    assert saved.status_code in (200, 201), (snippet.where, saved.text)


def _named_data_sets(body: dict) -> set[str]:
    return {s["dataset"] for s in (body.get("skills") or {}).values() if isinstance(s, dict) and "dataset" in s}  # fmt: skip


CHECKS = {
    "sh": check_shell,
    "bash": check_shell,
    "python": check_python_tool,
    "js": check_javascript,
    "json": check_json,
}
ALL = snippets()


def test_the_docs_have_snippets_and_each_kind_has_a_check() -> None:
    assert len(ALL) >= 9
    assert {s.lang for s in ALL} <= CHECKS.keys(), {s.where: s.lang for s in ALL if s.lang not in CHECKS}  # fmt: skip


@pytest.mark.parametrize("snippet", ALL, ids=[s.where for s in ALL])
def test_the_snippet_works_as_written(
    snippet: Snippet, node: Node, request: pytest.FixtureRequest
) -> None:
    # the WASM modules are built only where a snippet needs one (the fixture compiles C files)
    modules = request.getfixturevalue("compiled") if "<base64 of the .wasm>" in snippet.text else {}
    CHECKS[snippet.lang](snippet, node, modules)
