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

  const querystring = Object.freeze({
    stringify(object) {
      return Object.keys(object || {}).map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(object[k]))}`).join("&");
    },
    parse(text) {
      const out = {};
      for (const part of String(text || "").split("&")) {
        if (!part) continue;
        const [k, v = ""] = part.split("=");
        out[decodeURIComponent(k)] = decodeURIComponent(v.replace(/\+/g, " "));
      }
      return out;
    },
  });

  // require(): a reviewed table, nothing else (there is no file system and no module loader)
  const MODULES = { axios: makeAxios(), querystring };
  function require(name) {
    if (Object.prototype.hasOwnProperty.call(MODULES, name)) return MODULES[name];
    throw fail(`module '${name}' is not available (allowed: ${Object.keys(MODULES).join(", ")})`);
  }

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
    define(factory) {
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
