/* quiver.h — host calls for Quiver tools compiled to WASI (wasm32-wasi), e.g. with
 *     clang --target=wasm32-wasi -O2 -I<this folder> -o tool.wasm tool.c
 *
 * A tool reads one JSON request from stdin, {"params": {...}, "context": {...}} (context holds
 * session_id, tenant_id, bot_id, test_mode and the session's variables), and writes one JSON
 * value to stdout: its result. {"success": false, "message": "..."} reports a failure the model
 * can read. Whatever goes to stderr is kept for the developer's test runs, never shown to the
 * model.
 *
 * Host calls exchange JSON too: quiver_host() sends {"module", "method", "args"} and receives
 * {"ok": true, "value": ...} or {"ok": false, "error": "..."}. The same policy and bounds as
 * Python tools apply (at most 20 host calls per call, 1 MiB per request):
 *
 *   {"module": "http", "method": "GET", "args": {"url": "https://…", "headers": {…}}}
 *       → {"ok": true, "value": {"status": 200, "headers": {…}, "json": …, "text": "…"}}
 *       only hosts the egress allowlist admits; methods GET POST PUT PATCH DELETE
 *       ("json": {…} or "data": "…" in args for a body)
 *   {"module": "logger", "method": "info", "args": {"message": "…"}}     (debug info warning error)
 *   {"module": "context", "method": "update", "args": {"name": value, …}}
 *       session variables, written when the call succeeds
 */
#ifndef QUIVER_H
#define QUIVER_H

#include <string.h>

__attribute__((import_module("quiver"), import_name("call")))
int quiver_call(const char *request, int length);

__attribute__((import_module("quiver"), import_name("read")))
int quiver_read(char *reply, int capacity);

/* Send a JSON request; the JSON reply is copied into `reply` (NUL-terminated).
 * Returns the reply's length, or -1 when it does not fit in `capacity` - 1 bytes. */
static inline int quiver_host(const char *request, char *reply, int capacity) {
    int length = quiver_call(request, (int)strlen(request));
    if (length < 0 || length >= capacity) return -1;
    if (quiver_read(reply, capacity - 1) != length) return -1;
    reply[length] = '\0';
    return length;
}

#endif
