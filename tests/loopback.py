"""Real loopback HTTP servers for egress and webhook tests."""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Recorder(BaseHTTPRequestHandler):
    """Answers by path; records every request it sees on the server object."""

    protocol_version = "HTTP/1.1"

    def _reply(
        self,
        status: int,
        body: bytes,
        content_type: str = "application/json",
        headers: dict | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = urlsplit(self.path)
        seen = {
            "method": self.command, "path": parts.path, "raw_path": self.path,
            "query": {k: v[0] for k, v in parse_qs(parts.query).items()},
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": json.loads(body) if body else None,
        }  # fmt: skip
        self.server.seen.append(seen)  # type: ignore[attr-defined]
        path = parts.path
        if path.startswith("/sleep/"):
            time.sleep(int(path.rsplit("/", 1)[1]) / 1000)
            self._reply(200, b"{}")
        elif path.startswith("/slow"):
            time.sleep(3)
            self._reply(200, b"{}")
        elif path.startswith("/status/"):
            self._reply(int(path.rsplit("/", 1)[1]), b'{"error": "no"}')
        elif path.startswith("/badjson"):
            self._reply(200, b"<html>not json</html>", "text/html")
        elif path.startswith("/big"):
            self._reply(200, b'{"x": "' + b"y" * (20 * 1024 * 1024) + b'"}')
        elif path.startswith("/redirect/"):
            n = int(path.rsplit("/", 1)[1])
            self._reply(
                302, b"", headers={"Location": f"/redirect/{n - 1}" if n > 1 else "/echo/done"}
            )
        elif path.startswith("/hold"):  # answers when the test releases it (bounded)
            self.server.held.set()  # type: ignore[attr-defined]
            self.server.release.wait(30)  # type: ignore[attr-defined]
            self._reply(200, b'{"held": true}')
        elif path.startswith("/job/start/"):  # a job API: 202 and where to ask for its state
            name, given = path.rsplit("/", 1)[1], parse_qs(parts.query)
            query = f"?{parts.query}" if parts.query else ""
            where = given["to"][0] if "to" in given else f"/job/status/{name}{query}"
            self._reply(202, b'{"accepted": true}', headers={"Location": where})
        elif path.startswith("/job/status/"):  # running for ?polls= asks, then its result
            name, query = path.rsplit("/", 1)[1], parse_qs(parts.query)
            polls, fails = int(query.get("polls", ["1"])[0]), "fail" in query
            counts = self.server.job_asks  # type: ignore[attr-defined]
            counts[name] = asked = counts.get(name, 0) + 1
            if asked <= polls:
                state = {"status": "running", "progress": asked / (polls + 1), "message": f"step {asked}"}  # fmt: skip
            elif fails:
                state = {"status": "failed", "error": {"message": "the upstream job broke"}}
            else:
                state = {"status": "succeeded", "result": {"job": name, "asked": asked}}
            self._reply(200, json.dumps(state).encode())
        elif path.startswith("/loop"):
            self._reply(302, b"", headers={"Location": "/loop"})
        elif path.startswith("/to/"):
            self._reply(302, b"", headers={"Location": "http://" + path[len("/to/") :]})
        else:
            self._reply(200, json.dumps({"ok": True, "seen": seen}).encode())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle  # noqa: N815 - http.server naming

    def log_message(self, *args) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A client that left before its answer (a timeout test's caller) is no error here."""
        if not isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            super().handle_error(request, client_address)


class LoopbackServer:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.httpd = QuietServer((host, 0), Recorder)
        self.httpd.daemon_threads = True
        self.httpd.seen = []  # type: ignore[attr-defined]
        # /hold: ``held`` is set when a request arrives; it is answered once ``release`` is set
        self.httpd.held = threading.Event()  # type: ignore[attr-defined]
        self.httpd.release = threading.Event()  # type: ignore[attr-defined]
        self.httpd.job_asks = {}  # type: ignore[attr-defined]  # /job/status/<name>: asks so far
        self.host = host
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def held(self) -> threading.Event:
        return self.httpd.held  # type: ignore[attr-defined]

    @property
    def release(self) -> threading.Event:
        return self.httpd.release  # type: ignore[attr-defined]

    @property
    def seen(self) -> list[dict]:
        return self.httpd.seen  # type: ignore[attr-defined]

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
