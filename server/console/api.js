// The API as the console uses it: the key lives in session storage (never in a URL), every
// request carries it as a bearer token, errors arrive as problem+json and become ApiError.
const KEY = "quiver.key";
const TENANT = "quiver.tenant";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export const auth = {
  get key() { return sessionStorage.getItem(KEY); },
  set key(value) { value ? sessionStorage.setItem(KEY, value) : sessionStorage.removeItem(KEY); },
  // the tenant an admin acts for (tenant keys act for their own)
  get tenant() { return sessionStorage.getItem(TENANT) || ""; },
  set tenant(value) { value ? sessionStorage.setItem(TENANT, value) : sessionStorage.removeItem(TENANT); },
  who: null,
  onExpired: () => {},
};

function url(path, params = {}, scoped = true) {
  const u = new URL(path, location.origin);
  if (scoped && auth.who?.role === "admin" && auth.tenant && !("tenant" in params)) u.searchParams.set("tenant", auth.tenant);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.searchParams.set(k, v);
  return u;
}

export async function request(method, path, { params, body, headers = {}, scoped = true, raw = false } = {}) {
  const init = { method, headers: { Authorization: `Bearer ${auth.key}`, ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url(path, params, scoped), init);
  if (response.status === 401) {
    // revoked or expired mid-session: ask to sign in again (at sign-in, the form says why)
    if (auth.who) auth.onExpired();
    throw new ApiError(401, await problem(response));
  }
  if (raw) return response;
  if (!response.ok) throw new ApiError(response.status, await problem(response));
  if (response.status === 204) return null;
  const data = await response.json();
  const etag = response.headers.get("ETag");
  if (etag && data && typeof data === "object") Object.defineProperty(data, "etag", { value: etag });
  return data;
}

async function problem(response) {
  try { return await response.json(); } catch { return { title: response.statusText }; }
}

export const get = (path, params, opts = {}) => request("GET", path, { params, ...opts });
export const post = (path, body, opts = {}) => request("POST", path, { body, ...opts });
export const put = (path, body, opts = {}) => request("PUT", path, { body, ...opts });
export const patch = (path, body, opts = {}) => request("PATCH", path, { body, ...opts });
export const del = (path, opts = {}) => request("DELETE", path, opts);

// A file sent as the body of a PUT, with its progress (fetch cannot report an upload's):
// onProgress(sent, total) as it goes; the answer's JSON, or an ApiError.
export function upload(path, params, file, contentType, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url(path, params).toString());
    xhr.setRequestHeader("Authorization", `Bearer ${auth.key}`);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onerror = () => reject(new Error("the upload did not reach the server"));
    xhr.onload = () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText || "{}"); } catch (_) { body = {}; }
      if (xhr.status === 401 && auth.who) auth.onExpired();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body); else reject(new ApiError(xhr.status, body));
    };
    xhr.send(file);
  });
}

// Server-sent events over fetch (EventSource cannot send an Authorization header).
// Server-sent events until `signal` aborts: a dropped stream (the network, a node restarting)
// is opened again after the server's `retry` delay with Last-Event-ID, so nothing sent between
// is missed; a refusal (4xx) ends it. onOpen(true) each time it (re)connects, onDrop() when
// it dropped and is about to try again.
export async function stream(path, params, onEvent, signal, onOpen = () => {}, onDrop = () => {}) {
  let lastId = null, retry = 1000;
  while (!signal.aborted) {
    let response;
    try {
      const headers = { Accept: "text/event-stream", ...(lastId !== null ? { "Last-Event-ID": lastId } : {}) };
      response = await request("GET", path, { params, raw: true, headers });
    } catch (error) {
      if (error instanceof ApiError || signal.aborted) throw error;
      response = null;  // unreachable: try again
    }
    if (response && !response.ok) {
      if (response.status < 500) throw new ApiError(response.status, await problem(response));
      response = null;
    }
    if (response) {
      onOpen();
      try {
        await readEvents(response, signal, onEvent, (id) => { lastId = id; }, (ms) => { retry = ms; });
      } catch (error) {
        if (signal.aborted) return;
      }
    }
    if (signal.aborted) return;
    onDrop();
    await new Promise((resolve) => { const t = setTimeout(resolve, retry); signal.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true }); });
  }
}

async function readEvents(response, signal, onEvent, onId, onRetry) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = "message", data = "", id = null;
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
          else if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("retry:")) onRetry(Math.max(250, Number(line.slice(6)) || 1000));
        }
        if (id !== null) onId(id);
        if (data) onEvent(event, JSON.parse(data));
      }
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}
