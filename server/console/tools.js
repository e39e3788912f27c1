// Tools: the list, the editor (Python and JavaScript files, webhook and WASM forms), Validate
// with errors at their line, Save (If-Match: another writer's save is shown, never overwritten),
// Test with a form made from the tool's schema, versions with a diff and rollback.
import { ApiError, del, get, patch, post, put } from "./api.js";
import { sideBySide } from "./diff.js";
import { createEditor } from "./editor.js";
import { clear, confirmDialog, field, h, json, toast, when } from "./dom.js";

const PYTHON_TEMPLATE = `def execute(params, context):
    amount = params["amount"]
    context.modules.logger.info("converting %s USD" % amount)
    return {"success": True, "message": "%.2f EUR" % (amount * 0.92)}


tool = {
    "name": "usd_to_eur",
    "description": "Convert an amount of US dollars to euros",
    "parameters": {"amount": {"type": "number", "required": True}},
    "execute": execute,
}
`;
const JS_TEMPLATE = `module.exports = {
  name: "greet",
  description: "Greets someone",
  parameters: { name: { type: "string", required: true } },
  execute(params, context) {
    context.modules.logger.info("greeting " + params.name);
    return { success: true, message: "Hello " + params.name };
  },
};
`;

export async function list(main) {
  const { tools } = await get("/v1/catalog");
  const search = h("input", { type: "search", placeholder: "name or description" });
  const kind = h("select", {}, ["", "python", "javascript", "webhook", "wasm"].map((k) => h("option", { value: k }, k || "any")));
  const origin = h("select", {}, ["", "tenant", "global", "builtin"].map((o) => h("option", { value: o }, o || "any")));
  const body = h("tbody");
  function render() {
    const q = search.value.toLowerCase();
    const shown = tools.filter((t) => (!q || t.name.includes(q) || (t.description || "").toLowerCase().includes(q)) && (!kind.value || t.kind === kind.value) && (!origin.value || t.origin === origin.value));
    clear(body, shown.map((t) => h("tr", {},
      h("td", {}, h("a", { href: `#/tools/${encodeURIComponent(t.name)}` }, t.name)),
      h("td", {}, t.kind), h("td", {}, h("span", { class: "pill" }, t.origin)), h("td", {}, `v${t.version}`),
      h("td", { class: t.enabled ? "ok" : "muted" }, t.enabled ? "enabled" : "disabled"),
      h("td", { class: t.breaker === "closed" ? "ok" : "bad" }, t.breaker.replace("_", "-")),
      h("td", {}, String(t.calls_last_day), t.success_rate_last_day != null ? h("span", { class: "muted" }, ` · ${Math.round(t.success_rate_last_day * 100)}% ok`) : ""))));
    if (!shown.length) body.append(h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No tools match.")));
  }
  for (const control of [search, kind, origin]) control.addEventListener("input", render);
  clear(main,
    h("h1", {}, "Tools"),
    h("div", { class: "row" }, field("Search", search), field("Kind", kind), field("Origin", origin),
      h("a", { class: "button primary", href: "#/tools/~new" }, "New tool")),
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Kind", "Origin", "Version", "State", "Breaker", "Calls (last day)"].map((c) => h("th", { scope: "col" }, c)))), body));
  render();
}

export async function detail(main, name, tab = "edit") {
  if (name === "~new") return editorPage(main, null);
  const shared = (await get("/v1/catalog")).tools.find((t) => t.name === name && t.origin !== "tenant");
  if (shared) return readOnly(main, shared);
  const tool = await get(`/v1/tools/${encodeURIComponent(name)}`);
  const tabs = [["edit", "Edit"], ["test", "Test"], ["versions", "Versions"]];
  const panel = h("div", { role: "tabpanel", id: "tool-panel", "aria-labelledby": `tab-${tab}` });
  clear(main,
    h("p", {}, h("a", { href: "#/tools" }, "← Tools")),
    h("h1", {}, tool.name, " ", h("span", { class: "pill" }, `v${tool.version}`), " ", h("span", { class: "pill" }, tool.kind)),
    h("p", { class: "muted" }, tool.description),
    h("div", { class: "row" },
      h("button", { onclick: async () => { await patch(`/v1/tools/${encodeURIComponent(name)}`, { enabled: !tool.enabled }); toast(tool.enabled ? "Disabled" : "Enabled"); detail(main, name, tab); } }, tool.enabled ? "Disable" : "Enable"),
      h("button", { class: "danger", onclick: async () => {
        if (!(await confirmDialog(`Delete ${tool.name} and all its versions? Agents lose it at once.`))) return;
        await del(`/v1/tools/${encodeURIComponent(name)}`); toast(`Deleted ${tool.name}`); location.hash = "#/tools";
      } }, "Delete…")),
    h("div", { role: "tablist", class: "tabs", "aria-label": "Tool" }, tabs.map(([id, title]) => h("button", {
      role: "tab", id: `tab-${id}`, "aria-selected": String(id === tab), "aria-controls": "tool-panel",
      onclick: () => { location.hash = `#/tools/${encodeURIComponent(name)}/${id}`; },
    }, title))),
    panel);
  if (tab === "test") return testPanel(panel, tool);
  if (tab === "versions") return versionsPanel(panel, tool);
  return editorPage(panel, tool);
}

// A global or built-in tool: what an agent is given (its source is not the tenant's to read)
function readOnly(main, tool) {
  clear(main,
    h("p", {}, h("a", { href: "#/tools" }, "← Tools")),
    h("h1", {}, tool.name, " ", h("span", { class: "pill" }, `v${tool.version}`), " ", h("span", { class: "pill" }, tool.kind), " ", h("span", { class: "pill" }, tool.origin)),
    h("p", { class: "muted" }, tool.description),
    h("p", { role: "note" }, tool.origin === "builtin"
      ? "A built-in tool: it comes with Quiver and cannot be changed here."
      : "A global tool, shared with this tenant by an admin: read-only here."),
    h("h2", {}, "Parameters"), json(tool.parameters ?? {}),
    h("p", { class: "muted" }, `${tool.enabled ? "Enabled" : "Disabled"} · breaker ${tool.breaker.replace("_", "-")} · ${tool.calls_last_day} calls in the last day`));
}

async function bodyOf(kind, sandbox, state) {
  if (kind === "python") return { kind, sandbox, source: state.editor.value };
  if (kind === "javascript") return { kind, source: state.editor.value };
  if (kind === "webhook") return state.webhook();
  return await state.wasm();
}

async function editorPage(panel, tool) {
  const kindSelect = h("select", { disabled: !!tool }, ["python", "javascript", "webhook", "wasm"].map((k) => h("option", { value: k, selected: tool?.kind === k }, k)));
  const sandbox = h("select", {}, ["restricted", "wasm"].map((s) => h("option", { value: s, selected: tool?.sandbox === s }, s)));
  const state = { editor: createEditor({ value: tool?.source ?? PYTHON_TEMPLATE, language: tool?.kind === "javascript" ? "javascript" : "python", label: "Tool source" }), etag: tool ? `"${tool.version}"` : null };
  const problems = h("ul", { class: "problems", "aria-live": "polite" });
  const status = h("p", { role: "status" });
  const area = h("div");
  function showKind() {
    const kind = kindSelect.value;
    sandbox.parentElement.hidden = kind !== "python";
    if (kind === "python" || kind === "javascript") {
      state.editor.language = kind;
      if (!tool && (state.editor.value === PYTHON_TEMPLATE || state.editor.value === JS_TEMPLATE)) state.editor.value = kind === "javascript" ? JS_TEMPLATE : PYTHON_TEMPLATE;
      clear(area, state.editor.element);
    } else if (kind === "webhook") clear(area, webhookForm(state, tool));
    else clear(area, wasmForm(state, tool));
  }
  kindSelect.addEventListener("change", showKind);
  function show(list, warnings = []) {
    state.editor.showProblems(list);
    clear(problems, [...list.map((p) => ["error", p]), ...warnings.map((p) => ["warning", p])].map(([level, p]) => h("li", {},
      p.line ? h("button", { onclick: () => state.editor.goToLine(p.line) }, `${level} at line ${p.line}: ${p.message}`) : h("span", { class: level === "error" ? "bad" : "warn" }, `${level}${p.field ? ` (${p.field})` : ""}: ${p.message}`))));
  }
  async function validate() {
    const result = await post("/v1/tools/validate", await bodyOf(kindSelect.value, sandbox.value, state));
    show(result.errors, result.warnings);
    status.textContent = result.valid ? "Valid." : `${result.errors.length} problem${result.errors.length === 1 ? "" : "s"}.`;
    status.className = result.valid ? "ok" : "bad";
    return result.valid;
  }
  async function save() {
    const body = await bodyOf(kindSelect.value, sandbox.value, state);
    try {
      const saved = tool
        ? await put(`/v1/tools/${encodeURIComponent(tool.name)}`, body, { headers: { "If-Match": state.etag } })
        : await post("/v1/tools", body);
      toast(`Saved ${saved.name} as version ${saved.version}`);
      location.hash = `#/tools/${encodeURIComponent(saved.name)}/edit`;
      if (tool) detail(document.getElementById("main"), saved.name, "edit");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.problem.code === "version_conflict") return conflict(error.problem);
      show(error.problem.errors || [], []);
      status.textContent = error.problem.errors?.length ? "Not saved: see the problems above." : error.message;
      status.className = "bad";
    }
  }
  function conflict(problem) {
    const current = problem.current;
    status.className = "bad";
    status.textContent = current ? `Someone saved version ${current.version} while you edited; nothing was overwritten. Compare below, then save again to replace it.` : problem.detail;
    if (current) {
      state.etag = `"${current.version}"`;  // a second Save replaces it, knowingly
      area.append(h("h2", {}, `Version ${current.version} (saved by another writer) against yours`),
        sideBySide(current.source ?? JSON.stringify(current, null, 2), state.editor.value, `v${current.version}`, "yours"));
    }
  }
  clear(panel,
    h("div", { class: "row" }, field("Kind", kindSelect), field("Python sandbox", sandbox)),
    area, problems, status,
    h("div", { class: "row" }, h("button", { onclick: validate }, "Validate"), h("button", { class: "primary", onclick: save }, tool ? "Save new version" : "Create tool")));
  if (!tool) panel.prepend(h("p", {}, h("a", { href: "#/tools" }, "← Tools")), h("h1", {}, "New tool"));
  showKind();
}

function webhookForm(state, tool) {
  const inputs = {
    name: h("input", { value: tool?.name ?? "", required: true, pattern: "[a-z][a-z0-9_]*", disabled: !!tool }),
    description: h("input", { value: tool?.description ?? "", size: 50 }),
    webhook_url: h("input", { type: "url", value: tool?.webhook_url ?? "https://", size: 50 }),
    method: h("select", {}, ["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => h("option", { selected: tool?.method === m }, m))),
    timeout_ms: h("input", { type: "number", min: 100, max: 30000, value: tool?.timeout_ms ?? 5000 }),
    auth_header: h("input", { type: "password", autocomplete: "off", placeholder: tool?.auth_header ? "unchanged (stored)" : "" }),
    parameters: h("textarea", { rows: 6, cols: 60 }, JSON.stringify(tool?.parameters ?? { type: "object", properties: {} }, null, 2)),
    headers: h("textarea", { rows: 3, cols: 60 }, JSON.stringify(tool?.headers ?? {}, null, 2)),
  };
  state.webhook = () => {
    const body = { kind: "webhook", name: inputs.name.value, description: inputs.description.value, webhook_url: inputs.webhook_url.value, method: inputs.method.value, timeout_ms: Number(inputs.timeout_ms.value) };
    for (const key of ["parameters", "headers"]) {
      try { body[key] = JSON.parse(inputs[key].value || "{}"); } catch { body[key] = inputs[key].value; }  // the server names the field
    }
    if (inputs.auth_header.value) body.auth_header = inputs.auth_header.value;
    return body;
  };
  return h("div", { class: "panel" },
    h("div", { class: "row" }, field("Name", inputs.name), field("Description", inputs.description)),
    h("div", { class: "row" }, field("URL (use {param} for path parameters)", inputs.webhook_url), field("Method", inputs.method), field("Timeout (ms)", inputs.timeout_ms)),
    h("div", { class: "row" }, field("Authorization header (stored encrypted, never shown)", inputs.auth_header)),
    h("div", { class: "row" }, field("Parameters (JSON Schema)", inputs.parameters), field("Headers (JSON)", inputs.headers)));
}

function wasmForm(state, tool) {
  const file = h("input", { type: "file", accept: ".wasm,application/wasm" });
  const name = h("input", { value: tool?.name ?? "", disabled: !!tool });
  const description = h("input", { value: tool?.description ?? "", size: 50 });
  const parameters = h("textarea", { rows: 6, cols: 60 }, JSON.stringify(tool?.parameters ?? { type: "object", properties: {} }, null, 2));
  let module = Promise.resolve(null);  // the chosen file, base64, once read
  file.addEventListener("change", () => {
    module = file.files[0].arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    });
  });
  state.wasm = async () => {
    let params;
    try { params = JSON.parse(parameters.value || "{}"); } catch { params = parameters.value; }
    return { kind: "wasm", name: name.value, description: description.value, parameters: params, module: await module };
  };
  return h("div", { class: "panel" },
    tool ? h("p", { class: "muted" }, `Current module: ${tool.module_size} bytes, sha256 ${tool.module_sha256}`) : null,
    h("div", { class: "row" }, field("Name", name), field("Description", description), field("Module (.wasm)", file)),
    field("Parameters (JSON Schema)", parameters));
}

function schemaOf(tool) {
  const p = tool.parameters || {};
  if (p.type === "object" || p.properties) return { properties: p.properties || {}, required: p.required || [] };
  return { properties: p, required: Object.entries(p).filter(([, s]) => s && s.required === true).map(([k]) => k) };
}

function testPanel(panel, tool) {
  const { properties, required } = schemaOf(tool);
  const inputs = Object.entries(properties).map(([name, schema]) => {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    let control;
    // the untouched choice sends nothing (its value is empty); an enum's own "" is a choice
    if (schema.enum) control = h("select", {}, h("option", { value: "" }, "(none)"), schema.enum.map((v) => h("option", { value: JSON.stringify(v) }, v === "" ? '""' : String(v))));
    else if (type === "boolean") control = h("select", {}, ["", "true", "false"].map((v) => h("option", { value: v }, v || "(none)")));
    else if (type === "integer" || type === "number") control = h("input", { type: "number", step: type === "integer" ? 1 : "any" });
    else if (type === "object" || type === "array") control = h("textarea", { rows: 3, cols: 40, placeholder: "JSON" });
    else control = h("input", { type: "text" });
    control.required = required.includes(name);
    return { name, type, control, enum: !!schema.enum, label: field(`${name}${required.includes(name) ? " *" : ""}`, control, schema.description) };
  });
  const out = h("div", { "aria-live": "polite" });
  async function run(event) {
    event.preventDefault();
    const args = {};
    for (const i of inputs) {
      const raw = i.control.value;
      if (raw === "") continue;
      if (i.enum) args[i.name] = JSON.parse(raw);
      else if (i.type === "boolean") args[i.name] = raw === "true";
      else if (i.type === "integer" || i.type === "number") args[i.name] = Number(raw);
      else if (i.type === "object" || i.type === "array") { try { args[i.name] = JSON.parse(raw); } catch { args[i.name] = raw; } }
      else args[i.name] = raw;
    }
    clear(out, h("p", { class: "muted" }, "Running…"));
    const envelope = await post(`/v1/tools/${encodeURIComponent(tool.name)}/test`, { arguments: args });
    clear(out,
      h("p", { class: envelope.success ? "ok" : "bad" }, envelope.success ? "Succeeded" : `Failed: ${envelope.error?.code}`, ` in ${envelope.executionTime.toFixed(1)} ms`),
      h("h2", {}, "Envelope"), json(envelope),
      h("h2", {}, "Log lines"), envelope.logs?.length ? h("pre", { class: "box" }, envelope.logs.join("\n")) : h("p", { class: "muted" }, "The tool logged nothing."));
  }
  clear(panel, h("form", { onsubmit: run },
    inputs.length ? h("div", { class: "row" }, inputs.map((i) => i.label)) : h("p", { class: "muted" }, "This tool takes no arguments."),
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Run test"))), out);
}

async function versionsPanel(panel, tool) {
  const { versions } = await get(`/v1/tools/${encodeURIComponent(tool.name)}/versions`);
  const numbers = versions.map((v) => v.version);
  const left = h("select", {}, numbers.map((n) => h("option", { value: n, selected: n === numbers[1] }, `v${n}`)));
  const right = h("select", {}, numbers.map((n) => h("option", { value: n, selected: n === numbers[0] }, `v${n}`)));
  const diffArea = h("div");
  const text = (t) => t.source ?? JSON.stringify({ ...t, version: undefined, created_at: undefined, updated_at: undefined, content_hash: undefined }, null, 2);
  async function compare() {
    const [a, b] = await Promise.all([left.value, right.value].map((n) => get(`/v1/tools/${encodeURIComponent(tool.name)}/versions/${n}`)));
    clear(diffArea, sideBySide(text(a), text(b), `v${a.version}`, `v${b.version}`));
  }
  async function rollback(version) {
    if (!(await confirmDialog(`Make version ${version} current again (saved as a new version)?`, "Roll back"))) return;
    const saved = await post(`/v1/tools/${encodeURIComponent(tool.name)}/rollback`, { version });
    toast(`Rolled back: version ${version} is now version ${saved.version}`);
    detail(document.getElementById("main"), tool.name, "versions");
  }
  left.addEventListener("change", compare);
  right.addEventListener("change", compare);
  clear(panel,
    h("table", {}, h("thead", {}, h("tr", {}, ["Version", "Saved", "By", "Description", ""].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, versions.map((v) => h("tr", {}, h("td", {}, `v${v.version}`), h("td", {}, when(v.created_at)), h("td", {}, v.created_by || ""), h("td", {}, v.description),
        h("td", {}, v.version === tool.version ? h("span", { class: "pill" }, "current") : h("button", { onclick: () => rollback(v.version), "aria-label": `Roll back to version ${v.version}` }, "Roll back")))))),
    h("h2", {}, "Compare"), h("div", { class: "row" }, field("Left", left), field("Right", right)), diffArea);
  if (numbers.length > 1) await compare();
}
