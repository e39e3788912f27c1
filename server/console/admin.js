// Admin pages: tenants, their keys (a new key's secret is shown once), shared-tool allowlists,
// sandbox modules and egress allowlists; and the audit log (developers see their tenant's).
import { del, get, post, put } from "./api.js";
import { auth } from "./api.js";
import { clear, confirmDialog, field, h, pager, toast, when } from "./dom.js";

export async function tenants(main) {
  const { tenants: rows } = await get("/v1/tenants", { limit: 1000 }, { scoped: false });
  const id = h("input", { required: true, pattern: "[a-z0-9][a-z0-9-]{0,62}", size: 14 });
  const name = h("input", { size: 20 });
  const status = h("p", { role: "status" });
  async function create(event) {
    event.preventDefault();
    try {
      await post("/v1/tenants", { id: id.value.trim(), name: name.value.trim() }, { scoped: false });
      toast(`Created tenant ${id.value}`);
      location.hash = `#/tenants/${encodeURIComponent(id.value.trim())}`;
    } catch (error) {
      status.textContent = error.message;
      status.className = "bad";
    }
  }
  clear(main, h("h1", {}, "Tenants"),
    h("form", { class: "row panel", onsubmit: create, "aria-label": "New tenant" }, field("Tenant id", id), field("Name", name), h("button", { class: "primary", type: "submit" }, "Create tenant"), status),
    h("table", {}, h("thead", {}, h("tr", {}, ["Tenant", "Name", "Shared tools", "Created"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((t) => h("tr", {}, h("td", {}, h("a", { href: `#/tenants/${encodeURIComponent(t.id)}` }, t.id)), h("td", {}, t.name), h("td", {}, (t.shared_tools || []).join(", ")), h("td", {}, when(t.created_at)))))));
}

function listEditor(label, values, save, hint) {
  const input = h("textarea", { rows: 3, cols: 50 }, (values || []).join("\n"));
  const status = h("span", { role: "status" });
  return h("form", { class: "panel", onsubmit: async (event) => {
    event.preventDefault();
    const items = input.value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
    try { await save(items); status.textContent = "Saved."; status.className = "ok"; } catch (error) { status.textContent = error.message; status.className = "bad"; }
  } }, field(label, input, hint), h("div", { class: "row" }, h("button", { type: "submit" }, `Save ${label.toLowerCase()}`), status));
}

export async function tenant(main, id) {
  const t = await get(`/v1/tenants/${encodeURIComponent(id)}`, {}, { scoped: false });
  const role = h("select", {}, ["developer", "agent"].map((r) => h("option", { value: r }, r)));
  const label = h("input", { size: 20 });
  const secretBox = h("div", { "aria-live": "polite" });
  const base = `/v1/tenants/${encodeURIComponent(id)}`;
  async function createKey(event) {
    event.preventDefault();
    const key = await post(`${base}/keys`, { role: role.value, label: label.value.trim() }, { scoped: false });
    const copy = h("button", { type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(key.key); copy.textContent = "Copied"; }
      catch (_) { window.getSelection().selectAllChildren(secret); copy.textContent = "Selected: press Ctrl+C"; }
    } }, "Copy key");
    const secret = h("p", { class: "secret" }, key.key);
    clear(secretBox, h("div", { class: "panel", role: "alert" }, h("p", {}, `New ${key.role} key ${key.id}. Copy it now: it is not shown again.`), secret, copy));
    await renderKeys();
  }
  const keysBody = h("tbody");
  async function renderKeys() {
    const { keys: fresh } = await get(`${base}/keys`, { limit: 1000 }, { scoped: false });
    clear(keysBody, fresh.map((k) => h("tr", {}, h("td", {}, k.id), h("td", {}, k.role), h("td", {}, k.label || ""), h("td", {}, when(k.created_at)),
      h("td", {}, k.revoked_at ? `revoked ${when(k.revoked_at)}` : h("button", { class: "danger", "aria-label": `Revoke key ${k.id}`, onclick: async () => {
        if (!(await confirmDialog(`Revoke key ${k.id}? Whoever holds it is locked out at once.`, "Revoke"))) return;
        await del(`/v1/keys/${encodeURIComponent(k.id)}`, { scoped: false }); toast(`Revoked ${k.id}`); renderKeys();
      } }, "Revoke")))));
  }
  clear(main, h("p", {}, h("a", { href: "#/tenants" }, "← Tenants")), h("h1", {}, `Tenant ${t.id}`),
    h("p", {}, h("button", { onclick: () => { auth.tenant = t.id; location.hash = "#/tools"; location.reload(); } }, `Act for ${t.id}: its tools, calls and sessions`)),
    h("h2", {}, "API keys"),
    h("form", { class: "row panel", onsubmit: createKey, "aria-label": "New key" }, field("Role", role), field("Label", label), h("button", { class: "primary", type: "submit" }, "Create key")),
    secretBox,
    h("table", {}, h("thead", {}, h("tr", {}, ["Key", "Role", "Label", "Created", ""].map((c) => h("th", { scope: "col" }, c)))), keysBody),
    h("h2", {}, "Allowlists"),
    listEditor("Shared tools", t.shared_tools, (tools) => put(`${base}/shared-tools`, { tools }, { scoped: false }), "global tools this tenant may use, one per line (* = all)"),
    listEditor("Sandbox modules", t.sandbox_modules, (modules) => put(`${base}/modules`, { modules }, { scoped: false }), "extra modules its code tools may import (from the reviewed table)"),
    listEditor("Egress allowlist", t.egress_allow, (allow) => put(`${base}/egress`, { allow }, { scoped: false }), "internal hosts or CIDRs its webhooks may reach"));
  await renderKeys();
}

export async function audit(main) {
  const tenantInput = h("input", { size: 12, value: auth.who.role === "admin" ? auth.tenant : auth.who.tenant, disabled: auth.who.role !== "admin" });
  const since = h("input", { type: "datetime-local" });
  const body = h("tbody");
  const more = h("button", { hidden: true }, "Load more");
  const load = pager(body, more, async (cursor) => {
    const params = { since: since.value ? new Date(since.value).toISOString() : "", limit: 100, cursor };
    if (auth.who.role === "admin") params.tenant = tenantInput.value.trim();
    const page = await get("/v1/audit", params, { scoped: false });
    return { items: page.entries, next: page.next_cursor };
  }, (e) => h("tr", {}, h("td", {}, when(e.at)), h("td", {}, e.actor || "(server)"), h("td", {}, e.tenant || ""), h("td", {}, e.action), h("td", {}, e.target),
    h("td", {}, e.detail ? h("code", {}, JSON.stringify(e.detail)) : "")),
  "Nothing recorded.", 6);
  clear(main, h("h1", {}, "Audit log"),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); load(true); } }, field("Tenant", tenantInput), field("Since", since), h("button", { class: "primary", type: "submit" }, "Show")),
    h("table", {}, h("thead", {}, h("tr", {}, ["When", "Who (key)", "Tenant", "What", "Target", "Before / after"].map((c) => h("th", { scope: "col" }, c)))), body),
    h("div", { class: "row" }, more));
  await load(true);
}
