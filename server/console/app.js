// The console's shell: sign-in with an API key, the pages the key's role may see, a hash router.
import { ApiError, auth, get } from "./api.js";
import { clear, field, h } from "./dom.js";
import * as admin from "./admin.js";
import * as agents from "./agents.js";
import * as data from "./data.js";
import * as sessions from "./sessions.js";
import * as tools from "./tools.js";
import * as watch from "./watch.js";

const DEVELOPER = [
  ["tools", "Tools", tools.list],
  ["analytics", "Analytics", watch.analytics],
  ["usage", "Usage", watch.usage],
  ["calls", "Call log", watch.calls],
  ["sessions", "Sessions", sessions.list],
  ["bots", "Bots", agents.bots],
  ["providers", "Providers", agents.providers],
  ["datasets", "Data sets", data.datasets],
  ["secrets", "Secrets", data.secrets],
  ["audit", "Audit log", admin.audit],
];
const ADMIN = [["tenants", "Tenants", admin.tenants]];
const DETAIL = { tools: tools.detail, sessions: sessions.detail, tenants: admin.tenant, datasets: data.dataset, bots: agents.bot };

const main = document.getElementById("main");
let expired = false;
let navigation = 0;  // numbers route changes: a slow page never replaces a newer one

function pages() {
  const role = auth.who?.role;
  if (role === "admin") return [...DEVELOPER, ...ADMIN];
  if (role === "developer") return DEVELOPER;
  return [];
}

function signIn(message) {
  const input = h("input", { type: "password", autocomplete: "off", required: true, name: "key" });
  const status = h("p", { role: "alert", class: "bad" }, message || "");
  const form = h("form", { class: "signin panel", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, "Sign in"),
    h("p", { class: "muted" }, "Paste a developer or admin API key. It is kept in this tab's session storage only."),
    field("API key", input), status,
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Sign in")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    auth.key = input.value.trim();
    try {
      await start();
    } catch (error) {
      auth.key = null;
      status.textContent = error instanceof ApiError && error.status === 401 ? "That key is not valid (or was revoked)." : String(error.message || error);
    }
  });
  clear(document.getElementById("nav"));
  clear(document.getElementById("who"));
  clear(main, form);
  input.focus();
  interactive();
}

function interactive() {  // for the speed budget: the first screen can be used from here
  if (!performance.getEntriesByName("console-interactive").length) performance.mark("console-interactive");
}

auth.onExpired = () => {
  if (expired) return;
  expired = true;
  navigation++;  // what was loading is not drawn over the sign-in form
  auth.key = null;
  auth.who = null;
  signIn("Your key is no longer valid (revoked or expired): sign in again to go on.");
};

async function start() {
  auth.who = await get("/v1/whoami", {}, { scoped: false });
  expired = false;
  header();
  await route();
  interactive();
}

function header() {
  const who = auth.who;
  const nav = document.getElementById("nav");
  clear(nav, pages().map(([id, title]) => h("a", { href: `#/${id}`, "data-page": id }, title)), h("a", { href: "/docs" }, "API docs"));
  const out = h("button", { onclick: () => { navigation++; auth.key = null; auth.who = null; location.hash = ""; signIn(); } }, "Sign out");
  const parts = [h("span", {}, `${who.role}${who.tenant ? ` · ${who.tenant}` : ""}`)];
  if (who.role === "admin") {
    const tenant = h("input", { value: auth.tenant, size: 10, placeholder: "tenant id", onchange: (e) => { auth.tenant = e.target.value.trim(); route(); } });
    parts.push(field("Acting for tenant", tenant));
  }
  clear(document.getElementById("who"), parts, out);
}

async function route() {
  if (!auth.who) return;
  const [page = "", ...rest] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const available = pages();
  for (const link of document.querySelectorAll("#nav a[data-page]")) {
    link.toggleAttribute("aria-current", link.dataset.page === page);
    if (link.dataset.page === page) link.setAttribute("aria-current", "page");
  }
  if (!available.length) {
    clear(main, h("h1", {}, "Nothing here for this key"),
      h("p", {}, `This is an ${auth.who.role} key: the console's pages need a developer or admin key. Agent keys attach sessions and call tools through the API.`));
    return;
  }
  const found = available.find(([id]) => id === page);
  const chooseTenant = auth.who.role === "admin" && !auth.tenant;  // an admin acts for a tenant
  if (!found) { location.hash = chooseTenant ? "#/tenants" : `#/${available[0][0]}`; return; }
  if (chooseTenant && page !== "tenants" && page !== "audit") {
    clear(main, h("h1", {}, found[1]), h("p", {}, "Type the tenant to act for in the header (its id), or pick one in ", h("a", { href: "#/tenants" }, "Tenants"), "."));
    return;
  }
  const render = rest.length && DETAIL[page] ? DETAIL[page] : found[2];
  const mine = ++navigation;
  clear(main, h("p", { class: "muted" }, "Loading…"));
  const view = h("div");
  try {
    await render(view, ...rest);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    clear(view, h("h1", {}, "Something went wrong"), h("p", { role: "alert", class: "bad" }, error.message || String(error)));
  }
  if (mine === navigation) clear(main, view);  // else a newer navigation draws its own page
}

window.addEventListener("hashchange", route);
if (auth.key) start().catch(() => signIn()); else signIn();
