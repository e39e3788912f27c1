// The JavaScript tier's runtime, evaluated in every fresh QuickJS context before the tool file.
// It gives tool files LiteBot's shape (module.exports, an async execute(params, context),
// context.modules.http/logger/llm/knowledge_base, updateContext) and speaks to the host through
// data only: the host reads JSON strings from __quiver.poll() and answers host calls with
// __quiver.answer(json). Nothing the host trusts comes from here: it checks every size and shape.
"use strict";
(function () {
  const KEYS = ["name", "description", "parameters", "execute", "metadata", "onError"];
  const MAX_LOG_LINES = 200;
  const MAX_LOG_CHARS = 2000;
  const state = { tool: null, declared: [], run: null, calls: [], waiting: new Map(), next: 1 };

  // Randomness: ChaCha20 (RFC 8439) keyed with 32 bytes the host draws from its own CSPRNG for
  // every load and every call; the key is replaced after each draw (fast key erasure), so what
  // was handed out cannot be recomputed from what is left. Math.random stays QuickJS's own.
  const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];
  function chacha20(key, counter, nonce) {
    const s = new Uint32Array(16);
    s.set(SIGMA, 0); s.set(key, 4); s[12] = counter; s.set(nonce, 13);
    const x = Uint32Array.from(s);
    const quarter = (a, b, c, d) => {
      x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 16) | (x[d] >>> 16);
      x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 12) | (x[b] >>> 20);
      x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 8) | (x[d] >>> 24);
      x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 7) | (x[b] >>> 25);
    };
    for (let round = 0; round < 10; round++) {
      quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14);
    }
    const out = new Uint8Array(64);
    for (let i = 0; i < 16; i++) {
      const word = (x[i] + s[i]) >>> 0;
      out[4 * i] = word; out[4 * i + 1] = word >>> 8; out[4 * i + 2] = word >>> 16; out[4 * i + 3] = word >>> 24;
    }
    return out;
  }
  const NONCE = new Uint32Array(3);
  const entropy = { key: null };
  function reseed(hex) {
    if (typeof hex !== "string" || !/^[0-9a-f]{64}$/.test(hex)) return;
    const key = new Uint32Array(8);
    for (let i = 0; i < 8; i++) key[i] = parseInt(hex.slice(8 * i, 8 * i + 8).match(/../g).reverse().join(""), 16);
    entropy.key = key;
  }
  function randomFill(bytes) {
    if (entropy.key === null) throw new Error("no randomness before the tool is loaded");
    let counter = 1;
    for (let at = 0; at < bytes.length; at += 64) bytes.set(chacha20(entropy.key, counter++, NONCE).subarray(0, bytes.length - at), at);
    const next = chacha20(entropy.key, 0, NONCE);
    entropy.key = new Uint32Array(next.buffer, 0, 8).slice();
    return bytes;
  }
  const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  function getRandomValues(array) {
    if (!INTEGER_ARRAYS.some((kind) => array instanceof kind)) throw new TypeError("getRandomValues takes an integer typed array");
    if (array.byteLength > 65536) throw new RangeError(`getRandomValues takes at most 65536 bytes (${array.byteLength} asked)`);
    randomFill(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return array;
  }
  function randomUUID() {
    const b = randomFill(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // UTF-8 as the Encoding Standard defines it (TextEncoder / TextDecoder, utf-8 only)
  function utf8Encode(text) {
    const out = [];
    for (const ch of String(text)) {
      let c = ch.codePointAt(0);
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  }
  function utf8Decode(bytes, fatal) {
    const points = [];
    let point = 0, needed = 0, seen = 0, lower = 0x80, upper = 0xbf;
    const bad = () => { if (fatal) throw new TypeError("the encoded data was not valid utf-8"); points.push(0xfffd); };
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (needed === 0) {
        if (b <= 0x7f) points.push(b);
        else if (b >= 0xc2 && b <= 0xdf) { needed = 1; point = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) { if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; needed = 2; point = b & 0xf; }
        else if (b >= 0xf0 && b <= 0xf4) { if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; needed = 3; point = b & 0x7; }
        else bad();
        continue;
      }
      if (b < lower || b > upper) {
        point = needed = seen = 0; lower = 0x80; upper = 0xbf;
        bad(); i--; continue; // the byte starts afresh
      }
      lower = 0x80; upper = 0xbf; point = (point << 6) | (b & 0x3f);
      if (++seen === needed) { points.push(point); point = needed = seen = 0; }
    }
    if (needed) bad();
    let text = "";
    for (let at = 0; at < points.length; at += 4096) text += String.fromCodePoint(...points.slice(at, at + 4096));
    return text;
  }
  function asBytes(input) {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("expected an ArrayBuffer or a view of one");
  }
  const UTF8_LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(text = "") { return utf8Encode(text); }
    encodeInto(text, target) {
      let read = 0, written = 0;
      for (const ch of String(text)) {
        const bytes = utf8Encode(ch);
        if (written + bytes.length > target.length) break;
        target.set(bytes, written); written += bytes.length; read += ch.length;
      }
      return { read, written };
    }
  }
  class TextDecoder {
    #fatal; #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      if (!UTF8_LABELS.includes(String(label).trim().toLowerCase())) throw new RangeError(`the encoding '${label}' is not supported here (utf-8 only)`);
      this.#fatal = Boolean(options && options.fatal); this.#ignoreBOM = Boolean(options && options.ignoreBOM);
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      if (options && options.stream) throw new TypeError("streaming decode is not supported here");
      const text = utf8Decode(asBytes(input), this.#fatal);
      return !this.#ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
  }
  const web = {
    crypto: Object.freeze({ getRandomValues, randomUUID }),
    TextEncoder, TextDecoder,
  };
  for (const [name, value] of Object.entries(web)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }

  function fail(message, line) {
    const error = new Error(message);
    if (line !== undefined) error.lineNumber = line;
    return error;
  }

  function lineOf(error) {
    const match = /tool\.js:(\d+)/.exec(String(error && error.stack || ""));
    return match ? Number(match[1]) : undefined;
  }

  function describe(error) {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    try { return `Error: ${typeof error === "string" ? error : JSON.stringify(error)}`; }
    catch (_) { return "Error: (unprintable value thrown)"; }
  }

  function hostCall(module, method, args) {
    const id = state.next++;
    return new Promise((resolve, reject) => {
      state.waiting.set(id, { resolve, reject });
      state.calls.push({ id, module, method, args });
    });
  }

  // axios-like HTTP over the host's egress guard: {status, statusText, headers, data}; a
  // status outside 2xx rejects with error.response, as axios does by default.
  function request(config) {
    if (typeof config !== "object" || config === null) throw new TypeError("request(config): an object");
    const method = String(config.method || "get").toUpperCase();
    const args = { url: String(config.url || "") };
    if (config.headers) args.headers = config.headers;
    if (config.params) args.params = config.params;
    if (config.timeout) args.timeout = Number(config.timeout) / 1000;
    if (config.data !== undefined) {
      if (typeof config.data === "string") args.data = config.data; else args.json = config.data;
    }
    return hostCall("http", method, args).then((reply) => {
      const response = {
        status: reply.status, statusText: String(reply.status), headers: reply.headers || {},
        data: reply.json !== null && reply.json !== undefined ? reply.json : reply.text, config,
      };
      if (reply.status < 200 || reply.status >= 300) {
        const error = new Error(`Request failed with status code ${reply.status}`);
        error.response = response;
        error.isAxiosError = true;
        throw error;
      }
      return response;
    });
  }
  const withBody = (method) => (url, data, config) => request({ ...(config || {}), method, url, data });
  const withoutBody = (method) => (url, config) => request({ ...(config || {}), method, url });
  function makeAxios() {
    const axios = (config, more) => typeof config === "string" ? request({ ...(more || {}), url: config }) : request(config);
    Object.assign(axios, {
      request, get: withoutBody("get"), delete: withoutBody("delete"),
      post: withBody("post"), put: withBody("put"), patch: withBody("patch"),
    });
    axios.create = () => makeAxios();
    return Object.freeze(axios);
  }

  // Node's querystring: repeated keys are arrays, '+' is a space, a bad escape is kept as it is
  function primitive(value) {
    if (typeof value === "string") return value;
    if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
    if (typeof value === "bigint" || typeof value === "boolean") return String(value);
    return "";
  }
  function unescape(text) {
    try { return decodeURIComponent(text); }
    catch (_) {
      const bytes = [];
      for (let i = 0; i < text.length; i++) {
        const pair = text.slice(i + 1, i + 3);
        if (text[i] === "%" && /^[0-9a-fA-F]{2}$/.test(pair)) { bytes.push(parseInt(pair, 16)); i += 2; }
        else { const ch = text.codePointAt(i); if (ch > 0xffff) i++; bytes.push(...utf8Encode(String.fromCodePoint(ch))); }
      }
      return utf8Decode(bytes, false);
    }
  }
  const qs = {
    escape: (text) => encodeURIComponent(String(text)),
    unescape,
    stringify(object, sep = "&", eq = "=") {
      if (typeof object !== "object" || object === null) return "";
      return Object.keys(object).flatMap((k) => {
        const key = encodeURIComponent(primitive(k)) + eq;
        const value = object[k];
        return Array.isArray(value) ? value.map((v) => key + encodeURIComponent(primitive(v))) : [key + encodeURIComponent(primitive(value))];
      }).join(sep);
    },
    parse(text, sep = "&", eq = "=", options) {
      const out = Object.create(null);
      const maxKeys = options && typeof options.maxKeys === "number" ? options.maxKeys : 1000;
      let parts = typeof text === "string" && text.length ? text.split(sep) : [];
      if (maxKeys > 0) parts = parts.slice(0, maxKeys);
      for (const part of parts) {
        const at = part.indexOf(eq);
        const key = unescape((at >= 0 ? part.slice(0, at) : part).replace(/\+/g, " "));
        const value = at >= 0 ? unescape(part.slice(at + eq.length).replace(/\+/g, " ")) : "";
        if (!key && !value && at < 0) continue;
        if (!(key in out)) out[key] = value;
        else if (Array.isArray(out[key])) out[key].push(value);
        else out[key] = [out[key], value];
      }
      return out;
    },
  };
  const querystring = Object.freeze(Object.assign(qs, { encode: qs.stringify, decode: qs.parse }));
  // require(): a reviewed table, nothing else (there is no file system and no module loader).
  // The bundled modules (modules/) are evaluated with a file that names them, before it runs.
  const MODULES = { axios: makeAxios(), querystring };
  const BUNDLED = ["buffer", "crypto", "crypto-js", "events", "http", "https", "joi", "url", "uuid"];
  function require(name) {
    const bare = String(name).replace(/^node:/, "");
    if (Object.prototype.hasOwnProperty.call(MODULES, bare)) return MODULES[bare];
    if (BUNDLED.includes(bare)) throw fail(`module '${bare}' is loaded only with a file that names it: write require('${bare}') with its name as a plain string`);
    throw fail(`module '${name}' is not available (allowed: ${Object.keys(MODULES).concat(BUNDLED.filter((m) => !(m in MODULES))).sort().join(", ")})`);
  }
  function provide(name, value) { MODULES[name] = value; }
  function loaded(name) { return MODULES[name]; }
  // an error nobody listens for ends the call, as an uncaught exception ends a Node process
  function failRun(error) { const run = state.run; if (run && !run.settled) { run.settled = true; run.error = error; } }
  const bundling = Object.freeze({ provide, loaded, failRun, hostCall, querystring, asBytes, utf8Encode, utf8Decode, randomFill });

  function searchDocuments(query, options) {
    return hostCall("knowledge_base", "search", { query, collection: (options || {}).collection || null, limit: (options || {}).limit || 5 });
  }

  function makeContext(data, run) {
    const variables = Object.assign({}, data.variables || {});
    const log = (level) => (...parts) => {
      if (run.logs.length >= MAX_LOG_LINES) return;
      const text = parts.map((p) => typeof p === "string" ? p : (() => { try { return JSON.stringify(p); } catch (_) { return String(p); } })()).join(" ");
      run.logs.push(`${level}: ${text.slice(0, MAX_LOG_CHARS)}`);
    };
    const logger = Object.freeze({ debug: log("debug"), info: log("info"), warn: log("warning"), warning: log("warning"), error: log("error"), log: log("info") });
    function updateContext(values) {
      if (typeof values !== "object" || values === null || Array.isArray(values)) throw new TypeError("updateContext takes an object");
      const copy = JSON.parse(JSON.stringify(values));
      Object.assign(run.updates, copy);
      Object.assign(variables, copy);
    }
    const http = makeAxios();
    const modules = Object.freeze({
      http, axios: http, logger,
      llm: Object.freeze({
        chat: (messages, options) => hostCall("llm", "chat", { messages, model: (options || {}).model || null, max_tokens: (options || {}).maxTokens || (options || {}).max_tokens || 256 }),
      }),
      // search, and LiteBot's name for it: searchDocuments(query, {collection, limit})
      knowledge_base: Object.freeze({
        search: searchDocuments, searchDocuments,
      }),
    });
    const context = {
      sessionId: data.session_id || null, session_id: data.session_id || null,
      tenantId: data.tenant_id || null, tenant_id: data.tenant_id || null,
      botId: data.bot_id || null, bot_id: data.bot_id || null,
      testMode: Boolean(data.test_mode), test_mode: Boolean(data.test_mode),
      variables, secrets: Object.freeze(Object.assign({}, data.secrets || {})),
      updateContext, update_context: updateContext,
      emit: (partial) => hostCall("context", "emit", { partial }),
      // a job's progress: a fraction from 0 to 1 and what it is doing (a plain call ignores it)
      jobId: data.job_id || null, job_id: data.job_id || null,
      progress: (progress, message) => hostCall("context", "progress", { progress: progress ?? null, message: message ?? null }),
      // a code-mode program's session tools (run_code names them; other tools get none)
      tools: Object.freeze(Object.fromEntries((data.tools || []).map((name) => [String(name), (args) => hostCall("tools", String(name), args || {})]))),
      modules: Object.assign({}, modules, { knowledgeBase: modules.knowledge_base }),
      logger,
    };
    if ("transcript" in data) {
      Object.assign(context, {
        transcript: data.transcript, messageCount: data.message_count, message_count: data.message_count,
        sessionEndReason: data.session_end_reason, session_end_reason: data.session_end_reason,
        hookRunId: data.hook_run_id, hook_run_id: data.hook_run_id,
      });
    }
    return context;
  }

  function checkDeclaration(entry, index, list = "module.exports") {
    const where = index === undefined ? "module.exports" : `${list}[${index}]`;
    if (typeof entry !== "object" || entry === null) return [{ message: `${where} must be an object with ${KEYS.join(", ")}`, field: where }];
    const problems = [];
    for (const key of Object.keys(entry)) {
      if (!KEYS.includes(key)) problems.push({ message: `unknown key '${key}' (allowed: ${KEYS.join(", ")})`, field: `${where}.${key}` });
    }
    if (typeof entry.execute !== "function") problems.push({ message: "must be a function", field: `${where}.execute` });
    if (entry.onError !== undefined && typeof entry.onError !== "function") problems.push({ message: "must be a function", field: `${where}.onError` });
    return problems;
  }

  const quiver = {
    // the tool file, as a CommonJS module: its declarations (or what is wrong with them)
    define(factory, entropyHex) {
      reseed(entropyHex);
      const module = { exports: {} };
      try {
        factory(module, module.exports, require);
      } catch (error) {
        return JSON.stringify({ ok: false, violations: [{ message: describe(error), line: lineOf(error), field: "source" }] });
      }
      const exported = module.exports;
      // one tool, an array of tools, or LiteBot's {tools: [...]}
      const grouped = typeof exported === "object" && exported !== null && !Array.isArray(exported)
        && Array.isArray(exported.tools) && exported.execute === undefined;
      const entries = Array.isArray(exported) ? exported : grouped ? exported.tools : [exported];
      const problems = Array.isArray(exported) ? entries.flatMap((e, i) => checkDeclaration(e, i))
        : grouped ? entries.flatMap((e, i) => checkDeclaration(e, i, "module.exports.tools"))
        : checkDeclaration(exported);
      if (problems.length) return JSON.stringify({ ok: false, violations: problems });
      state.declared = entries;
      const tools = entries.map((e) => ({
        name: e.name, description: e.description, parameters: e.parameters === undefined ? {} : e.parameters,
        metadata: e.metadata === undefined ? {} : e.metadata, on_error: typeof e.onError === "function",
      }));
      try { return JSON.stringify({ ok: true, tools }); }
      catch (error) { return JSON.stringify({ ok: false, violations: [{ message: `the declaration is not JSON data: ${describe(error)}`, field: "module.exports" }] }); }
    },

    // a call: execute(params, context), or onError(error, params, context)
    start(requestText) {
      const request = JSON.parse(requestText);
      reseed(request.entropy);
      const tool = state.declared.find((t) => t.name === request.tool);
      const run = { logs: [], updates: {}, settled: false, ok: false, value: undefined, error: undefined };
      state.run = run;
      state.calls = [];
      state.waiting = new Map();
      if (!tool) { run.settled = true; run.error = fail(`no tool '${request.tool}' in this file`); return "started"; }
      const context = makeContext(request.context || {}, run);
      let outcome;
      try {
        outcome = request.entry === "onError"
          ? tool.onError(Object.assign(new Error(String((request.error || {}).message || "")), { code: (request.error || {}).code }), request.params, context)
          : tool.execute(request.params, context);
      } catch (error) {
        run.settled = true; run.error = error; return "started";
      }
      Promise.resolve(outcome).then(
        (value) => { run.settled = true; run.ok = true; run.value = value; },
        (error) => { run.settled = true; run.error = error; },
      );
      return "started";
    },

    poll() {
      const run = state.run;
      if (run === null) return JSON.stringify({ state: "failed", message: "no call in progress" });
      if (run.settled) {
        state.run = null;
        if (!run.ok) return JSON.stringify({ state: "failed", message: describe(run.error), line: lineOf(run.error), logs: run.logs, updates: run.updates });
        let text;
        try { text = JSON.stringify(run.value === undefined ? null : run.value); }
        catch (error) { return JSON.stringify({ state: "failed", code: "malformed_output", message: `the result is not JSON data: ${describe(error)}`, logs: run.logs, updates: run.updates }); }
        return `{"state":"done","logs":${JSON.stringify(run.logs)},"updates":${JSON.stringify(run.updates)},"value":${text}}`;
      }
      if (state.calls.length) {
        const calls = state.calls;
        state.calls = [];
        try { return JSON.stringify({ state: "host", calls }); }
        catch (error) {
          for (const c of calls) state.waiting.get(c.id).reject(fail(`host call arguments are not JSON data: ${describe(error)}`));
          return JSON.stringify({ state: "pending" });
        }
      }
      return JSON.stringify({ state: "pending" });
    },

    // a bundled module's file (modules/), evaluated before the tool file that names it
    bundle(factory) { factory(bundling); return "bundled"; },
    chacha20,

    answer(repliesText) {
      for (const reply of JSON.parse(repliesText)) {
        const waiter = state.waiting.get(reply.id);
        if (!waiter) continue;
        state.waiting.delete(reply.id);
        if (reply.ok) waiter.resolve(reply.value); else waiter.reject(fail(reply.error || "host call failed"));
      }
      return "answered";
    },
  };
  Object.defineProperty(globalThis, "__quiver", { value: Object.freeze(quiver), writable: false, configurable: false, enumerable: false });
  const console_ = { log: (...a) => state.run && makeLog(state.run, "info", a), info: (...a) => state.run && makeLog(state.run, "info", a), warn: (...a) => state.run && makeLog(state.run, "warning", a), error: (...a) => state.run && makeLog(state.run, "error", a), debug: (...a) => state.run && makeLog(state.run, "debug", a) };
  function makeLog(run, level, parts) {
    if (run.logs.length >= MAX_LOG_LINES) return;
    const text = parts.map((p) => typeof p === "string" ? p : (() => { try { return JSON.stringify(p); } catch (_) { return String(p); } })()).join(" ");
    run.logs.push(`${level}: ${text.slice(0, MAX_LOG_CHARS)}`);
  }
  globalThis.console = Object.freeze(console_);
})();
