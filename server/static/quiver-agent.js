// quiver-agent.js — the Quiver client for web agents. A plain ES module, no build step:
//
//   import { attach, registerAction, tools, call, on, toOpenAITools } from "https://<quiver>/quiver-agent.js";
//   registerAction({ name: "open_cart", description: "Show the cart", parameters: {}, handler: () => openCart() });
//   await attach({ baseUrl: "https://<quiver>", key: "<agent key>", bot: "support" });
//   const reply = await llm(messages, toOpenAITools());       // server tools + this page's actions
//   const result = await call(name, args);                     // runs here or on the server
//   on("change", ({ added, removed }) => { /* tools changed: the next turn sees them */ });
//   on("handoff", (session) => { /* a person takes over: stop sending messages */ });
//
// Or let the server run the model (the bot's agent loop) and only handle the page's actions:
//   const answer = await send("Where is my order?", { onText: (t) => show(t), onTool: (e) => log(e) });
// send() streams the answer; when the model calls one of this page's actions, the handler runs
// here, its outcome goes back to the server and the answer goes on — no code from the page.
//
// Actions may be registered before or after attach. The snapshot is kept current over the
// session's event stream (read with fetch, so the key travels in a header, never in a URL).

const RETRY_MS = 1000;

function newCallId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return "c-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
}

class QuiverError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.name = "QuiverError";
    this.status = status;
    this.problem = problem;
  }
}

export class QuiverAgent {
  constructor() {
    this.actions = new Map();
    this.listeners = { change: new Set(), error: new Set(), handoff: new Set(), ended: new Set(), resumed: new Set() };
    this.snapshot = { version: 0, tools: [] };
    this.session = null;
    this._base = null;
    this._key = null;
    this._stream = null;
    this._lastEventId = null;
  }

  // ---- actions ----------------------------------------------------------------------------
  registerAction({ name, description, parameters = {}, handler, label }) {
    if (typeof name !== "string" || !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name)) {
      throw new TypeError(`action name ${JSON.stringify(name)} must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$`);
    }
    if (typeof handler !== "function") throw new TypeError(`action ${name}: handler must be a function`);
    this.actions.set(name, { name, description: description || "", parameters, handler, label });
    return this.session ? this._pushActions() : Promise.resolve();
  }

  unregisterAction(name) {
    this.actions.delete(name);
    return this.session ? this._pushActions() : Promise.resolve();
  }

  async _pushActions() {
    const actions = [...this.actions.values()].map(({ name, description, parameters, label }) => (
      label === undefined ? { name, description, parameters } : { name, description, parameters, label }
    ));
    await this._request("PUT", `/v1/sessions/${this.session}/actions`, { actions });
    await this.refresh();
  }

  // ---- session ----------------------------------------------------------------------------
  async attach({ baseUrl, key, bot, intent = null }) {
    if (this.session) throw new Error("already attached; detach() first");
    this._base = String(baseUrl).replace(/\/+$/, "");
    this._key = key;
    this.bot = bot;
    const attached = await this._request("POST", "/v1/sessions", { bot, intent });
    this.session = attached.id;
    this._setSnapshot(attached.snapshot);
    if (this.actions.size) await this._pushActions();
    this._listen();
    return this;
  }

  async detach() {
    if (this._webmcp) {  // the tools leave the browser's agent with the session
      this._webmcp.stop();
      for (const name of this._webmcp.offered.keys()) {
        try { this._webmcp.modelContext.unregisterTool(name); } catch (err) { this._emit("error", err); }
      }
      this._webmcp = null;
    }
    if (this._stream) this._stream.abort();
    this._stream = null;
    this.session = null;
  }

  async refresh() {
    const snapshot = await this._request("GET", `/v1/sessions/${this.session}/snapshot`);
    this._applyChange(snapshot.version, snapshot.tools);
    return this.snapshot;
  }

  setIntent(intent) {
    return this._request("PUT", `/v1/sessions/${this.session}/intent`, { intent }).then(() => this.refresh());
  }

  // what the bot's FAQ ("qa") or catalog ("search") skill answers from, for a panel: a page
  panel(skill, { limit = 100, cursor = null } = {}) {
    const query = `?limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
    return this._request("GET", `/v1/bots/${encodeURIComponent(this.bot)}/panel/${skill}${query}`);
  }

  // ---- dddk's one-line skills (a developer key): the data set, then the bot's skill naming it
  registerQA({ items, dataset = "faq", topK = null }) {
    const lines = items.map((e, i) => ({ id: String(e.id ?? `q${i + 1}`), question: e.question,
      answer: e.answer, ...(e.category ? { category: e.category } : {}) }));
    return this._skill("qa", "faq", dataset, lines, topK ? { top_k: topK } : {});
  }

  registerSearch({ items, dataset = "products", fieldWeights = null, topK = null }) {
    const settings = { ...(fieldWeights ? { field_weights: fieldWeights } : {}), ...(topK ? { top_k: topK } : {}) };
    return this._skill("search", "catalog", dataset, catalogLines(items), settings);
  }

  registerClassifier({ samples, dataset = "intents" }) {
    const lines = samples.map((s) => ({ text: s.text, label: s.label, ...(s.lang ? { lang: s.lang } : {}) }));
    return this._skill("classify", "samples", dataset, lines, {});
  }

  registerRecommend({ items, dataset = "products" }) {
    return this._skill("recommend", "catalog", dataset, catalogLines(items), {});
  }

  async _skill(skill, kind, dataset, lines, settings) {
    const body = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    await this._request("PUT", `/v1/datasets/${encodeURIComponent(dataset)}?kind=${kind}`, body, "application/x-ndjson");
    const bot = await this._request("GET", `/v1/bots/${encodeURIComponent(this.bot)}`);
    const { created_at, updated_at, ...settingsOfBot } = bot;
    const skills = { ...(bot.skills || {}), [skill]: { ...settings, dataset } };
    await this._request("PUT", `/v1/bots/${encodeURIComponent(this.bot)}`, { ...settingsOfBot, skills });
    await this.refresh();  // the skill's tools join the snapshot
    return { dataset, items: lines.length, skill };
  }

  // slot filling: values the session's tools read in context.variables (the others are kept)
  setVariables(variables) {
    return this._request("PATCH", `/v1/sessions/${this.session}/variables`, { variables })
      .then((answer) => answer.variables);
  }

  // ---- tools --------------------------------------------------------------------------------
  tools() {
    return this.snapshot.tools.slice();
  }

  toOpenAITools() {
    return this.snapshot.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }

  toAnthropicTools() {
    return this.snapshot.tools.map((t) => ({
      name: t.name, description: t.description, input_schema: t.parameters,
    }));
  }

  // WebMCP: the session's tools (server tools and this page's actions) offered to an agent in
  // the browser through navigator.modelContext, where the browser has it (feature-detected;
  // false where it has not), kept in step with the snapshot. A call runs as call() does.
  exposeToWebMCP({ modelContext = globalThis.navigator && globalThis.navigator.modelContext } = {}) {
    if (!modelContext || typeof modelContext.registerTool !== "function") return false;
    if (this._webmcp) return true;
    const offered = new Map();  // name -> the entry offered (JSON)
    const sync = () => {
      const now = new Map(this.tools().map((t) => [t.name, t]));
      for (const [name, was] of offered) {
        const entry = now.get(name);
        if (!entry || JSON.stringify(entry) !== was) {
          try { modelContext.unregisterTool(name); } catch (err) { this._emit("error", err); }
          offered.delete(name);
        }
      }
      for (const [name, entry] of now) {
        if (offered.has(name)) continue;
        try {
          modelContext.registerTool({
            name, description: entry.description || name, inputSchema: entry.parameters || { type: "object", properties: {} },
            execute: async (input) => {
              const envelope = await this.call(name, input || {});
              if (!envelope.success) throw new Error(envelope.modelMessage || (envelope.error && envelope.error.message) || "the tool failed");
              return envelope.result;
            },
          });
          offered.set(name, JSON.stringify(entry));
        } catch (err) { this._emit("error", err); }
      }
    };
    sync();
    this._webmcp = { stop: this.on("change", sync), offered, modelContext };
    return true;
  }

  async call(name, args = {}) {
    if (!this.session) throw new Error("not attached");
    const entry = this.snapshot.tools.find((t) => t.name === name);
    const action = this.actions.get(name);
    if (entry && entry.executor === "browser" && action) return this._runAction(action, args);
    // A server tool — or a name the snapshot does not hold: the server answers with an
    // envelope either way (tool_not_available, circuit_open, …), which the model can read.
    return this._request("POST", `/v1/sessions/${this.session}/calls`, { tool: name, arguments: args });
  }

  async _runAction(action, args) {
    const callId = newCallId();
    const started = performance.now();
    let envelope;
    try {
      const result = await action.handler(args);
      if (result && typeof result === "object" && result.ok === false) {
        // a handler that reports a failure as a value ({ok: false, reason, message}) failed
        const code = String(result.reason || "browser_error").slice(0, 32);
        const message = String(result.message || result.reason || "the action failed");
        envelope = {
          success: false, toolName: action.name, error: { code, message }, result,
          modelMessage: `Tool '${action.name}' failed in the page: ${message}`,
        };
      } else {
        envelope = { success: true, toolName: action.name, result: result === undefined ? null : result };
      }
    } catch (err) {
      const message = err && err.message ? String(err.message) : String(err);
      envelope = {
        success: false, toolName: action.name, error: { code: "browser_error", message },
        modelMessage: `Tool '${action.name}' failed in the page: ${message}`,
      };
    }
    envelope.executionTime = Math.round((performance.now() - started) * 1000) / 1000;
    const report = {
      tool: action.name, success: envelope.success, latency_ms: envelope.executionTime,
      arguments: args && typeof args === "object" && !Array.isArray(args) ? args : {},
      result: envelope.result === undefined ? null : envelope.result,
      error: envelope.success ? null : envelope.error,
    };
    try {
      await this._request("POST", `/v1/sessions/${this.session}/calls/${callId}/result`, report);
    } catch (err) {
      this._emit("error", err);  // the outcome still goes back to the model
    }
    return envelope;
  }

  // ---- the server's agent loop --------------------------------------------------------------
  async send(text, { onText, onTool, onApproval } = {}) {
    if (!this.session) throw new Error("not attached");
    let events = await this._turnStream(`/v1/sessions/${this.session}/messages`, { content: text, stream: true });
    for (;;) {
      let paused = null, done = null, failed = null;
      for await (const [event, data] of events) {
        if (event === "text" && onText) onText(data.delta);
        else if ((event === "tool_call" || event === "tool_result") && onTool) onTool({ type: event, ...data });
        else if (event === "requires_action" || event === "requires_approval") paused = data;
        else if (event === "done") done = data;
        else if (event === "error") failed = data;
      }
      if (failed) throw new QuiverError(502, { code: failed.code, detail: failed.message });
      if (done) return done.message.content;
      if (!paused) throw new Error("the answer stream ended early");
      const answers = [];
      for (const action of paused.actions) {
        if (action.kind === "approval") {
          const approved = onApproval ? await onApproval(action) : false;
          answers.push({ call_id: action.call_id, approved: Boolean(approved), reason: approved ? null : "not approved in the page" });
          continue;
        }
        const handler = this.actions.get(action.name);
        if (!handler) {
          answers.push({ call_id: action.call_id, success: false, error: { code: "browser_error", message: `this page has no action ${action.name}` } });
          continue;
        }
        const envelope = await this._runAction(handler, action.arguments || {});
        if (onTool) onTool({ type: "tool_result", id: action.call_id, name: action.name, envelope });
        answers.push(envelope.success
          ? { call_id: action.call_id, success: true, result: envelope.result }
          : { call_id: action.call_id, success: false, error: envelope.error });
      }
      events = await this._turnStream(`/v1/sessions/${this.session}/messages/${paused.message_id}/results?stream=true`, answers);
    }
  }

  async _turnStream(path, body) {
    const response = await fetch(this._base + path, {
      method: "POST",
      headers: { Authorization: `Bearer ${this._key}`, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new QuiverError(response.status, await response.json().catch(() => null));
    return readEvents(response);
  }

  // ---- events -------------------------------------------------------------------------------
  on(event, fn) {
    if (!this.listeners[event]) throw new Error(`unknown event ${event}; use change, handoff, resumed, ended or error`);
    this.listeners[event].add(fn);
    return () => this.listeners[event].delete(fn);
  }

  _emit(event, value) {
    for (const fn of this.listeners[event]) {
      try { fn(value); } catch (err) { if (event !== "error") this._emit("error", err); }
    }
  }

  _setSnapshot(snapshot) {
    this.snapshot = { version: snapshot.version, tools: snapshot.tools };
  }

  _applyChange(version, tools, diff) {
    const before = new Map(this.snapshot.tools.map((t) => [t.name, JSON.stringify(t)]));
    const after = new Map(tools.map((t) => [t.name, JSON.stringify(t)]));
    const change = diff || {
      added: [...after.keys()].filter((n) => !before.has(n)),
      removed: [...before.keys()].filter((n) => !after.has(n)),
      changed: [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n)),
    };
    const moved = version !== this.snapshot.version || change.added.length || change.removed.length || change.changed.length;
    this.snapshot = { version, tools };
    if (moved) this._emit("change", { version, added: change.added, removed: change.removed, changed: change.changed, tools: this.tools() });
  }

  _listen() {
    const controller = new AbortController();
    this._stream = controller;
    const session = this.session;
    const loop = async () => {
      while (!controller.signal.aborted && this.session === session) {
        try {
          await this._readStream(session, controller.signal);
        } catch (err) {
          if (controller.signal.aborted) return;
          this._emit("error", err);
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    };
    loop();
  }

  async _readStream(session, signal) {
    const headers = { Authorization: `Bearer ${this._key}`, Accept: "text/event-stream" };
    if (this._lastEventId) headers["Last-Event-ID"] = this._lastEventId;
    const response = await fetch(`${this._base}/v1/sessions/${session}/events`, { headers, signal });
    if (!response.ok) throw new QuiverError(response.status, await response.json().catch(() => null));
    for await (const block of sseBlocks(response)) this._onBlock(block);
  }

  _onBlock(block) {
    let event = "message", data = "", id = null;
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
      else if (line.startsWith("id: ")) id = line.slice(4);
    }
    if (event === "status" && data) {  // the session was handed to a person, given back or ended
      const session = JSON.parse(data);
      const kind = { handed_off: "handoff", ended: "ended", active: "resumed" }[session.status];
      if (kind) this._emit(kind, session);
      return;
    }
    if (event !== "snapshot" || !data) return;
    const payload = JSON.parse(data);
    if (id) this._lastEventId = id;
    this._applyChange(payload.version, payload.tools, payload.full ? null : payload);
  }

  async _request(method, path, body, contentType = "application/json") {
    const raw = contentType !== "application/json";
    const response = await fetch(this._base + path, {
      method,
      headers: { Authorization: `Bearer ${this._key}`, ...(body === undefined ? {} : { "Content-Type": contentType }) },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : null;
    if (!response.ok) throw new QuiverError(response.status, parsed);
    return parsed;
  }
}

// catalog items as given to registerSearch/registerRecommend: {id, fields} as stored, or a flat
// object whose other keys are its fields
function catalogLines(items) {
  return items.map((item, i) => {
    if (item.fields) return { id: String(item.id ?? `p${i + 1}`), fields: item.fields, ...(item.meta ? { meta: item.meta } : {}) };
    const { id, meta, ...fields } = item;
    return { id: String(id ?? `p${i + 1}`), fields, ...(meta ? { meta } : {}) };
  });
}

// Server-sent events, read with fetch (the key travels in a header): one raw block at a time.
async function* sseBlocks(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
    }
  }
}

async function* readEvents(response) {
  for await (const block of sseBlocks(response)) {
    let event = "message", data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    if (data) yield [event, JSON.parse(data)];
  }
}

// The default agent, for pages with one: module-level functions bound to it.
const agent = new QuiverAgent();
export const attach = (options) => agent.attach(options);
export const detach = () => agent.detach();
export const registerAction = (action) => agent.registerAction(action);
export const unregisterAction = (name) => agent.unregisterAction(name);
export const tools = () => agent.tools();
tools.registerQA = (options) => agent.registerQA(options);
tools.registerSearch = (options) => agent.registerSearch(options);
tools.registerClassifier = (options) => agent.registerClassifier(options);
tools.registerRecommend = (options) => agent.registerRecommend(options);
export const call = (name, args) => agent.call(name, args);
export const send = (text, options) => agent.send(text, options);
export const on = (event, fn) => agent.on(event, fn);
export const setIntent = (intent) => agent.setIntent(intent);
export const setVariables = (variables) => agent.setVariables(variables);
export const panel = (skill, options) => agent.panel(skill, options);
export const toOpenAITools = () => agent.toOpenAITools();
export const toAnthropicTools = () => agent.toAnthropicTools();
export const exposeToWebMCP = (options) => agent.exposeToWebMCP(options);
export function createAgent() {
  return new QuiverAgent();
}
export { QuiverError };
export default agent;
