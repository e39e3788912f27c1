// Sessions: the tenant's conversations (active, handed off and ended), and one session's
// snapshot, variables, calls and transcript.
import { get } from "./api.js";
import { clear, field, h, json, pager, when } from "./dom.js";

export async function list(main) {
  const status = h("select", {}, ["", "active", "handed_off", "ended"].map((s) => h("option", { value: s }, s || "any")));
  const bot = h("input", { size: 12 });
  const body = h("tbody");
  const more = h("button", { hidden: true }, "Load more");
  const load = pager(body, more, async (cursor) => {
    const page = await get("/v1/sessions", { status: status.value, bot: bot.value.trim(), limit: 50, cursor });
    return { items: page.sessions, next: page.next_cursor };
  }, (s) => h("tr", {},
    h("td", {}, h("a", { href: `#/sessions/${s.id}` }, s.id.slice(0, 8))), h("td", {}, s.bot), h("td", {}, s.status),
    h("td", {}, s.customer || ""), h("td", {}, when(s.created_at)), h("td", {}, s.ended_at ? `${when(s.ended_at)} (${s.end_reason || ""})` : "")),
  "No sessions.", 6);
  clear(main, h("h1", {}, "Sessions"),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); load(true); } }, field("Status", status), field("Bot", bot), h("button", { class: "primary", type: "submit" }, "Filter")),
    h("table", {}, h("thead", {}, h("tr", {}, ["Session", "Bot", "Status", "Customer", "Started", "Ended"].map((c) => h("th", { scope: "col" }, c)))), body),
    h("div", { class: "row" }, more));
  await load(true);
}

async function section(title, load) {
  const box = h("section", {}, h("h2", {}, title));
  try { box.append(await load()); } catch (error) { box.append(h("p", { class: "muted" }, error.message)); }
  return box;
}

export async function detail(main, sid) {
  const s = await get(`/v1/sessions/${encodeURIComponent(sid)}`);
  const base = `/v1/sessions/${encodeURIComponent(sid)}`;
  const parts = await Promise.all([
    section("Snapshot (the tools it sees now)", async () => {
      const snap = await get(`${base}/snapshot`);
      return h("table", {}, h("tbody", {}, (snap.tools || []).map((t) => h("tr", {}, h("td", {}, t.name), h("td", {}, t.executor || t.kind || ""), h("td", { class: "muted" }, t.description)))));
    }),
    section("Variables", async () => json((await get(`${base}/variables`)).variables ?? {})),
    section("Calls", async () => {
      const { calls } = await get(`${base}/calls`);
      return h("table", {}, h("tbody", {}, calls.map((c) => h("tr", {}, h("td", {}, when(c.at)), h("td", {}, c.tool), h("td", { class: c.success ? "ok" : "bad" }, c.success ? "ok" : c.error?.code), h("td", {}, `${c.latency_ms.toFixed(1)} ms`)))));
    }),
    section("Transcript", async () => {
      const { messages } = await get(`${base}/messages`);
      if (!messages.length) return h("p", { class: "muted" }, "No messages (the agent runs its own loop).");
      // an assistant turn that only called tools has no text: its calls, with their arguments
      return h("ol", {}, messages.map((m) => h("li", {}, h("strong", {}, m.role), m.name ? ` (${m.name})` : "",
        m.content === null || m.content === undefined || m.content === "" ? "" : [": ", typeof m.content === "string" ? m.content : JSON.stringify(m.content)],
        m.tool_calls?.length ? h("ul", { class: "calls" }, m.tool_calls.map((t) =>
          h("li", {}, h("code", {}, t.name), " ", h("code", { class: "muted" }, JSON.stringify(t.arguments ?? {}))))) : "")));
    }),
  ]);
  clear(main, h("p", {}, h("a", { href: "#/sessions" }, "← Sessions")),
    h("h1", {}, `Session ${s.id.slice(0, 8)}`),
    h("p", {}, `${s.bot} · ${s.status}${s.customer ? ` · ${s.customer}` : ""} · started ${when(s.created_at)}${s.ended_at ? ` · ended ${when(s.ended_at)} (${s.end_reason || ""})` : ""}`),
    parts);
}
