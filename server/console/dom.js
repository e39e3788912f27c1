// A small DOM builder: text always goes in as text (never as HTML), so data from the API
// cannot become markup.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name in node && typeof value !== "string") node[name] = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function clear(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

let labels = 0;
// An input with its visible label, tied by id (every control has a label).
export function field(label, control, hint) {
  const id = control.id || (control.id = `f${++labels}`);
  return h("label", { for: id }, label, control, hint ? h("span", { class: "muted" }, hint) : null);
}

export function toast(message) {
  const box = document.getElementById("toast");
  const line = h("div", {}, message);
  box.append(line);
  setTimeout(() => line.remove(), 5000);
}

export function json(value) {
  return h("pre", { class: "box" }, JSON.stringify(value, null, 2));
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

// A confirmation as a modal dialog; resolves true only on an explicit "yes".
export function confirmDialog(question, yes = "Delete") {
  return new Promise((resolve) => {
    const dialog = h("dialog", { "aria-labelledby": "confirm-q" },
      h("p", { id: "confirm-q" }, question),
      h("div", { class: "row" },
        h("button", { class: "danger", onclick: () => done(true) }, yes),
        h("button", { onclick: () => done(false), autofocus: true }, "Cancel")));
    function done(answer) { dialog.close(); dialog.remove(); resolve(answer); }
    dialog.addEventListener("cancel", () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

// A table body filled a page at a time: `load(cursor)` answers `{items, next}` (the API's
// `next_cursor`); the "Load more" button asks for the next page. Returns `show(reset)`.
export function pager(body, more, load, row, empty, columns) {
  let cursor = null;
  async function show(reset) {
    if (reset) { cursor = null; clear(body); }
    const page = await load(cursor);
    body.append(...page.items.map(row));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: columns, class: "muted" }, empty)));
    cursor = page.next;
    more.hidden = !cursor;
  }
  more.addEventListener("click", () => show(false));
  return show;
}

// An error as the page shows it: its message, and each problem the API named (line and field).
export function problemsOf(error) {
  const lines = error?.problem?.errors || [];
  return h("div", { role: "alert", class: "bad" }, h("p", {}, error.message || String(error)),
    lines.length ? h("ul", {}, lines.map((e) => h("li", {}, `${e.line ? `line ${e.line}: ` : ""}${e.field ? `${e.field}: ` : ""}${e.message}`))) : "");
}
