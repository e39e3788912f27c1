// Data sets (what the built-in skills answer from: upload with progress, items a page at a
// time, delete) and secrets (names and dates only: a value goes in and never comes back).
import { del, get, put, upload } from "./api.js";
import { clear, confirmDialog, field, h, json, pager, problemsOf, toast, when } from "./dom.js";

const KINDS = ["faq", "catalog", "samples", "documents"];


export async function datasets(main) {
  const body = h("tbody");
  const more = h("button", { hidden: true }, "Load more");
  const load = pager(body, more, async (cursor) => {
    const page = await get("/v1/datasets", { limit: 100, cursor });
    return { items: page.datasets, next: page.next_cursor };
  }, (d) => h("tr", {}, h("td", {}, h("a", { href: `#/datasets/${encodeURIComponent(d.name)}` }, d.name)), h("td", {}, d.kind),
    h("td", {}, `v${d.version}`), h("td", {}, String(d.items)), h("td", {}, `${(d.bytes / 1024).toFixed(1)} KiB`), h("td", {}, when(d.updated_at))),
  "No data sets yet.", 6);
  const name = h("input", { required: true, pattern: "^[A-Za-z][A-Za-z0-9_-]{0,63}$", size: 16 });
  const kind = h("select", {}, KINDS.map((k) => h("option", { value: k }, k)));
  const file = h("input", { type: "file", required: true, accept: ".ndjson,.jsonl,.json,.txt" });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": "Upload progress" });
  const status = h("div", { "aria-live": "polite" });
  file.addEventListener("change", () => { if (!name.value && file.files[0]) name.value = file.files[0].name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_-]/g, "_"); });
  async function send(event) {
    event.preventDefault();
    const chosen = file.files[0];
    progress.hidden = false;
    clear(status, h("p", { class: "muted" }, `Uploading ${chosen.name}…`));
    let sentBytes = 0;
    try {
      const stored = await upload(`/v1/datasets/${encodeURIComponent(name.value)}`, { kind: kind.value }, chosen, "application/x-ndjson",
        (sent, total) => { progress.max = total || 1; progress.value = sentBytes = sent; });
      clear(status, h("p", { class: "ok" }, `${stored.name}: version ${stored.version}, ${stored.items} items (${sentBytes} bytes sent)`));
      toast(`Uploaded ${stored.name}`);
      await load(true);
    } catch (error) {
      clear(status, problemsOf(error));
    } finally {
      progress.hidden = true;
    }
  }
  clear(main, h("h1", {}, "Data sets"),
    h("p", { class: "muted" }, "What the built-in skills answer from: one JSON object per line (NDJSON). A new upload replaces the set as its next version."),
    h("form", { class: "row panel", onsubmit: send, "aria-label": "Upload a data set" }, field("Name", name), field("Kind", kind), field("File", file),
      h("button", { class: "primary", type: "submit" }, "Upload"), progress),
    status,
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Kind", "Version", "Items", "Size", "Updated"].map((c) => h("th", { scope: "col" }, c)))), body),
    h("div", { class: "row" }, more));
  await load(true);
}

export async function dataset(main, name) {
  const path = `/v1/datasets/${encodeURIComponent(name)}`;
  const first = await get(path, { limit: 50 });
  const list = h("ol", { class: "items" });
  const more = h("button", { hidden: !first.next_cursor }, "Load more");
  let cursor = first.next_cursor;
  const show = (items) => list.append(...items.map((item) => h("li", {}, json(item))));
  show(first.data);
  more.addEventListener("click", async () => {
    const page = await get(path, { limit: 50, cursor });
    show(page.data);
    cursor = page.next_cursor;
    more.hidden = !cursor;
  });
  const remove = h("button", { class: "danger", onclick: async () => {
    if (!(await confirmDialog(`Delete the data set ${name}? Skills that answer from it stop finding anything.`))) return;
    await del(path); toast(`Deleted ${name}`); location.hash = "#/datasets";
  } }, "Delete…");
  clear(main, h("p", {}, h("a", { href: "#/datasets" }, "← Data sets")),
    h("h1", {}, name, " ", h("span", { class: "pill" }, first.kind), " ", h("span", { class: "pill" }, `v${first.version}`)),
    h("p", { class: "muted" }, `${first.items} items · ${(first.bytes / 1024).toFixed(1)} KiB · updated ${when(first.updated_at)}`),
    h("div", { class: "row" }, remove),
    h("h2", {}, "Items"), list, h("div", { class: "row" }, more));
}

export async function secrets(main) {
  const body = h("tbody");
  const more = h("button", { hidden: true }, "Load more");
  const load = pager(body, more, async (cursor) => {
    const page = await get("/v1/secrets", { limit: 100, cursor });
    return { items: page.secrets, next: page.next_cursor };
  }, (s) => h("tr", {}, h("td", {}, h("code", {}, s.name)), h("td", {}, when(s.updated_at)), h("td", {}, s.updated_by || ""),
    h("td", {}, h("button", { class: "danger", "aria-label": `Delete secret ${s.name}`, onclick: async () => {
      if (!(await confirmDialog(`Delete ${s.name}? Tools that declare it then fail with missing_secret.`))) return;
      await del(`/v1/secrets/${encodeURIComponent(s.name)}`); toast(`Deleted ${s.name}`); load(true);
    } }, "Delete…"))),
  "No secrets.", 4);
  const name = h("input", { required: true, pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$", size: 18, placeholder: "CRM_TOKEN" });
  const value = h("input", { type: "password", required: true, autocomplete: "off", minlength: 4 });
  const status = h("div", { "aria-live": "polite" });
  async function save(event) {
    event.preventDefault();
    try {
      await put(`/v1/secrets/${encodeURIComponent(name.value)}`, { value: value.value });
      value.value = "";  // gone from the page as soon as it is stored
      clear(status, h("p", { class: "ok" }, `${name.value} is set. Its value is never shown again.`));
      await load(true);
    } catch (error) {
      clear(status, problemsOf(error));
    }
  }
  clear(main, h("h1", {}, "Secrets"),
    h("p", { class: "muted" }, "Values are encrypted and never shown, here or by the API. A tool reads a secret it declares (metadata.secrets) as context.secrets."),
    h("form", { class: "row panel", onsubmit: save, "aria-label": "Set a secret" }, field("Name", name), field("Value", value),
      h("button", { class: "primary", type: "submit" }, "Set secret")),
    status,
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Updated", "By (key)", ""].map((c) => h("th", { scope: "col" }, c)))), body),
    h("div", { class: "row" }, more));
  await load(true);
}
