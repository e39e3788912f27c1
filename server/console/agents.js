// The agent loop's settings: model providers (a key goes in, never comes back) and bots (their
// tools, intents, skills, model and rounds as JSON, and their evals with a run button).
import { del, get, post, put } from "./api.js";
import { clear, confirmDialog, field, h, json, problemsOf, toast, when } from "./dom.js";

const KINDS = ["openai", "openai-responses", "anthropic", "gemini"];


export async function providers(main) {
  const { providers: rows } = await get("/v1/providers");
  const name = h("input", { required: true, size: 12, pattern: "^[A-Za-z][A-Za-z0-9_-]{0,63}$", placeholder: "main" });
  const kind = h("select", {}, KINDS.map((k) => h("option", { value: k }, k)));
  const baseUrl = h("input", { type: "url", size: 28, placeholder: "(the provider's own)" });
  const models = h("input", { size: 24, placeholder: "gpt-4.1-mini, gpt-4.1" });
  const key = h("input", { type: "password", autocomplete: "off", size: 20, placeholder: "(kept when empty)" });
  const status = h("div", { "aria-live": "polite" });
  async function save(event) {
    event.preventDefault();
    const body = { kind: kind.value, models: models.value.split(",").map((m) => m.trim()).filter(Boolean) };
    if (baseUrl.value.trim()) body.base_url = baseUrl.value.trim();
    if (key.value) body.api_key = key.value;
    try {
      await put(`/v1/providers/${encodeURIComponent(name.value)}`, body);
      key.value = "";
      toast(`Saved provider ${name.value}`);
      await providers(main);
    } catch (error) { clear(status, problemsOf(error)); }
  }
  const edit = (p) => { name.value = p.name; kind.value = p.kind; baseUrl.value = p.base_url || ""; models.value = (p.models || []).join(", "); key.value = ""; name.focus(); };
  clear(main, h("h1", {}, "Model providers"),
    h("p", { class: "muted" }, "The model servers bots answer with (model: \"provider/model\"). An API key is encrypted and never shown again."),
    h("form", { class: "row panel", onsubmit: save, "aria-label": "Save a provider" }, field("Name", name), field("Kind", kind), field("Base URL", baseUrl),
      field("Models", models), field("API key", key), h("button", { class: "primary", type: "submit" }, "Save provider")),
    status,
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Kind", "Base URL", "Models", "Key", "Updated", ""].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.length ? rows.map((p) => h("tr", {}, h("td", {}, p.name), h("td", {}, p.kind), h("td", {}, p.base_url || ""),
        h("td", {}, (p.models || []).join(", ")), h("td", {}, p.api_key ? "set" : "none"), h("td", {}, when(p.updated_at)),
        h("td", {}, h("button", { "aria-label": `Edit provider ${p.name}`, onclick: () => edit(p) }, "Edit"), " ",
          h("button", { class: "danger", "aria-label": `Delete provider ${p.name}`, onclick: async () => {
            if (!(await confirmDialog(`Delete the provider ${p.name}? Bots that use it stop answering.`))) return;
            await del(`/v1/providers/${encodeURIComponent(p.name)}`); toast(`Deleted ${p.name}`); providers(main);
          } }, "Delete…"))))
        : [h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No providers."))])));
}

const SETTINGS = ["tools", "intents", "max_tools", "model", "tool_round_model", "max_rounds", "max_context_tokens", "action_timeout_s",
  "system_prompt", "idle_timeout_s", "intent_detection", "skills", "max_tool_calls", "max_turn_tool_calls", "turn_timeout_s", "approvers", "tool_loading", "code_mode"];

export async function bots(main) {
  const { bots: rows } = await get("/v1/bots", { limit: 500 });
  const name = h("input", { required: true, size: 14, pattern: "^[A-Za-z][A-Za-z0-9_-]{0,63}$" });
  const status = h("div", { "aria-live": "polite" });
  async function create(event) {
    event.preventDefault();
    try {
      await put(`/v1/bots/${encodeURIComponent(name.value)}`, { name: name.value, tools: null });
      location.hash = `#/bots/${encodeURIComponent(name.value)}`;
    } catch (error) { clear(status, problemsOf(error)); }
  }
  clear(main, h("h1", {}, "Bots"),
    h("form", { class: "row panel", onsubmit: create, "aria-label": "New bot" }, field("Name", name), h("button", { class: "primary", type: "submit" }, "Create bot")),
    status,
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Tools", "Model", "Skills", "Updated"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.length ? rows.map((b) => h("tr", {}, h("td", {}, h("a", { href: `#/bots/${encodeURIComponent(b.name)}` }, b.name)),
        h("td", {}, b.tools === null ? "all visible" : String(b.tools.length)), h("td", {}, b.model || ""),
        h("td", {}, Object.keys(b.skills || {}).join(", ")), h("td", {}, when(b.updated_at))))
        : [h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No bots."))])));
}

export async function bot(main, name) {
  const path = `/v1/bots/${encodeURIComponent(name)}`;
  const current = await get(path);
  // tools is always there (null: every visible tool); the others when set
  const settings = Object.fromEntries(SETTINGS.filter((k) => k === "tools" || (current[k] !== null && current[k] !== undefined)).map((k) => [k, current[k] ?? null]));
  const editor = h("textarea", { rows: 16, cols: 80, spellcheck: "false", "aria-label": "Settings (JSON)" }, JSON.stringify(settings, null, 2));
  const saved = h("div", { "aria-live": "polite" });
  async function save(event) {
    event.preventDefault();
    let body;
    try { body = JSON.parse(editor.value); } catch (error) { clear(saved, problemsOf(new Error(`not JSON: ${error.message}`))); return; }
    try {
      await put(path, { ...body, name });
      clear(saved, h("p", { class: "ok" }, "Saved: attached agents get the new snapshot."));
    } catch (error) { clear(saved, problemsOf(error)); }
  }
  let cases = [];
  try { cases = await get(`${path}/evals`); } catch (_) { cases = []; }
  const evalEditor = h("textarea", { rows: 8, cols: 80, spellcheck: "false", "aria-label": "Eval cases (JSON)" }, JSON.stringify(cases.cases ?? cases, null, 2));
  const results = h("div", { "aria-live": "polite" });
  async function runEvals(event) {
    event.preventDefault();
    try {
      await put(`${path}/evals`, JSON.parse(evalEditor.value));
      clear(results, h("p", { class: "muted" }, "Running…"));
      const report = await post(`${path}/evals/run`, {});
      clear(results, h("p", { class: report.pass_rate === 1 ? "ok" : "bad" }, `${Math.round(report.pass_rate * 100)}% passed`),
        h("table", {}, h("thead", {}, h("tr", {}, ["Case", "Result", "Failures"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, report.cases.map((c) => h("tr", {}, h("td", {}, c.name), h("td", { class: c.passed ? "ok" : "bad" }, c.passed ? "passed" : "failed"),
            h("td", {}, (c.failures || []).join("; ")))))));
    } catch (error) { clear(results, problemsOf(error)); }
  }
  clear(main, h("p", {}, h("a", { href: "#/bots" }, "← Bots")),
    h("h1", {}, name),
    h("form", { onsubmit: save, "aria-label": "Bot settings" },
      h("p", { class: "muted" }, "tools (null: every visible tool; names or {name, version} pins), intents, skills, model (\"provider/model\"), max_rounds and the other settings, as the API takes them."),
      editor, h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Save bot")), saved),
    h("h2", {}, "Evals"),
    h("form", { onsubmit: runEvals, "aria-label": "Evals" },
      h("p", { class: "muted" }, "Cases: {name, messages: [...], expect: {tools: [{name, arguments_subset?}], not_tools, max_rounds}}; a run uses the bot's model with its tools in test mode."),
      evalEditor, h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Save and run evals")), results));
}
