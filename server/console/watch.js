// Watching: per-tool analytics over a chosen range, drawn as bar charts (SVG built here: a
// handful of bars needs no charting library), and the call log with filters, paging and a
// live tail.
import { get, stream } from "./api.js";
import { clear, field, h, json, pager, when } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const RANGES = [["1", "last hour"], ["24", "last day"], ["168", "last 7 days"], ["720", "last 30 days"]];

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

// One horizontal bar per tool; `bars` is [[label, value, shown]]; `series` names a second bar.
export function barChart(title, bars, { max, second } = {}) {
  const width = 640, row = second ? 30 : 22, left = 180, height = bars.length * row + 8;
  const top = max ?? Math.max(1, ...bars.flatMap((b) => [b[1] || 0, second ? b[3] || 0 : 0]));
  const scale = (v) => Math.max(0, ((v || 0) / top) * (width - left - 90));
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${bars.map((b) => `${b[0]} ${b[2]}${second ? `, ${second} ${b[4]}` : ""}`).join("; ") || "no data"}` });
  bars.forEach(([label, value, shown, other, otherShown], i) => {
    const y = i * row + 4;
    chart.append(svg("text", { x: left - 8, y: y + 13, "text-anchor": "end" }, label));
    chart.append(svg("rect", { x: left, y, width: scale(value), height: 14, fill: "#2563eb" }));
    chart.append(svg("text", { x: left + scale(value) + 6, y: y + 12 }, shown));
    if (second) {
      chart.append(svg("rect", { x: left, y: y + 15, width: scale(other), height: 9, fill: "#f59e0b" }));
      chart.append(svg("text", { x: left + scale(other) + 6, y: y + 24 }, `${otherShown} ${second}`));
    }
  });
  return h("figure", { class: "chart" }, h("figcaption", {}, h("strong", {}, title)), bars.length ? chart : h("p", { class: "muted" }, "No calls in this range."));
}

// One column per day, the oldest on the left; `days` is [{day, ...}], `key` the figure drawn.
export function dayChart(title, days, key, color = "#2563eb") {
  const width = 640, height = 160, bottom = 20, left = 40;
  const top = Math.max(1, ...days.map((d) => d[key] || 0));
  const step = (width - left) / Math.max(days.length, 1);
  const busy = days.filter((d) => d[key]);
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `${title}: ${busy.map((d) => `${d.day} ${d[key]}`).join("; ") || "none in this range"}` });
  chart.append(svg("text", { x: left - 6, y: 12, "text-anchor": "end" }, String(top)));
  chart.append(svg("text", { x: left - 6, y: height - bottom, "text-anchor": "end" }, "0"));
  days.forEach((d, i) => {
    const tall = ((d[key] || 0) / top) * (height - bottom - 8);
    chart.append(svg("rect", { x: left + i * step + 1, y: height - bottom - tall, width: Math.max(step - 2, 1), height: tall, fill: color }));
  });
  chart.append(svg("text", { x: left, y: height - 4 }, days[0]?.day || ""));
  chart.append(svg("text", { x: width, y: height - 4, "text-anchor": "end" }, days.at(-1)?.day || ""));
  return h("figure", { class: "chart" }, h("figcaption", {}, h("strong", {}, title)), chart);
}

export async function usage(main) {
  const [now, daily] = await Promise.all([get("/v1/usage"), get("/v1/usage/daily", { days: 30 })]);
  const limits = Object.entries(now.limits || {});
  const today = now.today || {};
  clear(main, h("h1", {}, "Usage and limits"),
    h("p", { class: "muted" }, "The limits this tenant runs under (the server's defaults and an admin's overrides) and what it used; days are UTC."),
    h("table", { "aria-label": "Limits" }, h("thead", {}, h("tr", {}, ["Limit", "Value", "Used today"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, limits.map(([name, value]) => h("tr", {}, h("td", {}, name.replaceAll("_", " ")), h("td", {}, value ?? "none"),
        h("td", {}, today[name.replace(/_per_day$/, "")] ?? ""))))),
    h("div", { class: "grid2" },
      dayChart("Calls per day (last 30 days)", daily.days, "calls"),
      dayChart("Model tokens per day, input", daily.days, "input_tokens", "#7c3aed"),
      dayChart("Model tokens per day, output", daily.days, "output_tokens", "#f59e0b")));
}

export async function analytics(main) {
  const range = h("select", {}, RANGES.map(([hours, label]) => h("option", { value: hours, selected: hours === "24" }, label)));
  const since = h("input", { type: "datetime-local" });
  const until = h("input", { type: "datetime-local" });
  const charts = h("div", { "aria-live": "polite" });
  async function load() {
    const end = until.value ? new Date(until.value) : new Date();
    const start = since.value ? new Date(since.value) : new Date(end - Number(range.value) * 3600e3);
    const data = await get("/v1/analytics/tools", { since: start.toISOString(), until: end.toISOString() });
    const tools = data.tools;
    const pct = (v) => (v == null ? "–" : `${Math.round(v * 100)}%`);
    const offered = data.offered || [];
    clear(charts,
      h("p", { class: "muted" }, `${when(data.since)} – ${when(data.until)}; test runs are not counted.`),
      h("div", { class: "grid2" },
        barChart("Calls", tools.map((t) => [t.tool, t.calls, String(t.calls)])),
        barChart("Success rate", tools.map((t) => [t.tool, t.success_rate, pct(t.success_rate)]), { max: 1 }),
        barChart("Latency p50 (blue) and p95 (amber), ms", tools.map((t) => [t.tool, t.p50_ms, `${t.p50_ms ?? "–"}`, t.p95_ms, `${t.p95_ms ?? "–"}`]), { second: "p95" }),
        barChart("Cache hit rate", tools.map((t) => [t.tool, t.cache_hit_rate, pct(t.cache_hit_rate)]), { max: 1 }),
        barChart("Breaker openings", tools.map((t) => [t.tool, t.breaker_openings, String(t.breaker_openings)])),
        barChart("Offered to the model (blue) and called (amber)", offered.map((o) => [o.tool, o.offered, String(o.offered), o.called, String(o.called)]), { second: "called" })),
      h("h2", {}, "Last errors"),
      h("table", {}, h("thead", {}, h("tr", {}, ["Tool", "Errors"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, tools.filter((t) => t.last_errors?.length).map((t) => h("tr", {}, h("td", {}, t.tool), h("td", {}, t.last_errors.map((e) => h("div", {}, `${when(e.at)} ${e.code}: ${e.message}`))))))));
  }
  for (const control of [range, since, until]) control.addEventListener("change", load);
  clear(main, h("h1", {}, "Analytics"), h("div", { class: "row" }, field("Range", range), field("From (optional)", since), field("To (optional)", until)), charts);
  await load();
}

function callRow(call, open) {
  return h("tr", { class: "pick", tabindex: 0, onclick: () => open(call), onkeydown: (e) => { if (e.key === "Enter") open(call); } },
    h("td", {}, when(call.at)), h("td", {}, call.tool, call.version ? h("span", { class: "muted" }, ` v${call.version}`) : ""),
    h("td", { class: call.success ? "ok" : "bad" }, call.success ? (call.cached ? "ok (cached)" : "ok") : call.error?.code || "failed"),
    h("td", {}, `${call.latency_ms.toFixed(1)} ms`),
    h("td", {}, call.session_id ? h("a", { href: `#/sessions/${call.session_id}` }, call.session_id.slice(0, 8)) : call.test ? "test run" : ""),
    h("td", {}, call.logs?.length ? `${call.logs.length} lines` : ""));
}

function callDetail(box, call) {
  clear(box, h("h2", { tabindex: -1 }, `${call.tool} at ${when(call.at)}`),
    h("div", { class: "grid2" },
      h("div", {}, h("h3", {}, "Arguments"), json(call.arguments), h("h3", {}, call.success ? "Result" : "Error"), json(call.success ? call.result : call.error)),
      h("div", {}, h("h3", {}, "Log lines"), call.logs?.length ? h("pre", { class: "box" }, call.logs.join("\n")) : h("p", { class: "muted" }, "None."))));
  box.querySelector("h2").focus();
}

export async function calls(main) {
  const tool = h("input", { size: 14 });
  const session = h("input", { size: 14 });
  const outcome = h("select", {}, ["", "success", "failure", "cached", "timeout", "tool_error", "invalid_arguments", "circuit_open"].map((o) => h("option", { value: o }, o || "any")));
  const since = h("input", { type: "datetime-local" });
  const until = h("input", { type: "datetime-local" });
  const body = h("tbody");
  const more = h("button", { hidden: true }, "Load more");
  const detailBox = h("div", { class: "panel", hidden: true });
  const tailBody = h("tbody");
  const tailButton = h("button", { "aria-pressed": "false" }, "Start live tail");
  const tailStatus = h("span", { role: "status", class: "muted" });
  let tail = null;
  const open = (call) => { detailBox.hidden = false; callDetail(detailBox, call); };
  const filters = () => ({
    tool: tool.value.trim(), session: session.value.trim(), outcome: outcome.value,
    since: since.value ? new Date(since.value).toISOString() : "", until: until.value ? new Date(until.value).toISOString() : "",
  });
  const load = pager(body, more, async (cursor) => {
    const page = await get("/v1/calls", { ...filters(), limit: 50, cursor });
    return { items: page.calls, next: page.next_cursor };
  }, (c) => callRow(c, open), "No calls match.", 6);
  async function toggleTail() {
    if (tail) { tail.abort(); return; }
    tail = new AbortController();
    tailButton.textContent = "Stop live tail";
    tailButton.setAttribute("aria-pressed", "true");
    tailStatus.textContent = "Connecting…";
    try {
      await stream("/v1/calls/stream", { tool: tool.value.trim() }, (event, call) => {
        if (event !== "call") return;
        tailBody.prepend(callRow(call, open));
        while (tailBody.children.length > 200) tailBody.lastChild.remove();
      }, tail.signal, () => { tailStatus.textContent = "Following new calls…"; },
      () => { tailStatus.textContent = "Connection lost: reconnecting…"; });
    } catch (error) {
      if (!tail?.signal.aborted) tailStatus.textContent = `The tail stopped: ${error.message}`;
    } finally {
      tail = null;
      tailButton.textContent = "Start live tail";
      tailButton.setAttribute("aria-pressed", "false");
      if (/^(Following|Connecting|Connection lost)/.test(tailStatus.textContent)) tailStatus.textContent = "Stopped.";
    }
  }
  tailButton.addEventListener("click", toggleTail);
  const head = () => h("thead", {}, h("tr", {}, ["When", "Tool", "Outcome", "Time", "Session", "Logs"].map((c) => h("th", { scope: "col" }, c))));
  clear(main, h("h1", {}, "Call log"),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); load(true); } },
      field("Tool", tool), field("Session", session), field("Outcome", outcome), field("From", since), field("To", until),
      h("button", { class: "primary", type: "submit" }, "Filter")),
    detailBox,
    h("section", { "aria-labelledby": "tail-title" }, h("h2", { id: "tail-title" }, "Live tail"), h("div", { class: "row" }, tailButton, tailStatus),
      h("div", { class: "tail" }, h("table", { "aria-label": "Live calls" }, head(), tailBody))),
    h("h2", {}, "Logged calls"), h("table", { "aria-label": "Logged calls" }, head(), body), h("div", { class: "row" }, more));
  window.addEventListener("hashchange", () => tail?.abort(), { once: true });
  await load(true);
}
